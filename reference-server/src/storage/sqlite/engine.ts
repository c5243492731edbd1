/**
 * The synchronous SQLite engine behind {@link SqliteStorage} (`../sqlite.ts`, which
 * makes it the asynchronous {@link Storage}): it composes the parts in `sqlite/`, one
 * concern each, over one connection:
 *
 * - `connection.ts`: opening the database (pragmas) and the prepared-statement caches;
 * - `migrations.ts`: the schema ({@link MIGRATIONS}, `PRAGMA user_version`);
 * - `commits.ts`: units of work, group commit, holds, durability (the WAL fsynced off
 *   the event loop);
 * - `tenants.ts`: tenants, API keys, settings;
 * - `records.ts`: records and their lookups (identifiers, keys, parents, totals, children);
 * - `../collection-query.ts` (shared with PostgreSQL) and `collections.ts`: counting and
 *   paging collections;
 * - `idempotency.ts`: the answers kept for Idempotency-Key repeats;
 * - `webhooks.ts`: the webhook subscriptions, outbox and delivery log.
 *
 * Each repository is given the connection's {@link RepositoryConnection} (cached
 * statements and the storage's units of work), never the storage: another engine
 * brings its own repositories behind the same {@link Storage}.
 */
import type Database from 'better-sqlite3';
import type {
  Access,
  ApiKeyInfo,
  ChildRef,
  CollectionScope,
  IdempotencyKeyRef,
  IdempotentAnswer,
  PageQuery,
  ParentRef,
  RecordWrite,
  StoredRecord,
  Tenant,
} from '../storage.js';
import { SqliteCollections } from './collections.js';
import { SqliteCommits } from './commits.js';
import { type RepositoryConnection, SqliteConnection } from './connection.js';
import { SqliteIdempotentAnswers } from './idempotency.js';
import { migrate } from './migrations.js';
import { SqliteRecords } from './records.js';
import { SqliteTenants } from './tenants.js';
import { SqliteWebhookStore } from './webhooks.js';

/** Options of {@link SqliteEngine} and {@link SqliteStorage}. */
export interface SqliteStorageOptions {
  /** Milliseconds to wait for a lock held by another connection. Default 5000. */
  busyTimeoutMs?: number;
  /** Namespace of tenants created without one. Default `adis`. */
  defaultNamespace?: string;
  /**
   * Batch the transactions of concurrent requests into one commit (see
   * `sqlite/commits.ts`): {@link SqliteStorage.transaction} then returns before the
   * commit, and {@link SqliteStorage.durable} says when it is done. For servers; code
   * that writes and exits at once (scripts, seeding) is simpler without. Default false.
   */
  groupCommit?: boolean;
  /**
   * SQLite page cache in KiB (`PRAGMA cache_size = -n`). Default 65536 (64 MiB): the
   * indexes a write touches stay in memory instead of being read back from the file.
   */
  cacheKiB?: number;
}

/**
 * The SQLite engine, synchronous as better-sqlite3 is. `path` is a file (its folder is
 * created) or `':memory:'`. Its methods are {@link Storage}'s, answering at once; the
 * server reaches it through {@link SqliteStorage}, which orders them with the units of
 * work of concurrent requests.
 *
 * @example
 * ```ts
 * const engine = new SqliteEngine(':memory:');
 * const tenant = engine.ensureTenant('demo');
 * engine.countRecords({ tenantId: tenant.id, kind: 'person' }); // 0
 * engine.close();
 * ```
 */
export class SqliteEngine {
  readonly created: boolean;
  readonly path: string;
  /** Subscriptions, the outbox and the delivery log, on this connection. */
  readonly webhooks: SqliteWebhookStore;
  /** Whether transactions are batched into shared commits (option `groupCommit`). */
  readonly groupCommit: boolean;
  private readonly connection: SqliteConnection;
  private readonly commitLog: SqliteCommits;
  private readonly tenants: SqliteTenants;
  private readonly records: SqliteRecords;
  private readonly collections: SqliteCollections;
  private readonly idempotentAnswers: SqliteIdempotentAnswers;

  constructor(path: string, options: SqliteStorageOptions = {}) {
    this.path = path;
    this.groupCommit = options.groupCommit ?? false;
    const connection = new SqliteConnection(path, {
      busyTimeoutMs: options.busyTimeoutMs,
      cacheKiB: options.cacheKiB,
      groupCommit: this.groupCommit,
    });
    this.connection = connection;
    try {
      this.created = migrate(connection.db);
      const commits = new SqliteCommits(connection, {
        groupCommit: this.groupCommit,
        // A rolled-back batch may have held a subscription change the webhook store
        // already shows.
        onRollback: () => this.webhooks.reload(),
      });
      this.commitLog = commits;
      const repository: RepositoryConnection = {
        statement: (sql) => connection.statement(sql),
        boundedStatement: (sql) => connection.boundedStatement(sql),
        inTransaction: () => connection.inTransaction,
        transaction: (fn) => commits.transaction(fn),
      };
      this.tenants = new SqliteTenants(repository, options.defaultNamespace ?? 'adis');
      this.records = new SqliteRecords(repository);
      this.collections = new SqliteCollections(repository, this.records);
      this.idempotentAnswers = new SqliteIdempotentAnswers(repository);
      this.webhooks = new SqliteWebhookStore(repository);
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  /**
   * How many transactions this connection has committed: each batch of group commit
   * counts once, however many units it held. For tests and benchmarks.
   *
   * @example
   * ```ts
   * const before = storage.commits;
   * // … concurrent requests …
   * storage.commits - before; // 1 when they shared one commit
   * ```
   */
  get commits(): number {
    return this.commitLog.commits;
  }

  ensureTenant(name: string, namespace?: string): Tenant {
    return this.tenants.ensureTenant(name, namespace);
  }

  getTenant(name: string): Tenant | undefined {
    return this.tenants.getTenant(name);
  }

  putApiKey(token: string, tenantName: string, access: Access, source = 'manual'): void {
    this.tenants.putApiKey(token, tenantName, access, source);
  }

  removeApiKeys(source: string): number {
    return this.tenants.removeApiKeys(source);
  }

  authenticate(token: string): ApiKeyInfo | undefined {
    return this.tenants.authenticate(token);
  }

  getSetting(key: string): string | undefined {
    return this.tenants.getSetting(key);
  }

  setSetting(key: string, value: string): void {
    this.tenants.setSetting(key, value);
  }

  findIdempotentAnswer(ref: IdempotencyKeyRef, notBeforeMs: number): IdempotentAnswer | undefined {
    return this.idempotentAnswers.find(ref, notBeforeMs);
  }

  saveIdempotentAnswer(
    ref: IdempotencyKeyRef,
    answer: IdempotentAnswer,
    expireBeforeMs: number,
  ): void {
    this.idempotentAnswers.save(ref, answer, expireBeforeMs);
  }

  insertRecord(write: RecordWrite): StoredRecord {
    return this.records.insert(write);
  }

  insertRecords(writes: Iterable<RecordWrite>): number {
    return this.records.insertMany(writes);
  }

  updateRecord(write: RecordWrite): StoredRecord | undefined {
    return this.records.update(write);
  }

  deleteRecord(tenantId: number, kind: string, id: string): boolean {
    return this.records.delete(tenantId, kind, id);
  }

  getRecord(tenantId: number, kind: string, id: string): StoredRecord | undefined {
    return this.records.get(tenantId, kind, id);
  }

  countRecords(scope: CollectionScope): number {
    return this.collections.count(scope);
  }

  listRecords(query: PageQuery): StoredRecord[] {
    return this.collections.list(query);
  }

  hasRecordAfter(scope: CollectionScope, seq: number): boolean {
    return this.collections.hasAfter(scope, seq);
  }

  findByIdentifier(tenantId: number, kind: string, identifier: string): string | undefined {
    return this.records.findByIdentifier(tenantId, kind, identifier);
  }

  findByKey(tenantId: number, kind: string, name: string, value: string): string[] {
    return this.records.findByKey(tenantId, kind, name, value);
  }

  /**
   * The records of `kind` listed under every one of `parents`, newest first; the cost
   * follows the first parent's children of that kind (see `SqliteRecords.findByParents`).
   *
   * @example
   * ```ts
   * storage.findByParents(tenantId, 'signature', [
   *   { kind: 'person', id: personId },
   *   { kind: 'petition', id: petitionId },
   * ]); // ['…'] when the person signed the petition
   * ```
   */
  findByParents(tenantId: number, kind: string, parents: readonly ParentRef[]): string[] {
    return this.records.findByParents(tenantId, kind, parents);
  }

  tenantOfRecord(kind: string, id: string): Tenant | undefined {
    return this.records.tenantOfRecord(kind, id);
  }

  /**
   * The totals of records of one tenant and kind, by id: the sums of the current
   * contributions to each, by name. Ids without any are absent from the map.
   *
   * @example
   * ```ts
   * storage.insertRecord({ ...signature, contributions: [
   *   { parent: { kind: 'petition', id: petitionId }, name: 'total_signatures', value: 1 },
   * ] });
   * storage.totalsOf(tenantId, 'petition', [petitionId]).get(petitionId);
   * // { total_signatures: 1 }
   * ```
   */
  totalsOf(
    tenantId: number,
    kind: string,
    ids: readonly string[],
  ): Map<string, Record<string, number>> {
    return this.records.totalsOf(tenantId, kind, ids);
  }

  /**
   * The records (of any kind) listing `parent` among their parents, oldest first.
   *
   * @example
   * ```ts
   * storage.childrenOf(tenantId, { kind: 'person', id: personId });
   * // [{ kind: 'signature', id: '…' }, { kind: 'donation', id: '…' }]
   * ```
   */
  childrenOf(tenantId: number, parent: ParentRef): ChildRef[] {
    return this.records.childrenOf(tenantId, parent);
  }

  /**
   * Runs `fn` as one unit of work (see {@link Storage.transaction}). Outside any
   * transaction: its own transaction, committed before returning; with group commit, or
   * while a commit is held ({@link holdCommit}), a savepoint in the open batch (opened
   * if needed), committed on the next turn of the event loop or at the last release.
   * Inside one: a savepoint, so helpers that call insertRecord inside their own
   * transaction stay atomic, and a part that fails rolls back alone.
   *
   * @example
   * ```ts
   * storage.transaction(() => {
   *   storage.insertRecord(person);
   *   storage.insertRecord(signature);
   * });
   * ```
   */
  transaction<T>(fn: () => T): T {
    return this.commitLog.transaction(fn);
  }

  /**
   * {@link transaction} for a function that awaits: commits are held while it runs (its
   * savepoint must not be committed half done). The caller keeps other units out
   * meanwhile ({@link SqliteStorage} does, with its unit lock).
   *
   * @example
   * ```ts
   * await engine.transactionAsync(async () => engine.insertRecord(write));
   * ```
   */
  transactionAsync<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.commitLog.transactionAsync(fn);
  }

  /**
   * Holds commits back until released (see {@link Storage.unit}). With group
   * commit the open batch, and any batch opened meanwhile, waits for the last release
   * and is then committed on the next turn of the event loop, so that requests arriving
   * meanwhile still share it; without, writes meanwhile go into a batch as with group
   * commit, committed at once by the last release.
   *
   * @example
   * ```ts
   * const release = storage.holdCommit();
   * try {
   *   storage.insertRecord(write);
   *   await somethingElse();
   *   storage.saveIdempotentAnswer(ref, answer, Date.now() - 86_400_000);
   * } finally {
   *   release(); // both commit together
   * }
   * ```
   */
  holdCommit(): () => void {
    return this.commitLog.holdCommit();
  }

  commitMark(): number {
    return this.commitLog.commitMark();
  }

  durable(mark?: number): Promise<void> {
    return this.commitLog.durable(mark);
  }

  flush(): void {
    this.commitLog.flush();
  }

  close(): void {
    if (!this.connection.open) return;
    try {
      this.commitLog.flush();
    } finally {
      this.connection.close();
      this.commitLog.closeWal();
    }
  }

  /** The raw better-sqlite3 handle, for the benchmark's query plans and for backups. */
  get database(): Database.Database {
    return this.connection.db;
  }
}

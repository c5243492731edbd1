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
 * - `records.ts`: records and their lookups (identifiers, keys, parents, totals,
 *   children), and collections (`collections.ts`, over `../collection-query.ts` shared
 *   with PostgreSQL; rows decoded by `record-rows.ts`);
 * - `idempotency.ts`: the answers kept for Idempotency-Key repeats;
 * - `webhooks.ts`: the webhook subscriptions, outbox and delivery log.
 *
 * Each repository is given the connection's {@link RepositoryConnection} (cached
 * statements and the storage's units of work), never the storage: another engine
 * brings its own repositories behind the same {@link Storage}.
 */
import type Database from 'better-sqlite3';
import type { IdempotencyStore } from '../idempotency-store.js';
import type { RecordStore } from '../records-store.js';
import type { TenantStore } from '../tenant-store.js';
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
  /** Tenants, API keys and settings (see {@link TenantStore}), answered synchronously. */
  readonly tenants: SqliteTenants;
  /** Records and collections (see {@link RecordStore}), answered synchronously. */
  readonly records: SqliteRecords;
  /** Idempotent answers (see {@link IdempotencyStore}), answered synchronously. */
  readonly idempotency: SqliteIdempotentAnswers;

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
      this.idempotency = new SqliteIdempotentAnswers(repository);
      this.webhooks = new SqliteWebhookStore(repository);
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  /**
   * How many transactions this connection has committed: each batch of group commit
   * counts once, however many units it held. For tests and benchmarks.
   */
  get commits(): number {
    return this.commitLog.commits;
  }

  /**
   * Runs `fn` as one unit of work (see {@link Storage.transaction}). Outside any
   * transaction: its own transaction, committed before returning; with group commit, or
   * while a commit is held ({@link holdCommit}), a savepoint in the open batch (opened
   * if needed), committed on the next turn of the event loop or at the last release.
   * Inside one: a savepoint, so helpers that call insertRecord inside their own
   * transaction stay atomic, and a part that fails rolls back alone.
   */
  transaction<T>(fn: () => T): T {
    return this.commitLog.transaction(fn);
  }

  /**
   * {@link transaction} for a function that awaits: commits are held while it runs (its
   * savepoint must not be committed half done). The caller keeps other units out
   * meanwhile ({@link SqliteStorage} does, with its unit lock).
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

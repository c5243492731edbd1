/**
 * The storage contract. HTTP and domain code talk only to this interface, so another
 * engine (PostgreSQL, an in-memory map for tests) can implement it without touching them.
 * It is asynchronous because a networked engine is: SQLite answers at once, PostgreSQL
 * after a round trip.
 *
 * A storage is its sub-stores, one per concern, each its own contract: `tenants`
 * (tenants, API keys, settings: `tenant-store.ts`), `records` (`records-store.ts`),
 * `idempotency` (`idempotency-store.ts`) and `webhooks` (`webhook-store.ts`), plus the
 * units of work and commits declared here. An engine is a folder with one file per
 * sub-store (`sqlite/`, `postgres/`): a new storage method is its contract's line and
 * one file per engine.
 */
import type { IdempotencyStore } from './idempotency-store.js';
import type { RecordStore } from './records-store.js';
import type { TenantStore } from './tenant-store.js';
import type { WebhookStore } from './webhook-store.js';

export type { IdempotencyKeyRef, IdempotencyStore, IdempotentAnswer } from './idempotency-store.js';
export type { JsonObject } from './json-object.js';
export {
  type ChildRef,
  type CollectionScope,
  type Contribution,
  type DateFilter,
  DuplicateIdentifierError,
  type KeyFilter,
  type LookupKey,
  type LookupOptions,
  type PageQuery,
  type ParentRef,
  type ReadOptions,
  type RecordFilter,
  type RecordStore,
  type RecordWrite,
  type StoredRecord,
} from './records-store.js';
export type { Access, ApiKeyInfo, Tenant, TenantStore } from './tenant-store.js';

/**
 * Raised when a commit failed, so the writes it held are lost: as the rejection of
 * {@link Storage.durable} (the HTTP layer then answers 500 instead of acknowledging
 * them) and by {@link Storage.flush}. `cause` is the engine's error.
 *
 * @example
 * ```ts
 * import { CommitError, type Storage } from 'adis-server';
 *
 * async function acknowledged(storage: Storage, mark: number): Promise<boolean> {
 *   try {
 *     await storage.durable(mark);
 *     return true;
 *   } catch (error) {
 *     if (!(error instanceof CommitError)) throw error;
 *     console.error(error.cause); // the writes since `mark` are lost: answer 500
 *     return false;
 *   }
 * }
 * ```
 */
export class CommitError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CommitError';
  }
}

/**
 * Options of {@link Storage.unit}.
 */
export interface UnitOptions {
  /**
   * The unit outlives the code that starts it (work accepted with 202 that runs after
   * the answer): it is not part of the caller's unit, if any, and commits on its own.
   */
  detached?: boolean;
}

/**
 * The storage engine contract. Every read and write is asynchronous; only the commit
 * bookkeeping ({@link Storage.commitMark}) is not.
 *
 * **Isolation.** A {@link Storage.transaction} runs as if alone: what it reads stays
 * as read until it ends, and no other unit sees its writes before it ends. (SQLite runs
 * transactions one at a time; PostgreSQL locks what a transaction reads.) So
 * read-then-write rules (one signature per person and petition, a person matched by
 * email) hold under concurrent requests and several server processes.
 *
 * **Commits.** An engine may commit each top-level transaction before it resolves, or
 * batch the transactions of concurrent requests into one commit (group commit,
 * {@link Storage.durable} tells when). Either way, nothing may be acknowledged to a
 * client before `durable` resolves for it: the HTTP layer awaits it for every request
 * (`http/answer-after-commit.ts`).
 */
export interface Storage {
  /** Which engine this is: `sqlite` or `postgres`. */
  readonly engine: StorageEngineName;
  /** True when this open created the database (no schema existed). */
  readonly created: boolean;
  /**
   * Webhook subscriptions, the outbox of events and the delivery log, in the same
   * database: an event appended inside {@link transaction} commits with its write.
   */
  readonly webhooks: WebhookStore;

  /** Tenants, their API keys and the server's settings. */
  readonly tenants: TenantStore;
  /** Records of every kind, their side rows, totals and collections. */
  readonly records: RecordStore;
  /** Answers stored under an `Idempotency-Key`. */
  readonly idempotency: IdempotencyStore;

  /**
   * Runs `fn` as one isolated unit of work: all of its writes or none (a throw rolls
   * back its own writes only, and is rethrown). `fn` should await only this storage:
   * the engine may hold other transactions back while it runs. A nested call (from
   * inside `fn`, or inside a {@link unit}) is a unit of its own inside the outer one (a
   * savepoint): its throw, if caught, leaves the outer unit's other writes. With group
   * commit the unit may be committed after this resolves, together with the units of
   * other requests: await {@link durable} before telling anyone it happened.
   *
   * @example
   * ```ts
   * import type { RecordWrite, Storage, StoredRecord } from 'adis-server';
   *
   * async function insertDurably(storage: Storage, write: RecordWrite): Promise<StoredRecord> {
   *   const mark = storage.commitMark();
   *   const record = await storage.transaction(() => storage.records.insert(write));
   *   await storage.durable(mark); // now it survives a crash
   *   return record;
   * }
   * ```
   */
  transaction<T>(fn: () => T | Promise<T>): Promise<T>;
  /**
   * Runs `fn`, which may await anything (a route, the reading of its answer), so that
   * every write it makes commits in one commit, or none does: a request's writes and the
   * answer stored under its Idempotency-Key. Transactions inside it are savepoints of
   * it. Unlike {@link transaction} it does not hold other units back: SQLite holds its
   * batch's commit until `fn` ends; PostgreSQL runs `fn` in a database transaction of its
   * own. Units do not nest unless `fn` of the outer one is still running.
   *
   * @example
   * ```ts
   * import type { IdempotencyKeyRef, IdempotentAnswer, Storage } from 'adis-server';
   *
   * async function answerOnce(
   *   storage: Storage,
   *   ref: IdempotencyKeyRef,
   *   work: () => Promise<IdempotentAnswer>, // writes, and answers
   * ): Promise<IdempotentAnswer> {
   *   return storage.unit(async () => {
   *     const answer = await work();
   *     await storage.idempotency.save(ref, answer, Date.now() - 86_400_000);
   *     return answer; // its writes and the answer kept commit together, or neither
   *   });
   * }
   * ```
   */
  unit<T>(fn: () => Promise<T>, options?: UnitOptions): Promise<T>;
  /**
   * A position in the sequence of commits, to give to {@link durable} later. Take it
   * before the work it should cover starts (the HTTP layer takes one per request).
   */
  commitMark(): number;
  /**
   * Resolves once every write made since `mark` (default: every write made so far) is
   * committed, as durable as the engine makes commits, so that it may be acknowledged.
   * Rejects with {@link CommitError} when a commit that may have held one of them
   * failed: those writes are lost. Resolves at once when nothing is pending.
   *
   * Conservative by design: it cannot tell which writes were whose, so it waits for
   * (and fails with) any commit pending or failed since `mark`.
   */
  durable(mark?: number): Promise<void>;
  /**
   * Commits pending writes now (before a backup, at shutdown). Resolves at once when
   * nothing is pending.
   *
   * @throws {CommitError} when the commit fails (the pending writes are lost).
   */
  flush(): Promise<void>;
  /**
   * Refreshes the query planner's statistics, after a bulk load (the command line's
   * `--seed`) so that the plans of the first calls fit the data. On PostgreSQL,
   * `ANALYZE`: a prepared statement planned while a table had no statistics could pick
   * an index by tenant and kind, filtering on the id, over the unique index on the
   * three (both estimated at one row), and keep that plan until autovacuum analyzed the
   * table, a minute or more into a busy start. SQLite ranks a unique index matched on
   * every column first without statistics: nothing to do there.
   *
   * @example
   * ```ts
   * import { openPostgresStorage, seedPeople } from 'adis-server';
   *
   * const storage = await openPostgresStorage('postgres://adis@db.example/adis');
   * await seedPeople(storage, { tenant: 'demo', count: 10_000, seed: 1 });
   * await storage.analyze();
   * ```
   */
  analyze(): Promise<void>;
  /** Commits pending writes ({@link flush}), then closes the database. */
  close(): Promise<void>;
}

/** The storage engines the server has. */
export type StorageEngineName = 'sqlite' | 'postgres';

/**
 * Raised when the database cannot be reached or cannot take more work now (PostgreSQL
 * restarting, its pool exhausted past the wait): the HTTP layer answers 503 with
 * `Retry-After`. Nothing of the request was committed.
 *
 * @example
 * ```ts
 * import { type Storage, StorageUnavailableError } from 'adis-server';
 *
 * async function person(storage: Storage, tenantId: number, id: string) {
 *   try {
 *     return await storage.records.get(tenantId, 'person', id);
 *   } catch (error) {
 *     if (error instanceof StorageUnavailableError) console.log(`retry in ${error.retryAfterSeconds} s`);
 *     throw error;
 *   }
 * }
 * ```
 */
export class StorageUnavailableError extends Error {
  /** How long a client should wait before trying again. */
  readonly retryAfterSeconds: number;
  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 1;
  }
}

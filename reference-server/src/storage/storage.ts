/**
 * The storage contract. HTTP and domain code talk only to this interface, so another
 * engine (PostgreSQL, an in-memory map for tests) can implement it without touching them.
 * It is asynchronous because a networked engine is: SQLite answers at once, PostgreSQL
 * after a round trip.
 *
 * Storage is deliberately generic: it stores JSON documents of any resource kind,
 * keyed by (tenant, kind, id), with a monotonically increasing `seq` for ordering and
 * keyset paging, a table of identifiers for uniqueness, lookup keys (a person's
 * lower-cased email addresses, phone numbers) for matching, and parent references for
 * sub-collections (a person's signatures, a petition's signatures). Domain rules
 * (what a valid person is, how updates merge) live in `src/domain`, not here.
 */
import type { WebhookStore } from './webhook-store.js';

/** A JSON object as stored and returned. */
export type JsonObject = { [key: string]: unknown };

/** What an API key may do: `read` allows GET only, `write` allows every method. */
export type Access = 'read' | 'write';

/** A tenant: the owner of records. Each API key belongs to one tenant. */
export interface Tenant {
  id: number;
  name: string;
  /** Identifier namespace of the tenant's records (`<namespace>:<id>`). */
  namespace: string;
}

/** The result of looking up an API key. */
export interface ApiKeyInfo {
  tenant: Tenant;
  access: Access;
}

/** A stored record as read back. */
export interface StoredRecord {
  /** Monotonic insertion number: order of collections and the keyset paging cursor. */
  seq: number;
  kind: string;
  id: string;
  doc: JsonObject;
  created_date: string;
  modified_date: string;
}

/** A named lookup value of a record (for example `email` → `ana@example.org`). */
export interface LookupKey {
  name: string;
  value: string;
}

/** A reference from a record to a parent record, for sub-collections. */
export interface ParentRef {
  kind: string;
  id: string;
}

/**
 * What a record adds to a total of another record (a signature adds 1 to its
 * petition's `total_signatures`; a donation adds its amount to its page's
 * `total_amount`). Totals are the sums of the contributions of the records that exist
 * now, kept in the same transaction as every write, so they stay exact under
 * concurrent writers.
 */
export interface Contribution {
  /** The record whose total this adds to. */
  parent: ParentRef;
  /** Name of the total, for example `total_signatures` or `ticket_levels.VIP.total_tickets`. */
  name: string;
  /** Amount added; may be fractional (money). Stored exactly to 1/10000. */
  value: number;
}

/**
 * Whose idempotency key a stored answer is filed under: keys are per tenant, and calls
 * without an API key (a page calling a helper, the tenant being the record's) have a
 * namespace of their own beside the tenant's keyed calls.
 */
export interface IdempotencyKeyRef {
  tenantId: number;
  /** True for calls without an API key. */
  anonymous: boolean;
  /** The `Idempotency-Key` header as sent. */
  key: string;
}

/** The answer to a POST that carried an `Idempotency-Key`, as stored for its repeats. */
export interface IdempotentAnswer {
  /** Hash of what identifies the request (method, path and query, body bytes). */
  fingerprint: string;
  status: number;
  /** The answer's headers (name, value), in order. */
  headers: readonly (readonly [string, string])[];
  body: Uint8Array;
  /** When the first request was answered, in milliseconds since the epoch. */
  createdMs: number;
}

/** A date comparison on a record's own timestamps. */
export interface DateFilter {
  column: 'created_date' | 'modified_date';
  op: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
  /** ISO 8601 instant in the stored form (`Date.prototype.toISOString`). */
  value: string;
}

/** Records with the lookup key `key` equal to `value` (for example `email`). */
export interface KeyFilter {
  key: string;
  value: string;
}

/** One condition of a filtered collection; all conditions must hold. */
export type RecordFilter = DateFilter | KeyFilter;

/** A record that refers to another one (a child listed under a parent). */
export interface ChildRef {
  kind: string;
  id: string;
}

/** Everything written for one record. */
export interface RecordWrite {
  tenantId: number;
  kind: string;
  id: string;
  doc: JsonObject;
  created_date: string;
  modified_date: string;
  /** All identifiers of the record; unique per (tenant, kind). */
  identifiers: readonly string[];
  /** Lookup keys for matching; replaced whole on every write. */
  keys?: readonly LookupKey[];
  /**
   * Every record this one refers to (parents of sub-collections, creators, …); replaced
   * whole on every write. References to records that do not exist are skipped.
   */
  parents?: readonly ParentRef[];
  /** What this record adds to totals of other records; replaced whole on every write. */
  contributions?: readonly Contribution[];
}

/** Which records a collection query covers. */
export interface CollectionScope {
  tenantId: number;
  kind: string;
  /** Only records referring to this parent (a sub-collection). */
  parent?: ParentRef;
  /** Only records matching every filter. */
  filters?: readonly RecordFilter[];
}

/**
 * One page of a collection, in ascending `seq` order whatever the access path.
 * Exactly one of `after`, `before`, `offset` or `offsetFromEnd` selects the records.
 */
export interface PageQuery extends CollectionScope {
  limit: number;
  /** Records with seq greater than this (keyset, forward). */
  after?: number;
  /** The `limit` records with seq just below this (keyset, backward). */
  before?: number;
  /** Skip this many records from the start. */
  offset?: number;
  /** Skip this many records from the end (scans the index backwards; cheap deep pages). */
  offsetFromEnd?: number;
}

/**
 * Raised when a write would give two records of a tenant and kind the same identifier.
 * The domain layer turns it into a 400 `DUPLICATE_IDENTIFIER`.
 *
 * @example
 * ```ts
 * try { await storage.insertRecord(write); }
 * catch (error) { if (error instanceof DuplicateIdentifierError) console.log(error.identifier); }
 * ```
 */
export class DuplicateIdentifierError extends Error {
  readonly identifier: string;
  constructor(identifier: string) {
    super(`identifier ${identifier} is already used by another record`);
    this.name = 'DuplicateIdentifierError';
    this.identifier = identifier;
  }
}

/**
 * Raised when a commit failed, so the writes it held are lost: as the rejection of
 * {@link Storage.durable} (the HTTP layer then answers 500 instead of acknowledging
 * them) and by {@link Storage.flush}. `cause` is the engine's error.
 *
 * @example
 * ```ts
 * try { await storage.durable(mark); }
 * catch (error) { if (error instanceof CommitError) console.error(error.cause); }
 * ```
 */
export class CommitError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CommitError';
  }
}

/** Options of {@link Storage.getRecord}. */
export interface ReadOptions {
  /** The transaction will change the record: hold it against other writers until it ends. */
  forUpdate?: boolean;
}

/** Options of {@link Storage.findByKey} and {@link Storage.findByParents}. */
export interface LookupOptions {
  /**
   * The transaction will insert a record with this key (or these parents) if none is
   * found: the same look-up by another transaction waits until this one ends. Without it
   * a look-up waits for nobody (a tag found by name, a hot key read by every call).
   */
  forInsert?: boolean;
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

  /** Returns the tenant named `name`, creating it (with `namespace`) when missing. */
  ensureTenant(name: string, namespace?: string): Promise<Tenant>;
  /** The tenant named `name`, if any. */
  getTenant(name: string): Promise<Tenant | undefined>;
  /** Stores an API key (hashed) for a tenant; `source` groups keys for replacement. */
  putApiKey(token: string, tenantName: string, access: Access, source?: string): Promise<void>;
  /** Removes every API key added with `source`; returns how many. */
  removeApiKeys(source: string): Promise<number>;
  /** Looks up a plain-text API key. */
  authenticate(token: string): Promise<ApiKeyInfo | undefined>;
  /** A persistent setting. */
  getSetting(key: string): Promise<string | undefined>;
  /** Stores a persistent setting. */
  setSetting(key: string, value: string): Promise<void>;

  /** Inserts a record; rejects with {@link DuplicateIdentifierError} on a taken identifier. */
  insertRecord(write: RecordWrite): Promise<StoredRecord>;
  /**
   * Inserts many records in one transaction (bulk load, seeding); resolves to the count.
   * All or nothing: a failure rolls the whole batch back.
   */
  insertRecords(writes: Iterable<RecordWrite>): Promise<number>;
  /** Replaces a record's document, identifiers, keys and parents; undefined when missing. */
  updateRecord(write: RecordWrite): Promise<StoredRecord | undefined>;
  /** Deletes a record; false when it did not exist. */
  deleteRecord(tenantId: number, kind: string, id: string): Promise<boolean>;
  /**
   * One record. Inside a transaction it stays as read until the transaction ends: no
   * other transaction changes or deletes it meanwhile (PostgreSQL: a shared row lock,
   * which other readers share). With `forUpdate`, other transactions reading it for
   * update wait too: give it when the transaction will change the record it read.
   */
  getRecord(
    tenantId: number,
    kind: string,
    id: string,
    options?: ReadOptions,
  ): Promise<StoredRecord | undefined>;
  /** Number of records in a collection. */
  countRecords(scope: CollectionScope): Promise<number>;
  /** One page of a collection, ascending by seq. */
  listRecords(query: PageQuery): Promise<StoredRecord[]>;
  /** Whether the collection holds a record with seq greater than `seq`. */
  hasRecordAfter(scope: CollectionScope, seq: number): Promise<boolean>;
  /** Id of the record of that tenant and kind carrying `identifier`. */
  findByIdentifier(tenantId: number, kind: string, identifier: string): Promise<string | undefined>;
  /**
   * Ids of records with the lookup key `name` = `value`, oldest first. With
   * `forInsert`, inside a transaction, the same look-up with `forInsert` by another
   * transaction waits until this one ends, and then sees what it inserted: "look up,
   * insert if none" makes one record (the person matched by email).
   */
  findByKey(
    tenantId: number,
    kind: string,
    name: string,
    value: string,
    options?: LookupOptions,
  ): Promise<string[]>;
  /**
   * Ids of the records of `kind` whose `parents` include every one of `parents` (a
   * person's signatures of one petition), newest first; none when a parent does not
   * exist. The look-up walks the children of the first parent: give the one with the
   * fewest first (the person, not the petition). `forInsert` as for {@link findByKey}
   * (one signature per person and petition).
   */
  findByParents(
    tenantId: number,
    kind: string,
    parents: readonly ParentRef[],
    options?: LookupOptions,
  ): Promise<string[]>;
  /**
   * The tenant owning the record of `kind` with id `id`, whichever tenant it is. For
   * calls without an API key (a browser recording a signature): the record in the URL
   * says whose data the call is about. Record ids are UUIDs, unique across tenants.
   */
  tenantOfRecord(kind: string, id: string): Promise<Tenant | undefined>;

  /**
   * The totals of records: for each given id that has any, the sums of the current
   * contributions to it by name. Ids without contributions are absent from the map.
   */
  totalsOf(
    tenantId: number,
    kind: string,
    ids: readonly string[],
  ): Promise<Map<string, Record<string, number>>>;
  /** Records (of any kind) whose `parents` include this record, oldest first. */
  childrenOf(tenantId: number, parent: ParentRef): Promise<ChildRef[]>;

  /**
   * The stored answer filed under `ref`, unless it was stored before `notBeforeMs`
   * (an expired answer is as good as none).
   */
  findIdempotentAnswer(
    ref: IdempotencyKeyRef,
    notBeforeMs: number,
  ): Promise<IdempotentAnswer | undefined>;
  /**
   * Files `answer` under `ref` (replacing an expired one), and removes a few answers
   * stored before `expireBeforeMs`, so that a table written at any rate holds about one
   * retention period of answers. Call it inside the {@link unit} of the request it
   * answers, to commit it with the request's writes.
   */
  saveIdempotentAnswer(
    ref: IdempotencyKeyRef,
    answer: IdempotentAnswer,
    expireBeforeMs: number,
  ): Promise<void>;

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
   * const mark = storage.commitMark();
   * const record = await storage.transaction(() => storage.insertRecord(write));
   * await storage.durable(mark); // now it survives a crash
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
   * await storage.unit(async () => {
   *   await work(); // writes
   *   await storage.saveIdempotentAnswer(ref, answer, expireBefore);
   * });
   * ```
   */
  unit<T>(fn: () => Promise<T>, options?: UnitOptions): Promise<T>;
  /**
   * A position in the sequence of commits, to give to {@link durable} later. Take it
   * before the work it should cover starts (the HTTP layer takes one per request).
   *
   * @example
   * ```ts
   * const mark = storage.commitMark();
   * ```
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
   *
   * @example
   * ```ts
   * const mark = storage.commitMark();
   * await storage.insertRecord(write);
   * await storage.durable(mark);
   * ```
   */
  durable(mark?: number): Promise<void>;
  /**
   * Commits pending writes now (before a backup, at shutdown). Resolves at once when
   * nothing is pending.
   *
   * @throws {CommitError} when the commit fails (the pending writes are lost).
   *
   * @example
   * ```ts
   * await storage.flush();
   * ```
   */
  flush(): Promise<void>;
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
 * try { await storage.getRecord(1, 'person', id); }
 * catch (error) { if (error instanceof StorageUnavailableError) console.log(error.retryAfterSeconds); }
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

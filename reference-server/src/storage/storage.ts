/**
 * The storage contract. HTTP and domain code talk only to this interface, so another
 * engine (Postgres, an in-memory map for tests) can implement it without touching them.
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
 * try { storage.insertRecord(write); }
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

/**
 * The storage engine contract. Reads and writes are synchronous (better-sqlite3 style);
 * only {@link Storage.durable} is asynchronous.
 *
 * **Commits.** An engine may commit each top-level {@link Storage.transaction} before
 * it returns, or batch the transactions of concurrent requests into one commit (group
 * commit, {@link Storage.durable} tells when). Either way, nothing may be acknowledged
 * to a client before `durable` resolves for it: the HTTP layer awaits it for every
 * request (`http/answer-after-commit.ts`).
 */
export interface Storage {
  /** True when this open created the database (no schema existed). */
  readonly created: boolean;
  /**
   * Webhook subscriptions, the outbox of events and the delivery log, in the same
   * database: an event appended inside {@link transaction} commits with its write.
   */
  readonly webhooks: WebhookStore;

  /** Returns the tenant named `name`, creating it (with `namespace`) when missing. */
  ensureTenant(name: string, namespace?: string): Tenant;
  /** The tenant named `name`, if any. */
  getTenant(name: string): Tenant | undefined;
  /** Stores an API key (hashed) for a tenant; `source` groups keys for replacement. */
  putApiKey(token: string, tenantName: string, access: Access, source?: string): void;
  /** Removes every API key added with `source`; returns how many. */
  removeApiKeys(source: string): number;
  /** Looks up a plain-text API key. */
  authenticate(token: string): ApiKeyInfo | undefined;
  /** A persistent setting. */
  getSetting(key: string): string | undefined;
  /** Stores a persistent setting. */
  setSetting(key: string, value: string): void;

  /** Inserts a record; throws {@link DuplicateIdentifierError} on a taken identifier. */
  insertRecord(write: RecordWrite): StoredRecord;
  /**
   * Inserts many records in one transaction (bulk load, seeding); returns the count.
   * All or nothing: a failure rolls the whole batch back.
   */
  insertRecords(writes: Iterable<RecordWrite>): number;
  /** Replaces a record's document, identifiers, keys and parents; undefined when missing. */
  updateRecord(write: RecordWrite): StoredRecord | undefined;
  /** Deletes a record; false when it did not exist. */
  deleteRecord(tenantId: number, kind: string, id: string): boolean;
  /** One record. */
  getRecord(tenantId: number, kind: string, id: string): StoredRecord | undefined;
  /** Number of records in a collection. */
  countRecords(scope: CollectionScope): number;
  /** One page of a collection, ascending by seq. */
  listRecords(query: PageQuery): StoredRecord[];
  /** Whether the collection holds a record with seq greater than `seq`. */
  hasRecordAfter(scope: CollectionScope, seq: number): boolean;
  /** Id of the record of that tenant and kind carrying `identifier`. */
  findByIdentifier(tenantId: number, kind: string, identifier: string): string | undefined;
  /** Ids of records with the lookup key `name` = `value`, oldest first. */
  findByKey(tenantId: number, kind: string, name: string, value: string): string[];
  /**
   * Ids of the records of `kind` whose `parents` include every one of `parents` (a
   * person's signatures of one petition), newest first; none when a parent does not
   * exist. The look-up walks the children of the first parent: give the one with the
   * fewest first (the person, not the petition).
   */
  findByParents(tenantId: number, kind: string, parents: readonly ParentRef[]): string[];
  /**
   * The tenant owning the record of `kind` with id `id`, whichever tenant it is. For
   * calls without an API key (a browser recording a signature): the record in the URL
   * says whose data the call is about. Record ids are UUIDs, unique across tenants.
   */
  tenantOfRecord(kind: string, id: string): Tenant | undefined;

  /**
   * The totals of records: for each given id that has any, the sums of the current
   * contributions to it by name. Ids without contributions are absent from the map.
   */
  totalsOf(
    tenantId: number,
    kind: string,
    ids: readonly string[],
  ): Map<string, Record<string, number>>;
  /** Records (of any kind) whose `parents` include this record, oldest first. */
  childrenOf(tenantId: number, parent: ParentRef): ChildRef[];

  /**
   * The stored answer filed under `ref`, unless it was stored before `notBeforeMs`
   * (an expired answer is as good as none).
   */
  findIdempotentAnswer(ref: IdempotencyKeyRef, notBeforeMs: number): IdempotentAnswer | undefined;
  /**
   * Files `answer` under `ref` in a unit of work of its own (replacing an expired one),
   * and removes a few answers stored before `expireBeforeMs`, so that a table written at
   * any rate holds about one retention period of answers. Call it inside
   * {@link holdCommit} to commit it with the writes of the request it answers.
   */
  saveIdempotentAnswer(
    ref: IdempotencyKeyRef,
    answer: IdempotentAnswer,
    expireBeforeMs: number,
  ): void;

  /**
   * Runs `fn` as one unit of work: all of its writes or none (a throw rolls back its
   * own writes only, and is rethrown). A nested call is a unit of its own inside the
   * outer one (a savepoint): its throw, if caught, leaves the outer unit's other writes.
   * With group commit the unit may be committed after this returns, together with the
   * units of other requests: await {@link durable} before telling anyone it happened.
   *
   * @example
   * ```ts
   * const mark = storage.commitMark();
   * const record = storage.transaction(() => storage.insertRecord(write));
   * await storage.durable(mark); // now it survives a crash
   * ```
   */
  transaction<T>(fn: () => T): T;
  /**
   * Holds commits back until the returned function is called: every write made
   * meanwhile, by this caller or anyone else, commits in one commit with the writes the
   * caller makes just before releasing. So work that spans `await`s (a request whose
   * writes are followed by the storing of its answer) is committed whole or not at all.
   * Writes that would have been committed at once are batched while a hold is on, and
   * {@link durable} tells when they are committed, as with group commit. Release every
   * hold (in a `finally`): commits wait for the last one. {@link flush} commits anyway.
   *
   * @example
   * ```ts
   * const release = storage.holdCommit();
   * try {
   *   await work(); // writes
   *   storage.saveIdempotentAnswer(ref, answer, expireBefore);
   * } finally {
   *   release();
   * }
   * ```
   */
  holdCommit(): () => void;
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
   * storage.insertRecord(write);
   * await storage.durable(mark);
   * ```
   */
  durable(mark?: number): Promise<void>;
  /**
   * Commits pending writes now, synchronously (before a backup, at shutdown). A no-op
   * when nothing is pending.
   *
   * @throws {CommitError} when the commit fails (the pending writes are lost).
   *
   * @example
   * ```ts
   * storage.flush();
   * ```
   */
  flush(): void;
  /** Commits pending writes ({@link flush}), then closes the database. */
  close(): void;
}

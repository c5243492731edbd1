/**
 * Records of every kind: the `records` sub-store of a {@link Storage}.
 *
 * Deliberately generic: it stores JSON documents of any resource kind, keyed by
 * (tenant, kind, id), with a monotonically increasing `seq` for ordering and keyset
 * paging, a table of identifiers for uniqueness, lookup keys (a person's lower-cased
 * email addresses, phone numbers) for matching, parent references for sub-collections
 * (a person's signatures, a petition's signatures) and contributions to other records'
 * totals. Domain rules (what a valid person is, how updates merge) live in
 * `src/domain`, not here.
 */
import type { JsonObject } from './json-object.js';
import type { Tenant } from './tenant-store.js';

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
 * import { DuplicateIdentifierError, type RecordWrite, type Storage } from 'adis-server';
 *
 * async function insert(storage: Storage, write: RecordWrite) {
 *   try {
 *     return await storage.records.insert(write);
 *   } catch (error) {
 *     if (error instanceof DuplicateIdentifierError) console.log(`${error.identifier} is taken`);
 *     throw error;
 *   }
 * }
 * ```
 */
export class DuplicateIdentifierError extends Error {
  readonly identifier: string;
  /** The kind of the record that could not take it, when known. */
  readonly kind: string | undefined;
  constructor(identifier: string, kind?: string) {
    super(`identifier ${identifier} is already used by another record`);
    this.name = 'DuplicateIdentifierError';
    this.identifier = identifier;
    this.kind = kind;
  }
}

/** Options of {@link RecordStore.get}. */
export interface ReadOptions {
  /** The transaction will change the record: hold it against other writers until it ends. */
  forUpdate?: boolean;
}

/** Options of {@link RecordStore.findByKey} and {@link RecordStore.findByParents}. */
export interface LookupOptions {
  /**
   * The transaction will insert a record with this key (or these parents) if none is
   * found: the same look-up by another transaction waits until this one ends. Without it
   * a look-up waits for nobody (a tag found by name, a hot key read by every call).
   */
  forInsert?: boolean;
  /**
   * The caller will read the records found (`get`) in this transaction: a storage may
   * fetch them with the look-up, as `get` would (PostgreSQL does: one statement instead
   * of two, the rows locked shared as `get` locks them). Only for {@link RecordStore.findByKey}.
   */
  read?: boolean;
}

/** The records sub-store: every kind's records, their side rows and collections. */
export interface RecordStore {
  /** Inserts a record; rejects with {@link DuplicateIdentifierError} on a taken identifier. */
  insert(write: RecordWrite): Promise<StoredRecord>;
  /**
   * Inserts many records in one transaction (bulk load, seeding); resolves to the count.
   * All or nothing: a failure rolls the whole batch back.
   */
  insertMany(writes: Iterable<RecordWrite>): Promise<number>;
  /** Replaces a record's document, identifiers, keys and parents; undefined when missing. */
  update(write: RecordWrite): Promise<StoredRecord | undefined>;
  /** Deletes a record; false when it did not exist. */
  delete(tenantId: number, kind: string, id: string): Promise<boolean>;
  /**
   * One record. Inside a transaction it stays as read until the transaction ends: no
   * other transaction changes or deletes it meanwhile (PostgreSQL: a shared row lock,
   * which other readers share). With `forUpdate`, other transactions reading it for
   * update wait too: give it when the transaction will change the record it read.
   */
  get(
    tenantId: number,
    kind: string,
    id: string,
    options?: ReadOptions,
  ): Promise<StoredRecord | undefined>;
  /** Number of records in a collection. */
  count(scope: CollectionScope): Promise<number>;
  /** One page of a collection, ascending by seq. */
  list(query: PageQuery): Promise<StoredRecord[]>;
  /** Whether the collection holds a record with seq greater than `seq`. */
  hasAfter(scope: CollectionScope, seq: number): Promise<boolean>;
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
  tenantOf(kind: string, id: string): Promise<Tenant | undefined>;
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
}

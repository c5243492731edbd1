/**
 * Generic record operations: create, read, update, delete and collection pages for any
 * registered kind. Applies the spec's identifier and update rules; knows nothing of HTTP.
 * The class is the public face; each operation's work, and its documentation, is in the
 * module of its concept, which takes a `RecordContext` rather than this class (so it
 * imports nothing of it).
 */
import type {
  JsonObject,
  ReadOptions,
  Storage,
  StoredRecord,
  Tenant,
} from '../../storage/storage.js';
import type { KindRegistry, ResourceKind } from '../kinds.js';
import type { PageRequest } from '../paging.js';
import { deleteRecord } from './cascade-delete.js';
import { type CollectionPage, type CollectionRef, collectionPage } from './collection-page.js';
import type { RecordContext } from './context.js';
import { createRecord } from './create.js';
import { recordEvent } from './events.js';
import type {
  CreateOptions,
  CreateOrUpdateOptions,
  EventDetails,
  RecordReplacement,
  UpdateOptions,
} from './options.js';
import { getRecord } from './read.js';
import { totalsOfRecords } from './totals.js';
import { replaceRecord, updateRecord } from './update.js';
import { createOrUpdateRecord, type RecordUpsert } from './upsert.js';

/**
 * Record operations over a {@link Storage}: the operations of the record modules bound
 * to one storage and registry, so that routes and helpers pass one object around.
 */
export class RecordService implements RecordContext {
  constructor(
    readonly storage: Storage,
    /** The kinds served: links resolve and deletes cascade through it. */
    readonly registry: KindRegistry,
  ) {}

  /** Creates a record from a validated document: {@link createRecord}. */
  create(
    tenant: Tenant,
    kind: ResourceKind,
    input: JsonObject,
    options?: CreateOptions,
  ): Promise<StoredRecord> {
    return createRecord(this, tenant, kind, input, options);
  }

  /** Appends the webhook event of a record to the outbox: {@link recordEvent}. */
  recordEvent(
    tenant: Tenant,
    kind: ResourceKind,
    record: StoredRecord,
    details?: EventDetails,
    now?: Date,
  ): Promise<void> {
    return recordEvent(this, tenant, kind, record, details, now);
  }

  /**
   * Creates a record, or updates the one of the same references for a kind with
   * {@link ResourceKind.oneRecordPer}: {@link createOrUpdateRecord}.
   */
  createOrUpdate(
    tenant: Tenant,
    kind: ResourceKind,
    input: JsonObject,
    options?: CreateOrUpdateOptions,
  ): Promise<RecordUpsert> {
    return createOrUpdateRecord(this, tenant, kind, input, options);
  }

  /** One record, or a 404 `ApiError`: {@link getRecord}. */
  get(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    options?: ReadOptions,
  ): Promise<StoredRecord> {
    return getRecord(this, tenant, kind, id, options);
  }

  /** Applies a validated partial update (PUT): {@link updateRecord}. */
  update(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    patch: JsonObject,
    options?: UpdateOptions,
  ): Promise<StoredRecord> {
    return updateRecord(this, tenant, kind, id, patch, options);
  }

  /**
   * Stores new fields, identifiers and references for an existing record, validated
   * as a whole: {@link replaceRecord}.
   */
  replace(
    tenant: Tenant,
    kind: ResourceKind,
    current: StoredRecord,
    replacement: RecordReplacement,
  ): Promise<StoredRecord> {
    return replaceRecord(this, tenant, kind, current, replacement);
  }

  /** Deletes a record and what depends on it, or throws a 404: {@link deleteRecord}. */
  delete(tenant: Tenant, kind: ResourceKind, id: string, now?: Date): Promise<void> {
    return deleteRecord(this, tenant, kind, id, now);
  }

  /** The totals of records of a kind, for rendering: {@link totalsOfRecords}. */
  totals(
    tenant: Pick<Tenant, 'id'>,
    kind: ResourceKind,
    ids: readonly string[],
  ): Promise<Map<string, Record<string, number>>> {
    return totalsOfRecords(this, tenant, kind, ids);
  }

  /** One page of a collection or sub-collection: {@link collectionPage}. */
  page(tenant: Tenant, collection: CollectionRef, request: PageRequest): Promise<CollectionPage> {
    return collectionPage(this, tenant, collection, request);
  }
}

/**
 * Generic record operations: create, read, update, delete and collection pages for any
 * registered kind. Applies the spec's identifier and update rules; knows nothing of HTTP.
 * The class is the public face; each operation's work is in the module of its concept.
 */
import type {
  JsonObject,
  ReadOptions,
  Storage,
  StoredRecord,
  Tenant,
} from '../../storage/storage.js';
import type { KindRegistry, References, ResourceKind } from '../kinds.js';
import type { PageRequest } from '../paging.js';
import { deleteRecord } from './cascade-delete.js';
import { type CollectionPage, type CollectionRef, collectionPage } from './collection-page.js';
import type { RecordContext } from './context.js';
import { createRecord } from './create.js';
import type { HELPER_MEMBERS, SERVER_STATE } from './document.js';
import { recordEvent } from './events.js';
import type {
  CreateOptions,
  CreateOrUpdateOptions,
  EventDetails,
  UpdateOptions,
} from './options.js';
import { getRecord } from './read.js';
import { totalsOfRecords } from './totals.js';
import { replaceRecord, updateRecord } from './update.js';
import { createOrUpdateRecord, type RecordUpsert } from './upsert.js';

/**
 * Record operations over a {@link Storage}.
 *
 * @example
 * ```ts
 * const records = new RecordService(storage, registry);
 * const person = records.create(tenant, personKind, personKind.parse({ given_name: 'Ana' }));
 * ```
 */
export class RecordService implements RecordContext {
  constructor(
    readonly storage: Storage,
    /** The kinds served: links resolve and deletes cascade through it. */
    readonly registry: KindRegistry,
  ) {}

  /**
   * Creates a record from a validated document: assigns the id and local identifier,
   * keeps foreign identifiers, resolves links, drops read-only fields and nulls.
   */
  create(
    tenant: Tenant,
    kind: ResourceKind,
    input: JsonObject,
    options?: CreateOptions,
  ): Promise<StoredRecord> {
    return createRecord(this, tenant, kind, input, options);
  }

  /**
   * Appends the webhook event of `record` (its kind's {@link ResourceKind.event}) to the
   * outbox, in the caller's transaction, so it commits with the write that made it. A
   * no-op for kinds that make no event and for tenants without subscriptions (the
   * outbox is then not written at all). `create` calls it; the person signup helper too,
   * for a signup that matched a known person.
   *
   * @example
   * ```ts
   * await storage.transaction(async () => {
   *   const { record } = await upsertPerson(records, tenant, sent, { anonymous: false, now });
   *   await records.recordEvent(tenant, personKind, record, { addTags: ['volunteer'] }, now);
   * });
   * ```
   */
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
   * Creates a record like {@link create}; but for a kind with
   * {@link ResourceKind.oneRecordPer}, when a record with the same references exists
   * (the person signed this petition before), updates that record instead: the fields
   * sent change as in {@link update}, identifiers sent are added to its own, and the
   * totals it adds to stay as they were. With `fillOnly`, only what it lacks is filled.
   * Only a create makes the kind's webhook event: signing again is no new act.
   *
   * @example
   * ```ts
   * const { record, created } = await records.createOrUpdate(tenant, signatureKind, { comments: 'Yes!' }, {
   *   links: { person: { plural: 'people', id: personId } },
   *   parent: { rel: 'petition', ref: { kind: 'petition', id: petitionId } },
   * });
   * created; // false when the person had signed: 200, not 201
   * ```
   */
  createOrUpdate(
    tenant: Tenant,
    kind: ResourceKind,
    input: JsonObject,
    options?: CreateOrUpdateOptions,
  ): Promise<RecordUpsert> {
    return createOrUpdateRecord(this, tenant, kind, input, options);
  }

  /** One record, or a 404 `ApiError`. */
  get(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    options?: ReadOptions,
  ): Promise<StoredRecord> {
    return getRecord(this, tenant, kind, id, options);
  }

  /**
   * Applies a validated partial update (PUT): see `merge.ts` for the rules. Sending
   * `identifiers` sets the foreign identifiers; the local one always stays. Links sent
   * replace the record's references one relation at a time.
   */
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
   * Stores new fields, identifiers and references for an existing record after
   * validating the result (a merged document must still satisfy the schema and the
   * kind's rules: an update that only moves `end_date` before `start_date` fails).
   * A {@link SERVER_STATE} member of `fields` is stored as given, without validation;
   * so are the {@link HELPER_MEMBERS}.
   *
   * @param now - Default: the current time.
   * @param sent - The identifiers the client sent, named in a duplicate's error. Default: `identifiers`.
   * @param refs - Default: the references `current` has.
   */
  replace(
    tenant: Tenant,
    kind: ResourceKind,
    current: StoredRecord,
    identifiers: readonly string[],
    fields: JsonObject,
    now?: Date,
    sent?: readonly string[],
    refs?: References,
  ): Promise<StoredRecord> {
    return replaceRecord(this, tenant, kind, current, identifiers, fields, now, sent, refs);
  }

  /**
   * Deletes a record, or throws a 404 `ApiError`. Records that cannot exist without it
   * (a petition's signatures, a person's donations) are deleted with it; records that
   * only mention it (a petition's creator) lose that link. All in one transaction.
   */
  delete(tenant: Tenant, kind: ResourceKind, id: string, now?: Date): Promise<void> {
    return deleteRecord(this, tenant, kind, id, now);
  }

  /**
   * The totals of records of a kind, for rendering: every total the kind declares,
   * 0 when nothing contributed yet.
   */
  totals(
    tenant: Pick<Tenant, 'id'>,
    kind: ResourceKind,
    ids: readonly string[],
  ): Promise<Map<string, Record<string, number>>> {
    return totalsOfRecords(this, tenant, kind, ids);
  }

  /** One page of a collection or sub-collection. */
  page(tenant: Tenant, collection: CollectionRef, request: PageRequest): Promise<CollectionPage> {
    return collectionPage(this, tenant, collection, request);
  }
}

/**
 * Generic record operations: create, read, update, delete and collection pages for any
 * registered kind. Applies the spec's identifier and update rules; knows nothing of HTTP.
 */
import {
  DuplicateIdentifierError,
  type JsonObject,
  type Storage,
  type StoredRecord,
  type Tenant,
} from '../storage/storage.js';
import { ApiError, ErrorCode } from './errors.js';
import {
  duplicateIdentifierError,
  localIdentifier,
  newRecordId,
  resolveIdentifiers,
} from './identifiers.js';
import type { ResourceKind } from './kinds.js';
import { applyPatch, dropNulls } from './merge.js';
import { type PageRequest, planPage, totalPages } from './paging.js';

/** Members the server owns in every stored document. */
const SERVER_FIELDS = ['identifiers', 'created_date', 'modified_date'] as const;

/** One page of a collection, ready for rendering. */
export interface CollectionPage {
  records: StoredRecord[];
  page: number;
  perPage: number;
  totalRecords: number;
  totalPages: number;
  /** Whether a record exists after the last one of this page. */
  hasNext: boolean;
}

/** Which collection to page: a kind's collection, or a sub-collection of a parent. */
export interface CollectionRef {
  kind: string;
  parent?: { kind: string; id: string };
}

/**
 * A document in the canonical member order: identifiers, dates, then the fields.
 *
 * @example
 * ```ts
 * composeDocument(['adis:1'], '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', { given_name: 'Ana' });
 * ```
 */
export function composeDocument(
  identifiers: readonly string[],
  created: string,
  modified: string,
  fields: JsonObject,
): JsonObject {
  const doc: JsonObject = {
    identifiers: [...identifiers],
    created_date: created,
    modified_date: modified,
  };
  for (const [key, value] of Object.entries(fields)) {
    if ((SERVER_FIELDS as readonly string[]).includes(key)) continue;
    doc[key] = value;
  }
  return doc;
}

function withoutFields(doc: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) if (!fields.includes(key)) out[key] = value;
  return out;
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

/**
 * Record operations over a {@link Storage}.
 *
 * @example
 * ```ts
 * const records = new RecordService(storage);
 * const person = records.create(tenant, personKind, personKind.parse({ given_name: 'Ana' }));
 * ```
 */
export class RecordService {
  constructor(readonly storage: Storage) {}

  private notFound(kind: ResourceKind, id: string): ApiError {
    return new ApiError(
      404,
      [{ error_code: ErrorCode.NOT_FOUND, description: `no ${kind.singular} with id ${id}` }],
      `std:${kind.singular}`,
    );
  }

  /** Refuses identifiers that another record of the tenant and kind already carries. */
  private checkIdentifiersFree(
    tenant: Tenant,
    kind: ResourceKind,
    identifiers: readonly string[],
    ownId: string,
    sent: readonly string[] = identifiers,
  ): void {
    const taken = identifiers.filter((identifier) => {
      const holder = this.storage.findByIdentifier(tenant.id, kind.singular, identifier);
      return holder !== undefined && holder !== ownId;
    });
    if (taken.length > 0) throw duplicateIdentifierError(sent, taken, `std:${kind.singular}`);
  }

  /** Writes through storage, turning a unique-constraint race into the same 400. */
  private guarded<T>(kind: ResourceKind, sent: readonly string[], write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (error instanceof DuplicateIdentifierError) {
        throw duplicateIdentifierError(sent, [error.identifier], `std:${kind.singular}`);
      }
      throw error;
    }
  }

  /**
   * Creates a record from a validated document: assigns the id and local identifier,
   * keeps foreign identifiers, drops read-only fields and nulls.
   */
  create(tenant: Tenant, kind: ResourceKind, input: JsonObject, now = new Date()): StoredRecord {
    return this.storage.transaction(() => {
      const id = newRecordId();
      const local = localIdentifier(tenant.namespace, id);
      const sent = stringArray(input.identifiers) ?? [];
      const identifiers = resolveIdentifiers(tenant.namespace, local, sent, `std:${kind.singular}`);
      this.checkIdentifiersFree(tenant, kind, identifiers, id, sent);
      const stamp = now.toISOString();
      const fields = dropNulls(withoutFields(input, kind.readOnly));
      const doc = composeDocument(identifiers, stamp, stamp, fields);
      return this.guarded(kind, sent, () =>
        this.storage.insertRecord({
          tenantId: tenant.id,
          kind: kind.singular,
          id,
          doc,
          created_date: stamp,
          modified_date: stamp,
          identifiers,
          keys: kind.lookupKeys(doc),
          parents: kind.parents(doc),
        }),
      );
    });
  }

  /** One record, or a 404 `ApiError`. */
  get(tenant: Tenant, kind: ResourceKind, id: string): StoredRecord {
    const record = this.storage.getRecord(tenant.id, kind.singular, id);
    if (!record) throw this.notFound(kind, id);
    return record;
  }

  /**
   * Applies a validated partial update (PUT): see `merge.ts` for the rules. Sending
   * `identifiers` sets the foreign identifiers; the local one always stays.
   */
  update(
    tenant: Tenant,
    kind: ResourceKind,
    id: string,
    patch: JsonObject,
    now = new Date(),
  ): StoredRecord {
    return this.storage.transaction(() => {
      const current = this.get(tenant, kind, id);
      const local = localIdentifier(tenant.namespace, id);
      const identifiers =
        'identifiers' in patch
          ? resolveIdentifiers(
              tenant.namespace,
              local,
              stringArray(patch.identifiers),
              `std:${kind.singular}`,
            )
          : (stringArray(current.doc.identifiers) ?? [local]);
      const fields = applyPatch(withoutFields(current.doc, SERVER_FIELDS), patch, [
        ...kind.readOnly,
        ...SERVER_FIELDS,
      ]);
      return this.replace(
        tenant,
        kind,
        current,
        identifiers,
        fields,
        now,
        stringArray(patch.identifiers),
      );
    });
  }

  /**
   * Stores new fields and identifiers for an existing record after validating the
   * result (a merged document must still satisfy the schema).
   */
  replace(
    tenant: Tenant,
    kind: ResourceKind,
    current: StoredRecord,
    identifiers: readonly string[],
    fields: JsonObject,
    now = new Date(),
    sent: readonly string[] = identifiers,
  ): StoredRecord {
    const local = localIdentifier(tenant.namespace, current.id);
    const all = identifiers.includes(local) ? [...identifiers] : [local, ...identifiers];
    this.checkIdentifiersFree(tenant, kind, all, current.id, sent);
    const merged = withoutFields(fields, [...SERVER_FIELDS, ...kind.readOnly]);
    kind.parse({ ...merged, identifiers: all });
    const stamp = now.toISOString();
    const doc = composeDocument(all, current.created_date, stamp, merged);
    const updated = this.guarded(kind, sent, () =>
      this.storage.updateRecord({
        tenantId: tenant.id,
        kind: kind.singular,
        id: current.id,
        doc,
        created_date: current.created_date,
        modified_date: stamp,
        identifiers: all,
        keys: kind.lookupKeys(doc),
        parents: kind.parents(doc),
      }),
    );
    if (!updated) throw this.notFound(kind, current.id);
    return updated;
  }

  /** Deletes a record, or throws a 404 `ApiError`. */
  delete(tenant: Tenant, kind: ResourceKind, id: string): void {
    if (!this.storage.deleteRecord(tenant.id, kind.singular, id)) throw this.notFound(kind, id);
  }

  /** One page of a collection or sub-collection. */
  page(tenant: Tenant, collection: CollectionRef, request: PageRequest): CollectionPage {
    const scope = { tenantId: tenant.id, kind: collection.kind, parent: collection.parent };
    const totalRecords = this.storage.countRecords(scope);
    const plan = planPage(request, totalRecords);
    const records = plan.empty ? [] : this.storage.listRecords({ ...scope, ...plan });
    const last = records[records.length - 1];
    return {
      records,
      page: request.page,
      perPage: request.perPage,
      totalRecords,
      totalPages: totalPages(totalRecords, request.perPage),
      hasNext: last !== undefined && this.storage.hasRecordAfter(scope, last.seq),
    };
  }
}

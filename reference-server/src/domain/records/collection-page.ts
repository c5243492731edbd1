/** Paging a collection or sub-collection: one page of records and the counts around it. */
import type { RecordFilter, StoredRecord, Tenant } from '../../storage/storage.js';
import { type PageRequest, planPage, totalPages } from '../paging.js';
import type { RecordContext } from './context.js';

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
  /** Only records matching every filter. */
  filters?: readonly RecordFilter[];
}

/**
 * One page of a collection or sub-collection, with the counts its links need (the total
 * of records and pages, whether a next page exists).
 */
export async function collectionPage(
  context: RecordContext,
  tenant: Tenant,
  collection: CollectionRef,
  request: PageRequest,
): Promise<CollectionPage> {
  const scope = {
    tenantId: tenant.id,
    kind: collection.kind,
    parent: collection.parent,
    ...(collection.filters?.length ? { filters: collection.filters } : {}),
  };
  const totalRecords = await context.storage.records.count(scope);
  const plan = planPage(request, totalRecords);
  const records = plan.empty ? [] : await context.storage.records.list({ ...scope, ...plan });
  const last = records[records.length - 1];
  return {
    records,
    page: request.page,
    perPage: request.perPage,
    totalRecords,
    totalPages: totalPages(totalRecords, request.perPage),
    hasNext: last !== undefined && (await context.storage.records.hasAfter(scope, last.seq)),
  };
}

/** Reading one record by id, and the 404 when there is none. */
import type { ReadOptions, StoredRecord, Tenant } from '../../storage/storage.js';
import { ApiError, ErrorCode } from '../errors.js';
import type { ResourceKind } from '../kinds.js';
import type { RecordContext } from './context.js';

/** The 404 for a record `id` of `kind` that does not exist. */
export function notFound(kind: ResourceKind, id: string): ApiError {
  return new ApiError(
    404,
    [{ error_code: ErrorCode.NOT_FOUND, description: `no ${kind.singular} with id ${id}` }],
    `std:${kind.singular}`,
  );
}

/**
 * One record, or a 404 `ApiError`: a missing record is the client's mistake, answered
 * the same way by every route.
 */
export async function getRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  id: string,
  options?: ReadOptions,
): Promise<StoredRecord> {
  const record = await context.storage.records.get(tenant.id, kind.singular, id, options);
  if (!record) throw notFound(kind, id);
  return record;
}

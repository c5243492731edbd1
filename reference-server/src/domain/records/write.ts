/**
 * A record's write to storage: the side data it carries besides its document (keys,
 * parents, identifiers, contributions to totals), and the 400 a unique-constraint race
 * turns into.
 */
import {
  DuplicateIdentifierError,
  type JsonObject,
  type RecordWrite,
  type Tenant,
} from '../../storage/storage.js';
import { duplicateIdentifierError } from '../identifiers.js';
import type { References, ResourceKind } from '../kinds.js';
import type { RecordContext } from './context.js';

/** The side data a record write carries besides its document. */
export async function recordWrite(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  id: string,
  doc: JsonObject,
  identifiers: readonly string[],
  refs: References,
): Promise<RecordWrite> {
  return {
    tenantId: tenant.id,
    kind: kind.singular,
    id,
    doc,
    created_date: String(doc.created_date),
    modified_date: String(doc.modified_date),
    identifiers,
    keys: kind.lookupKeys(doc),
    parents: Object.values(refs),
    contributions:
      (await kind.contributions?.(doc, refs, {
        document: async (ref) =>
          (
            await context.storage.records.get(tenant.id, ref.kind, ref.id)
          )?.doc,
      })) ?? [],
  };
}

/** Writes through storage, turning a unique-constraint race into the same 400. */
export async function guarded<T>(
  kind: ResourceKind,
  sent: readonly string[],
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof DuplicateIdentifierError) {
      throw duplicateIdentifierError(sent, [error.identifier], `std:${kind.singular}`);
    }
    throw error;
  }
}

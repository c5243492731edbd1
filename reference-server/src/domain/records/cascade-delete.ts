/**
 * Deleting a record with what depends on it: records that cannot exist without it are
 * deleted too, records that only mention it lose that link.
 */
import type { ParentRef, Tenant } from '../../storage/storage.js';
import type { References, ResourceKind } from '../kinds.js';
import type { RecordContext } from './context.js';
import {
  composeDocument,
  referencesOf,
  SERVER_FIELDS,
  sameRef,
  stringArray,
  withoutFields,
} from './document.js';
import { getRecord } from './read.js';
import { recordWrite } from './write.js';

/**
 * Deletes a record, or throws a 404 `ApiError`. Records that cannot exist without it
 * (a petition's signatures, a person's donations) are deleted with it; records that
 * only mention it (a petition's creator) lose that link. All in one transaction, so
 * that no record is left pointing at one that is gone.
 */
export async function deleteRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  id: string,
  now = new Date(),
): Promise<void> {
  await context.storage.transaction(async () => {
    await getRecord(context, tenant, kind, id, { forUpdate: true });
    await deleteCascading(context, tenant, { kind: kind.singular, id }, now);
  });
}

/** Deletes `target` and the records that require it; unlinks those that only mention it. */
async function deleteCascading(
  context: RecordContext,
  tenant: Tenant,
  target: ParentRef,
  now: Date,
): Promise<void> {
  for (const child of await context.storage.records.childrenOf(tenant.id, target)) {
    const childKind = context.registry.bySingular(child.kind);
    const record = await context.storage.records.get(tenant.id, child.kind, child.id);
    if (!childKind || !record) continue;
    const refs = referencesOf(record.doc);
    const pointing = Object.entries(refs).filter(([, ref]) => sameRef(ref, target));
    const kept: References = {};
    for (const [rel, ref] of Object.entries(refs)) {
      if (!pointing.some(([gone]) => gone === rel)) kept[rel] = ref;
    }
    // Deleted with the target: records that require it, and records left without any
    // member of an exactly-one group (a tagging whose tagged person is deleted).
    const required =
      pointing.some(([rel]) => childKind.references.find((r) => r.rel === rel)?.required) ||
      (childKind.exactlyOneOf ?? []).some((group) => !group.some((rel) => kept[rel]));
    if (required) {
      await deleteCascading(context, tenant, child, now);
      continue;
    }
    const identifiers = stringArray(record.doc.identifiers) ?? [];
    const doc = composeDocument(
      identifiers,
      record.created_date,
      now.toISOString(),
      withoutFields(record.doc, SERVER_FIELDS),
      kept,
    );
    const write = await recordWrite(context, tenant, childKind, record.id, doc, identifiers, kept);
    await context.storage.records.update({ ...write, created_date: record.created_date });
  }
  await context.storage.records.delete(tenant.id, target.kind, target.id);
}

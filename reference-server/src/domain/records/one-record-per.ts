/**
 * The look-up behind {@link ResourceKind.oneRecordPer}: the record of a kind that
 * already holds given references (the person's signature of the petition).
 */
import type { ParentRef, StoredRecord, Tenant } from '../../storage/storage.js';
import type { References, ResourceKind } from '../kinds.js';
import type { RecordContext } from './context.js';
import { referencesOf, sameRef } from './document.js';

/**
 * The newest record of a kind with {@link ResourceKind.oneRecordPer} whose references
 * are `refs`' for those relations (the person's signature of the petition), other than
 * `except`. Older duplicates, which a database written before the rule may hold, are
 * left as they are.
 */
export async function recordWith(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  refs: References,
  except?: string,
): Promise<StoredRecord | undefined> {
  const rels = kind.oneRecordPer ?? [];
  const parents = rels.map((rel) => refs[rel]);
  if (rels.length === 0 || parents.some((parent) => parent === undefined)) return undefined;
  // For insert: a second act of the same person waits for the first to commit.
  const ids = await context.storage.records.findByParents(
    tenant.id,
    kind.singular,
    parents as ParentRef[],
    {
      forInsert: true,
    },
  );
  for (const id of ids) {
    if (id === except) continue;
    const record = await context.storage.records.get(tenant.id, kind.singular, id);
    // The person may be a parent through another relation (a creator): check the rels.
    const found = record ? referencesOf(record.doc) : {};
    const same = rels.every((rel) => sameRef(found[rel], refs[rel]));
    if (record && same) return record;
  }
  return undefined;
}

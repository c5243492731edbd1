/**
 * Updating a record: a client's partial update (PUT) merged into the stored document,
 * and the replacement of a record's fields, identifiers and references it ends in. The
 * record keeps its `created_date`: a kind that takes it from the client takes the stored
 * one back and refuses another (`created-date.ts`).
 */
import type { JsonObject, StoredRecord, Tenant } from '../../storage/storage.js';
import type { ErrorDescription } from '../errors.js';
import { localIdentifier, resolveIdentifiers } from '../identifiers.js';
import type { ResourceKind } from '../kinds.js';
import { applyPatch } from '../merge.js';
import { checkIdentifiersFree, checkRecord, checkStillOne, invalid } from './checks.js';
import type { RecordContext } from './context.js';
import { checkCreatedDateKept } from './created-date.js';
import {
  composeDocument,
  HELPER_MEMBERS,
  helperMembers,
  referencesOf,
  SERVER_FIELDS,
  SERVER_STATE,
  stringArray,
  withoutFields,
} from './document.js';
import { applyLinks } from './links.js';
import type { RecordReplacement, UpdateOptions } from './options.js';
import { getRecord, notFound } from './read.js';
import { totalsOfRecord } from './totals.js';
import { guarded, recordWrite } from './write.js';

/**
 * Applies a validated partial update (PUT) to the record `id`: see `merge.ts` for the
 * rules. Sending `identifiers` sets the foreign identifiers; the local one always stays.
 * Links sent replace the record's references one relation at a time. The result is
 * checked as a whole ({@link replaceRecord}), in one transaction.
 */
export function updateRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  id: string,
  patch: JsonObject,
  options: UpdateOptions = {},
): Promise<StoredRecord> {
  const { now = new Date(), links = {}, recorded = {} } = options;
  return context.storage.transaction(async () => {
    const current = await getRecord(context, tenant, kind, id, { forUpdate: true });
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
    const errors: ErrorDescription[] = [];
    const before = referencesOf(current.doc);
    const refs = await applyLinks(context, tenant, kind, before, links, errors);
    if (errors.length === 0) await checkStillOne(context, tenant, kind, id, before, refs, errors);
    // A record's own date (a donation's) is taken back as stored, never changed.
    checkCreatedDateKept(kind, patch, current, errors);
    if (errors.length > 0) throw invalid(`std:${kind.singular}`, errors);
    const changes = kind.prepareInput
      ? kind.prepareInput(
          withoutFields(patch, [...kind.readOnly, ...SERVER_FIELDS]),
          await totalsOfRecord(context, tenant, kind, id),
        )
      : patch;
    // The current SERVER_STATE rides along in the fields; a client cannot patch it.
    const fields = applyPatch(withoutFields(current.doc, SERVER_FIELDS), changes, [
      ...kind.readOnly,
      ...SERVER_FIELDS,
      SERVER_STATE,
      ...HELPER_MEMBERS,
    ]);
    return replaceRecord(context, tenant, kind, current, {
      identifiers,
      fields: { ...fields, ...helperMembers(recorded) },
      now,
      sent: stringArray(patch.identifiers),
      refs,
    });
  });
}

/**
 * Stores new fields, identifiers and references for the existing record `current` after
 * validating the result: a merged document must still satisfy the schema and the kind's
 * rules (an update that only moves `end_date` before `start_date` fails). A
 * {@link SERVER_STATE} member of the fields is stored as given, without validation; so
 * are the {@link HELPER_MEMBERS}: they are the server's, not the client's to get right.
 */
export async function replaceRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  current: StoredRecord,
  replacement: RecordReplacement,
): Promise<StoredRecord> {
  const {
    identifiers,
    fields,
    now = new Date(),
    sent = identifiers,
    refs = referencesOf(current.doc),
  } = replacement;
  const local = localIdentifier(tenant.namespace, current.id);
  const all = identifiers.includes(local) ? [...identifiers] : [local, ...identifiers];
  // The local identifier is the record's own: only the others may be another's.
  const foreign = all.filter((identifier) => identifier !== local);
  await checkIdentifiersFree(context, tenant, kind, foreign, current.id, sent);
  // The server's own state is not the client's to validate: set aside, put back. So
  // are the members a helper recorded (triggers), which are read-only to clients.
  const recorded = helperMembers(fields);
  const { [SERVER_STATE]: state, ...clientFields } = withoutFields(fields, [
    ...SERVER_FIELDS,
    ...kind.readOnly,
    ...HELPER_MEMBERS,
  ]);
  let merged: JsonObject = clientFields;
  kind.parse({ ...merged, identifiers: all });
  merged = kind.derive ? kind.derive(merged, refs) : merged;
  const errors: ErrorDescription[] = [];
  await checkRecord(context, tenant, kind, merged, refs, current.id, false, errors);
  if (errors.length > 0) throw invalid(`std:${kind.singular}`, errors);
  const stamp = now.toISOString();
  const kept = state === undefined ? merged : { ...merged, [SERVER_STATE]: state };
  const stored = { ...kept, ...recorded };
  const doc = composeDocument(all, current.created_date, stamp, stored, refs);
  const write = await recordWrite(context, tenant, kind, current.id, doc, all, refs);
  const updated = await guarded(kind, sent, () =>
    context.storage.records.update({ ...write, created_date: current.created_date }),
  );
  if (!updated) throw notFound(kind, current.id);
  return updated;
}

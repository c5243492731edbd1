/**
 * Create-or-update for kinds with {@link ResourceKind.oneRecordPer}: the same act again
 * (a person signing a petition twice) updates the record of the first act.
 */
import type { JsonObject, StoredRecord, Tenant } from '../../storage/storage.js';
import { newRecordId } from '../identifiers.js';
import type { References, ResourceKind } from '../kinds.js';
import { fillGaps } from '../merge.js';
import type { RecordContext } from './context.js';
import { checkNewRecord, createRecord } from './create.js';
import { helperMembers, SERVER_FIELDS, stringArray, withoutFields } from './document.js';
import { recordWith } from './one-record-per.js';
import type { CreateOptions, CreateOrUpdateOptions } from './options.js';
import { updateRecord } from './update.js';

/** What {@link createOrUpdateRecord} did. */
export interface RecordUpsert {
  record: StoredRecord;
  /** True when the record was created (201); false when an existing one was updated (200). */
  created: boolean;
}

/**
 * Creates a record like {@link createRecord}; but for a kind with
 * {@link ResourceKind.oneRecordPer}, when a record with the same references exists
 * (the person signed this petition before), updates that record instead: the fields
 * sent change as in {@link updateRecord}, identifiers sent are added to its own, and the
 * totals it adds to stay as they were. With `fillOnly`, only what it lacks is filled.
 * Only a create makes the kind's webhook event: signing again is no new act.
 */
export function createOrUpdateRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  input: JsonObject,
  options: CreateOrUpdateOptions = {},
): Promise<RecordUpsert> {
  return context.storage.transaction(async () => {
    const existing = await existingFor(context, tenant, kind, options);
    if (!existing) {
      return { record: await createRecord(context, tenant, kind, input, options), created: true };
    }
    return {
      record: await actAgain(context, tenant, kind, existing, input, options),
      created: false,
    };
  });
}

/** The update of {@link createOrUpdateRecord}: the same act again, by the same person. */
async function actAgain(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  existing: StoredRecord,
  input: JsonObject,
  options: CreateOrUpdateOptions,
): Promise<StoredRecord> {
  const { now, links, recorded = {} } = options;
  if (options.fillOnly) {
    // Judged as a first act would be (ticket levels, sold out, …), before filling: a
    // caller without a key must get the same answer whether the person acted before.
    await checkNewRecord(context, tenant, kind, input, options, newRecordId(), now ?? new Date());
    const fill = (sent: JsonObject): JsonObject => {
      const out: JsonObject = {};
      for (const [key, value] of Object.entries(sent)) {
        if (key === 'identifiers' || (SERVER_FIELDS as readonly string[]).includes(key)) continue;
        const filled = fillGaps(existing.doc[key], value);
        if (JSON.stringify(filled) !== JSON.stringify(existing.doc[key])) out[key] = filled;
      }
      return out;
    };
    const patch = fill(withoutFields(input, kind.readOnly));
    const helper = fill(helperMembers(recorded));
    // Nothing new: no write, and modified_date stays (as for the person).
    if (Object.keys(patch).length === 0 && Object.keys(helper).length === 0) return existing;
    return updateRecord(context, tenant, kind, existing.id, patch, {
      ...(now ? { now } : {}),
      recorded: helper,
    });
  }
  // Identifiers sent are added (as a person's are): they name this act in another
  // system, and the record's own must stay; a null one removes nothing.
  const sent = stringArray(input.identifiers) ?? [];
  const stored = stringArray(existing.doc.identifiers) ?? [];
  const patch = {
    ...withoutFields(input, ['identifiers']),
    ...(sent.length > 0 ? { identifiers: [...new Set([...stored, ...sent])] } : {}),
  };
  return updateRecord(context, tenant, kind, existing.id, patch, {
    ...(now ? { now } : {}),
    ...(links ? { links } : {}),
    recorded,
  });
}

/**
 * The record a create would duplicate (see {@link ResourceKind.oneRecordPer}), read
 * from its links and parent; none when one of them is missing or names no record of a
 * kind the reference allows, which the create then reports. (The look-up itself finds
 * nothing for records that do not exist: no need to read them first.)
 */
async function existingFor(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  options: CreateOptions,
): Promise<StoredRecord | undefined> {
  const rels = kind.oneRecordPer;
  if (!rels?.length) return undefined;
  const refs: References = {};
  for (const rel of rels) {
    const sent = options.links?.[rel];
    const fixed = options.parent?.rel === rel ? options.parent.ref : undefined;
    const target =
      sent && !('invalid' in sent)
        ? { kind: context.registry.byPlural(sent.plural)?.singular, id: sent.id }
        : undefined;
    // A link that contradicts the collection's parent: the create refuses it.
    if (fixed && sent !== undefined && (target?.kind !== fixed.kind || target.id !== fixed.id)) {
      return undefined;
    }
    const ref = fixed ?? target;
    const allowed = kind.references.find((r) => r.rel === rel)?.kinds ?? [];
    if (!ref?.kind || !allowed.includes(ref.kind)) return undefined;
    refs[rel] = { kind: ref.kind, id: ref.id };
  }
  return recordWith(context, tenant, kind, refs);
}

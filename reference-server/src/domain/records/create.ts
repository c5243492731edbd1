/**
 * Creating a record: its id and local identifier, the identifiers and links sent, its
 * `created_date` (the time of the write, or the record's own date where the kind takes
 * one: `created-date.ts`), the kind's checks, the write and its webhook event, in one
 * transaction.
 */
import type { JsonObject, StoredRecord, Tenant } from '../../storage/storage.js';
import { ErrorCode, type ErrorDescription } from '../errors.js';
import { localIdentifier, newRecordId, resolveIdentifiers } from '../identifiers.js';
import type { References, ResourceKind } from '../kinds.js';
import { dropNulls } from '../merge.js';
import { checkIdentifiersFree, checkRecord, invalid, linksAt } from './checks.js';
import type { RecordContext } from './context.js';
import { createdDateOf } from './created-date.js';
import { composeDocument, helperMembers, stringArray, withoutFields } from './document.js';
import { recordEvent } from './events.js';
import { applyLinks } from './links.js';
import type { CreateOptions } from './options.js';
import { guarded, recordWrite } from './write.js';

/** A new record's links, fields and dates as its checks passed them. */
interface CheckedNewRecord {
  refs: References;
  fields: JsonObject;
  created: string;
}

/**
 * The checks of a record about to be created with `id` (links, the parent, fields, its
 * date, the kind's rules), inside the caller's transaction; throws the 400 listing every
 * problem. {@link createRecord} writes what it returns; a call without a key acting
 * again runs it first (`upsert.ts`), so that it is refused as a first act would be.
 */
export async function checkNewRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  input: JsonObject,
  options: CreateOptions,
  id: string,
  now: Date,
): Promise<CheckedNewRecord> {
  const errors: ErrorDescription[] = [];
  let refs = await applyLinks(context, tenant, kind, {}, options.links ?? {}, errors);
  if (options.parent) {
    const { rel, ref } = options.parent;
    const sentRef = refs[rel];
    if (sentRef && (sentRef.kind !== ref.kind || sentRef.id !== ref.id)) {
      errors.push({
        error_code: ErrorCode.INVALID_LINK,
        description: `std:${rel} must be the ${ref.kind} whose collection this is`,
        properties: [`_links.std:${rel}`],
        hint: `leave std:${rel} out: the collection sets it`,
      });
    }
    refs = { ...refs, [rel]: ref };
  }
  let fields = dropNulls(withoutFields(input, kind.readOnly));
  fields = kind.prepareInput ? kind.prepareInput(fields, {}) : fields;
  fields = kind.derive ? kind.derive(fields, refs) : fields;
  // The record's own date when the kind takes one (a donation imported), else now.
  const created = createdDateOf(kind, input, now, errors);
  await checkRecord(context, tenant, kind, fields, refs, id, true, errors);
  if (errors.length > 0) {
    throw invalid(`std:${kind.singular}`, linksAt(errors, options.linksAt ?? ''));
  }
  return { refs, fields, created };
}

/**
 * Creates a record from a validated document, in one transaction: assigns the id and
 * local identifier, keeps foreign identifiers, resolves links, drops read-only fields
 * and nulls, and makes the kind's webhook event (unless `options.event` is `false`).
 */
export function createRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  input: JsonObject,
  options: CreateOptions = {},
): Promise<StoredRecord> {
  const now = options.now ?? new Date();
  return context.storage.transaction(async () => {
    const id = newRecordId();
    const local = localIdentifier(tenant.namespace, id);
    const sent = stringArray(input.identifiers) ?? [];
    const identifiers = resolveIdentifiers(tenant.namespace, local, sent, `std:${kind.singular}`);
    // The local identifier is new, as the id it names: only those sent may be taken.
    const foreign = identifiers.filter((identifier) => identifier !== local);
    await checkIdentifiersFree(context, tenant, kind, foreign, id, sent);
    const { refs, fields, created } = await checkNewRecord(
      context,
      tenant,
      kind,
      input,
      options,
      id,
      now,
    );
    const stamp = now.toISOString();
    const doc = composeDocument(
      identifiers,
      created,
      stamp,
      { ...fields, ...helperMembers(options.recorded ?? {}) },
      refs,
    );
    const write = await recordWrite(context, tenant, kind, id, doc, identifiers, refs);
    const record = await guarded(kind, sent, () => context.storage.records.insert(write));
    if (options.event !== false) {
      await recordEvent(context, tenant, kind, record, options.event, now);
    }
    return record;
  });
}

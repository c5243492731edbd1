/**
 * The checks of a record before it is written: identifiers no other record carries,
 * required and exactly-one links, required members and the kind's cross-record rules,
 * and the 400 that reports every problem found.
 */
import type { JsonObject, Tenant } from '../../storage/storage.js';
import { ApiError, ErrorCode, type ErrorDescription } from '../errors.js';
import { duplicateIdentifierError } from '../identifiers.js';
import type { CheckContext, References, ResourceKind } from '../kinds.js';
import type { RecordContext } from './context.js';
import { sameRef } from './document.js';
import { recordWith } from './one-record-per.js';

/** The 400 reporting `errors` of a write to `resource`. */
export function invalid(resource: string, errors: ErrorDescription[]): ApiError {
  return new ApiError(400, errors, resource);
}

/** Problems with their `_links.…` properties placed below `at` (`canvass._links.…`). */
export function linksAt(errors: ErrorDescription[], at: string): ErrorDescription[] {
  if (at === '') return errors;
  return errors.map((error) =>
    error.properties
      ? {
          ...error,
          properties: error.properties.map((p) => (p.startsWith('_links.') ? `${at}${p}` : p)),
        }
      : error,
  );
}

/** Refuses identifiers that another record of the tenant and kind already carries. */
export async function checkIdentifiersFree(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  identifiers: readonly string[],
  ownId: string,
  sent: readonly string[] = identifiers,
): Promise<void> {
  const taken: string[] = [];
  for (const identifier of identifiers) {
    const holder = await context.storage.records.findByIdentifier(
      tenant.id,
      kind.singular,
      identifier,
    );
    if (holder !== undefined && holder !== ownId) taken.push(identifier);
  }
  if (taken.length > 0) throw duplicateIdentifierError(sent, taken, `std:${kind.singular}`);
}

/** Required links, exactly-one groups, required members and cross-record rules. */
export async function checkRecord(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  fields: JsonObject,
  refs: References,
  id: string,
  creating: boolean,
  errors: ErrorDescription[],
): Promise<void> {
  // A link already reported as invalid is not reported again as missing.
  const reported = new Set(errors.flatMap((error) => error.properties ?? []));
  for (const reference of kind.references) {
    if (
      reference.required &&
      !refs[reference.rel] &&
      !reported.has(`_links.std:${reference.rel}`)
    ) {
      errors.push({
        error_code: ErrorCode.MISSING_LINK,
        description: `a ${kind.singular} needs a link std:${reference.rel} to a ${reference.kinds.join(' or ')}`,
        properties: [`_links.std:${reference.rel}`],
        hint: `send _links: { "std:${reference.rel}": { "href": "<the ${reference.kinds[0]}'s self href>" } }`,
      });
    }
  }
  for (const group of kind.exactlyOneOf ?? []) {
    const present = group.filter((rel) => refs[rel]);
    if (present.length !== 1) {
      errors.push({
        error_code: present.length === 0 ? ErrorCode.MISSING_LINK : ErrorCode.INVALID_LINK,
        description: `a ${kind.singular} needs exactly one of ${group.map((rel) => `std:${rel}`).join(', ')}; it has ${present.length}`,
        properties: (present.length ? present : group).map((rel) => `_links.std:${rel}`),
      });
    }
  }
  if (creating) {
    for (const member of kind.requiredOnCreate ?? []) {
      if (fields[member] === undefined || fields[member] === null || fields[member] === '') {
        errors.push({
          error_code: ErrorCode.INVALID_PROPERTY,
          description: `${member} is required to create a ${kind.singular}`,
          properties: [member],
        });
      }
    }
  }
  if (kind.check && errors.length === 0) {
    const checkContext: CheckContext = {
      document: async (ref) =>
        (await context.storage.records.get(tenant.id, ref.kind, ref.id))?.doc,
      // The kind's rule checks a key before this write adds it (a unique tag name).
      findByKey: (kindName, name, value) =>
        context.storage.records.findByKey(tenant.id, kindName, name, value, { forInsert: true }),
      totals: async (ref) =>
        (await context.storage.records.totalsOf(tenant.id, ref.kind, [ref.id])).get(ref.id) ?? {},
    };
    errors.push(...(await kind.check(fields, refs, id, checkContext)));
  }
}

/**
 * An update that moves a link of {@link ResourceKind.oneRecordPer} (a signature to
 * another person) must not make it a second record of the same references.
 */
export async function checkStillOne(
  context: RecordContext,
  tenant: Tenant,
  kind: ResourceKind,
  id: string,
  before: References,
  after: References,
  errors: ErrorDescription[],
): Promise<void> {
  const rels = kind.oneRecordPer ?? [];
  const moved = rels.filter((rel) => !sameRef(before[rel], after[rel]));
  if (moved.length === 0) return;
  const other = await recordWith(context, tenant, kind, after, id);
  if (!other) return;
  errors.push({
    error_code: ErrorCode.INVALID_LINK,
    description: `there is a ${kind.singular} of this ${rels.join(' and ')} already (${other.id}): one ${kind.singular} per ${rels.join(' and ')}`,
    properties: moved.map((rel) => `_links.std:${rel}`),
    hint: `update that ${kind.singular} instead`,
  });
}

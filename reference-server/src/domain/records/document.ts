/**
 * The stored document of a record: the members the server owns in it (identifiers,
 * dates, references, its own state) and how a document is put together and read.
 */
import type { JsonObject, ParentRef } from '../../storage/storage.js';
import type { References } from '../kinds.js';

/**
 * The stored member holding a record's references (`{ person: { kind, id } }`). It is
 * the server's own bookkeeping: never rendered, never accepted from clients.
 */
export const REFS = '_refs';

/**
 * The stored member holding state the server itself sets on a record (a message's
 * sending status, counts and send rate, written by its helpers). Never accepted from
 * clients, kept through their updates, and rendered only through the kind's `view`,
 * which turns it into public members.
 */
export const SERVER_STATE = '_state';

/**
 * Members a helper call records on the record it creates (the `triggers` it was sent),
 * rendered as they are. Like {@link SERVER_STATE} they are not the client's to write:
 * an update neither changes nor validates them, and keeps them.
 */
export const HELPER_MEMBERS = ['triggers'] as const;

/** The {@link HELPER_MEMBERS} present in `doc`. */
export function helperMembers(doc: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const member of HELPER_MEMBERS) if (doc[member] != null) out[member] = doc[member];
  return out;
}

/**
 * Members the server owns in every stored document: it writes them itself
 * ({@link composeDocument}), whatever the fields hold. A `created_date` a kind takes
 * from the client (a donation's own date) comes in as the `created` of
 * `composeDocument`, checked and normalised first (`created-date.ts`).
 */
export const SERVER_FIELDS = ['identifiers', 'created_date', 'modified_date', REFS] as const;

/**
 * The references stored in a document.
 *
 * @example
 * ```ts
 * import { referencesOf } from './document.js';
 *
 * referencesOf({ _refs: { person: { kind: 'person', id: 'p1' } } }); // { person: { kind: 'person', id: 'p1' } }
 * ```
 */
export function referencesOf(doc: JsonObject): References {
  const refs = doc[REFS];
  if (typeof refs !== 'object' || refs === null || Array.isArray(refs)) return {};
  const out: References = {};
  for (const [rel, value] of Object.entries(refs as Record<string, unknown>)) {
    const ref = value as Partial<ParentRef> | null;
    if (ref && typeof ref.kind === 'string' && typeof ref.id === 'string') {
      out[rel] = { kind: ref.kind, id: ref.id };
    }
  }
  return out;
}

/**
 * A document in the canonical member order: identifiers, dates, then the fields.
 */
export function composeDocument(
  identifiers: readonly string[],
  created: string,
  modified: string,
  fields: JsonObject,
  refs: References = {},
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
  if (Object.keys(refs).length > 0) doc[REFS] = refs;
  return doc;
}

/** Whether two references name the same record (both absent counts as the same). */
export function sameRef(a: ParentRef | undefined, b: ParentRef | undefined): boolean {
  return a?.kind === b?.kind && a?.id === b?.id;
}

/** `doc` without the members `fields`. */
export function withoutFields(doc: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) if (!fields.includes(key)) out[key] = value;
  return out;
}

/** The strings of `value` when it is an array (others dropped); else undefined. */
export function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

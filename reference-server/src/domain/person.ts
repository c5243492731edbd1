/**
 * The person resource: validation with the SDK's `PersonWriteSchema` (one schema for
 * client and server), lookup keys for matching, and its sub-collections.
 */
import {
  PERSON_READ_ONLY_FIELDS,
  type Person,
  type PersonInput,
  PersonWriteSchema,
} from '../../../src/resources/person.js';
import type { JsonObject, LookupKey } from '../storage/storage.js';
import { actorSubCollections, defineKind, recordHelper } from './define-kind.js';
import type { ResourceKind, SubCollection } from './kinds.js';
import { parseOrThrow } from './validation.js';

export type { Person, PersonInput };

/**
 * Sub-collections of a person, from the spec's list of person links. The spec writes
 * `std:attendance` once; the collection relation is plural everywhere else, so the
 * server links `std:attendances`.
 */
export const PERSON_SUB_COLLECTIONS: readonly SubCollection[] = actorSubCollections('person');

/**
 * Validates a person sent by a client (create, update or helper) with the SDK's
 * schema; throws a 400 `ApiError` for `std:person` listing every issue.
 *
 * @example
 * ```ts
 * const person = parsePerson({ given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] });
 * ```
 */
export function parsePerson(body: unknown): JsonObject {
  return parseOrThrow(PersonWriteSchema, body, 'std:person') as JsonObject;
}

/**
 * Normalised email address for matching: trimmed and lower-cased (the local part is
 * case-sensitive in theory, never in practice).
 *
 * @example
 * ```ts
 * normaliseEmail(' Ana@Example.org '); // 'ana@example.org'
 * ```
 */
export function normaliseEmail(address: string): string {
  return address.trim().toLowerCase();
}

function members(doc: JsonObject, field: string): JsonObject[] {
  const value = doc[field];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is JsonObject => typeof item === 'object' && item !== null);
}

/**
 * Lookup keys of a person: every email address (lower-cased) as `email` and every
 * phone number as `phone`.
 *
 * @example
 * ```ts
 * personLookupKeys({ email_addresses: [{ address: 'A@x.org' }] }); // [{ name: 'email', value: 'a@x.org' }]
 * ```
 */
export function personLookupKeys(doc: JsonObject): LookupKey[] {
  const keys: LookupKey[] = [];
  for (const email of members(doc, 'email_addresses')) {
    if (typeof email.address === 'string')
      keys.push({ name: 'email', value: normaliseEmail(email.address) });
  }
  for (const phone of members(doc, 'phone_numbers')) {
    if (typeof phone.number === 'string') keys.push({ name: 'phone', value: phone.number });
  }
  return keys;
}

/** The person resource kind. */
export const personKind: ResourceKind = defineKind({
  singular: 'person',
  plural: 'people',
  title: 'The collection of people in the system',
  schema: PersonWriteSchema,
  readOnly: PERSON_READ_ONLY_FIELDS,
  lookupKeys: personLookupKeys,
  filterKeys: { email_address: 'email' },
  subCollections: PERSON_SUB_COLLECTIONS,
  helpers: [
    recordHelper('record_canvass_helper', 'Record a canvass of this person', { anonymous: true }),
  ],
});

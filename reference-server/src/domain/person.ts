/**
 * The person resource: the SDK's declaration of the kind (its write schema, one schema
 * for client and server; its sub-collections and helper) plus the server's lookup keys
 * for matching and filtering.
 */
import { type Person, type PersonInput, personKind as personDeclaration } from 'adis-sdk/schema';
import type { JsonObject, LookupKey } from '../storage/storage.js';
import { serveKind } from './define-kind.js';
import type { ResourceKind } from './kinds.js';
import { parseOrThrow } from './validation.js';

export type { Person, PersonInput };

/**
 * Validates a person sent by a client (create, update or helper) with the SDK's
 * schema; throws a 400 `ApiError` for `std:person` listing every issue.
 */
export function parsePerson(body: unknown): JsonObject {
  return parseOrThrow(personDeclaration.strictSchema, body, 'std:person') as JsonObject;
}

/**
 * Normalised email address for matching: trimmed and lower-cased (the local part is
 * case-sensitive in theory, never in practice).
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
 * import { personLookupKeys } from './person.js';
 *
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

/**
 * The person resource kind. Its sub-collections are the SDK's: the spec writes
 * `std:attendance` once, the SDK reads it as an alternative spelling, and the server
 * links the plural `std:attendances` it uses everywhere else.
 */
export const personKind: ResourceKind = serveKind(personDeclaration, {
  // Made by a POST to people and by the person signup helper (a signup of a known
  // person too); a person created as part of another act is carried by its event.
  event: { type: 'signup' },
  lookupKeys: personLookupKeys,
  filterKeys: { email_address: 'email' },
});

/**
 * What makes two members of a person's lists (email addresses, phone numbers, postal
 * addresses) the same member: the keys matching merges by (`matching.ts`) and the
 * subscription statuses are kept by (`signup-statuses.ts`). Below both, so that each
 * names them without importing the other.
 */
import type { JsonObject } from '../../storage/storage.js';
import { normaliseEmail } from '../person.js';

/** What makes two members of a person's list the same member. */
export type MemberKey = (member: JsonObject) => string | undefined;

/**
 * Keys of the person's member lists: the same address ignoring case, the same number,
 * the same street lines, locality, postal code and country.
 *
 * @example
 * ```ts
 * import { MEMBER_KEYS } from './member-keys.js';
 *
 * MEMBER_KEYS.email_addresses?.({ address: 'Ana@Example.org' }); // 'ana@example.org'
 * ```
 */
export const MEMBER_KEYS: Readonly<Record<string, MemberKey>> = {
  email_addresses: (m) => (typeof m.address === 'string' ? normaliseEmail(m.address) : undefined),
  phone_numbers: (m) => (typeof m.number === 'string' ? m.number : undefined),
  postal_addresses: (m) => {
    const sentLines = Array.isArray(m.address_lines) ? m.address_lines : [];
    const lines = sentLines
      .filter((line): line is string => typeof line === 'string')
      .map((line) => line.trim().toLowerCase());
    const parts = [m.locality, m.postal_code, m.country].map((p) =>
      typeof p === 'string' ? p.trim().toLowerCase() : '',
    );
    const key = [...lines, ...parts].join('|');
    return key.replaceAll('|', '') === '' ? undefined : key;
  },
};

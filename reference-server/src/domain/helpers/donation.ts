/**
 * The record donation helper's own rule: the spec lets a donation be linked "to an
 * attendance or submission by a link member in the body". The body's `_links` may carry
 * `<prefix>:attendance` and `<prefix>:submission` (any prefix: it is the server's own
 * abbreviation); each must name one of the tenant's records of that kind, else 400
 * INVALID_LINK (the record service's usual link check).
 */
import { isPlainObject } from '../merge.js';
import type { LinkInput, LinkTarget } from '../records.js';
import type { HelperContext } from './context.js';
import { type HelperBody, type PreparedRecord, personAction } from './main-record.js';

/** The relations a donation helper body may link. */
const DONATION_BODY_LINKS = ['attendance', 'submission'];

/**
 * The links of a donation helper body, keyed by relation without its prefix.
 *
 * @example
 * ```ts
 * donationLinks(context, { 'osdi:attendance': { href: 'http://h/api/v1/attendances/a1' } });
 * // { attendance: { plural: 'attendances', id: 'a1' } }
 * ```
 */
export function donationLinks(context: HelperContext, links: unknown): LinkInput {
  const out: Record<string, LinkTarget> = {};
  if (!isPlainObject(links)) return out;
  for (const [key, value] of Object.entries(links)) {
    const rel = key.slice(key.indexOf(':') + 1);
    // The body schema admits no other relation; a null link sets nothing on create.
    if (!DONATION_BODY_LINKS.includes(rel) || value === null || value === undefined) continue;
    const href = isPlainObject(value) ? value.href : value;
    out[rel] =
      typeof href === 'string'
        ? (context.resolveHref(href) ?? { invalid: href })
        : { invalid: JSON.stringify(value) };
  }
  return out;
}

/**
 * Prepares a donation: the donor, the donation's fields and its links.
 *
 * @example
 * ```ts
 * prepareDonation(context, { amount: 25, currency: 'USD', person: { given_name: 'Ana' } });
 * ```
 */
export function prepareDonation(context: HelperContext, body: HelperBody): PreparedRecord {
  const prepared = personAction(context, body);
  prepared.links = { ...donationLinks(context, body._links), ...prepared.links };
  return prepared;
}

/**
 * The record donation helper's own rule: the spec lets a donation be linked "to an
 * attendance or submission by a link member in the body". The body's `_links` may carry
 * `<prefix>:attendance` and `<prefix>:submission` (see `body-links.ts`); each must name
 * one of the tenant's records of that kind, else 400 INVALID_LINK.
 */
import { bodyLinks } from './body-links.js';
import type { HelperContext } from './context.js';
import { type HelperBody, type PreparedRecord, personAction } from './main-record.js';

/** The relations a donation helper body may link. */
const DONATION_BODY_LINKS = ['attendance', 'submission'];

/**
 * Prepares a donation: the donor, the donation's fields and its links.
 */
export async function prepareDonation(
  context: HelperContext,
  body: HelperBody,
): Promise<PreparedRecord> {
  const prepared = await personAction(context, body);
  prepared.links = { ...bodyLinks(context, body._links, DONATION_BODY_LINKS), ...prepared.links };
  return prepared;
}

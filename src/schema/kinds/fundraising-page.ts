import type * as z from 'zod/mini';
import { currency, money } from '../action-fields.js';
import { contentFields, SHARING_TOTALS, sharingFields } from '../content-fields.js';
import { commonFields, integer, type Mode, optional } from '../fields.js';
import { defineKind, many, one, recordHelper } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/** The fundraising page's writable fields as the spec lists them. */
function fundraisingPageShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(mode),
    currency: optional(currency(mode)),
    ...sharingFields(mode),
  };
}

/**
 * The fundraising page kind: a page people donate on. Read with `schema` (unknown
 * members kept, counts read from numeric strings, `total_amount` kept as given like all money); sent with
 * `writeSchema` (no unknown plain members, vendor `<prefix>:<name>` members pass;
 * `total_donations`, `total_amount` and `total_shares` are computed by the server and
 * ignored when sent back); the reference server checks `strictSchema` (`currency` an
 * ISO 4217 code).
 *
 * @example
 * ```ts
 * import { fundraisingPageKind } from 'adis-sdk/schema';
 *
 * fundraisingPageKind.writeSchema.parse({ title: 'Fund the park cleanup', currency: 'USD' });
 * const json: unknown = await (await fetch('https://api.example.org/api/v1/fundraising_pages/1')).json();
 * const page = fundraisingPageKind.schema.parse(json);
 * console.log(`${page.total_amount} ${page.currency} from ${page.total_donations} donations`);
 * ```
 */
export const fundraisingPageKind = defineKind({
  singular: 'fundraising_page',
  plural: 'fundraising_pages',
  description: 'A page people donate on, with the totals raised',
  shape: fundraisingPageShape,
  computed: {
    total_donations: optional(integer('read')),
    // Total raised, in the page's currency.
    total_amount: optional(money('read')),
    ...SHARING_TOTALS,
  },
  relations: {
    /** The person who created the fundraising page (`std:creator`), if the server links one. */
    creator: one('person'),
    /**
     * The person who last modified the fundraising page (`std:modified_by`), if the
     * server says.
     */
    modifiedBy: one('person'),
    /** The donations made on the page (`std:donations`). */
    donations: many('donation'),
    /** The taggings that tag the fundraising page (`std:taggings`). */
    taggings: many('tagging'),
  },
  helpers: {
    /**
     * Records a donation on this page through its `std:record_donation_helper`: the
     * donor (`person`) is created or matched and updated, and the action functions are
     * applied; `_links` may tie the donation to an attendance or a submission. Checked
     * first (the recipients' amounts may not exceed `amount`); resolves with the
     * donation and the person, `complete: false` when an action function failed; an
     * atomic error rejects with an HTTPError. `authenticate: false` sends no key.
     */
    recordDonation: recordHelper('record_donation_helper', 'recordDonation', 'donation', {
      anonymous: true,
    }),
  },
});

/** A fundraising page as read from a server: the output of `fundraisingPageKind.schema`. */
export interface FundraisingPage extends z.output<typeof fundraisingPageKind.schema> {}
/** What a client sends to create or update a fundraising page: the input of `fundraisingPageKind.writeSchema`. */
export interface FundraisingPageInput
  extends z.input<typeof fundraisingPageKind.writeSchema>,
    VendorMembers {}

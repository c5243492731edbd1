import type * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import { RecordDonationBodySchema, type RecordDonationInput } from '../helpers/bodies.js';
import type { HelperOptions } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { currency } from './action-fields.js';
import { contentFields, SHARING_TOTALS, sharingFields } from './content-fields.js';
import { type DonationResource, donationKind } from './donation.js';
import { commonFields, float, integer, type Mode, optional, resourceSchemas } from './fields.js';
import { type PersonResource, personKind } from './person-resource.js';
import { taggingKind } from './tagging.js';

/** The fundraising page's writable fields as the spec lists them. */
function fundraisingPageShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(),
    currency: optional(currency(mode)),
    ...sharingFields(mode),
  };
}

const fundraisingPageSchemas = resourceSchemas(fundraisingPageShape, {
  total_donations: optional(integer('read')),
  // Total raised, in the page's currency.
  total_amount: optional(float('read')),
  ...SHARING_TOTALS,
});

/**
 * A fundraising page as the SDK reads it from any server: unknown members kept,
 * totals read from numeric strings (`"1250.50"`).
 *
 * @example
 * ```ts
 * import { FundraisingPageSchema } from 'adis-sdk';
 * const page = FundraisingPageSchema.parse(json);
 * console.log(`${page.total_amount} ${page.currency} from ${page.total_donations} donations`);
 * ```
 */
export const FundraisingPageSchema = fundraisingPageSchemas.read;

/**
 * A fundraising page as a client sends it and the reference server accepts it:
 * `currency` an ISO 4217 code, no unknown members. The totals (`total_donations`,
 * `total_amount`, `total_shares`) are computed: accepted and ignored.
 *
 * @example
 * ```ts
 * import { FundraisingPageWriteSchema } from 'adis-sdk';
 * FundraisingPageWriteSchema.parse({ title: 'Fund the park cleanup', currency: 'USD' });
 * ```
 */
export const FundraisingPageWriteSchema = fundraisingPageSchemas.write;

/**
 * Fields of a fundraising page that a client may not set (dates, totals, HAL members).
 *
 * @example
 * ```ts
 * FUNDRAISING_PAGE_READ_ONLY_FIELDS.includes('total_amount'); // true
 * ```
 */
export const FUNDRAISING_PAGE_READ_ONLY_FIELDS = fundraisingPageSchemas.readOnly;

/** A fundraising page read from a server. Derived from {@link FundraisingPageSchema}. */
export type FundraisingPage = z.output<typeof FundraisingPageSchema>;
/** The fields a client may send to create or update a fundraising page. Derived from {@link FundraisingPageWriteSchema}. */
export type FundraisingPageInput = z.input<typeof FundraisingPageWriteSchema>;

/**
 * A fundraising page read from a server, with a method per link relation.
 *
 * @example
 * ```ts
 * const page = await client.fundraisingPages.get(url);
 * for await (const donation of page.donations()) console.log(donation.data.amount);
 * ```
 */
export class FundraisingPageResource extends Resource<FundraisingPage, FundraisingPageInput> {
  /**
   * The person who created the fundraising page (`std:creator`), if the server links one.
   *
   * @example
   * ```ts
   * const creator = await page.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last modified the fundraising page (`std:modified_by`), if the
   * server says.
   *
   * @example
   * ```ts
   * const editor = await page.modifiedBy({ signal: AbortSignal.timeout(5_000) });
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The donations made on the page (`std:donations`).
   *
   * @example
   * ```ts
   * let raised = 0;
   * for await (const donation of page.donations()) raised += donation.data.amount ?? 0;
   * ```
   */
  donations() {
    return this.linkedCollection(donationKind, 'std:donations');
  }

  /**
   * The taggings that tag the fundraising page (`std:taggings`).
   *
   * @example
   * ```ts
   * const taggings = await page.taggings().toArray();
   * ```
   */
  taggings() {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }

  /**
   * Records a donation on this page through its `std:record_donation_helper`: the
   * donor (`person`) is created or matched and updated, and the action functions are
   * applied; `_links` may tie the donation to an attendance or a submission. Checked
   * first (the recipients' amounts may not exceed `amount`); resolves with the
   * donation and the person, `complete: false` when an action function failed; an
   * atomic error rejects with an HTTPError. `authenticate: false` sends no key.
   *
   * @example
   * ```ts
   * const { record } = await page.recordDonation({
   *   amount: 25,
   *   currency: 'USD',
   *   person: { given_name: 'Ana' },
   *   _links: { 'std:attendance': linkTo(attendance) },
   * });
   * console.log(record?.data.amount);
   * ```
   */
  recordDonation(
    input: RecordDonationInput,
    options?: HelperOptions,
  ): Promise<HelperResult<DonationResource, PersonResource>> {
    return this.callHelper(
      'std:record_donation_helper',
      RecordDonationBodySchema,
      input,
      { record: donationKind, person: personKind },
      options,
    );
  }
}

/**
 * The fundraising page kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const pages = new Collection(context, locate, fundraisingPageKind);
 * ```
 */
export const fundraisingPageKind: ResourceKind<
  FundraisingPage,
  FundraisingPageInput,
  FundraisingPageResource
> = {
  singular: 'fundraising_page',
  plural: 'fundraising_pages',
  schema: FundraisingPageSchema,
  writeSchema: FundraisingPageWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new FundraisingPageResource(context, document, fundraisingPageKind),
};

import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import {
  currency,
  money,
  paymentSchema,
  recipientSchema,
  referredActionFields,
} from './action-fields.js';
import { type AttendanceResource, attendanceKind } from './attendance.js';
import { EVEN_WITH_INVALID_MEMBERS } from './content-fields.js';
import {
  bool,
  commonFields,
  datetime,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
  resourceSchemas,
} from './fields.js';
import { type FundraisingPageResource, fundraisingPageKind } from './fundraising-page.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type SubmissionResource, submissionKind } from './submission.js';

/**
 * The donation's fields: those of the Record Donation Helper body, less the inlined
 * person (a stored donation links its donor as `std:person`).
 */
function donationShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...referredActionFields(mode),
    amount: optional(money(mode)),
    credited_amount: optional(money(mode)),
    credited_date: optional(datetime(mode)),
    currency: optional(currency(mode)),
    recipients: optional(z.array(recipientSchema(mode))),
    payment: optional(paymentSchema(mode)),
    subscription_instance: optional(z.string()),
    voided: optional(bool(mode)),
    voided_date: optional(datetime(mode)),
    url: optional(z.string()),
  };
}

const donationSchemas = resourceSchemas(donationShape, HELPER_COMPUTED_FIELDS);

/**
 * A donation as the SDK reads it from any server: unknown members kept, amounts as
 * numbers or numeric strings, payment methods open.
 *
 * @example
 * ```ts
 * import { DonationSchema } from 'adis-sdk';
 * const donation = DonationSchema.parse({ amount: '25.00', currency: 'USD' });
 * donation.amount; // 25
 * ```
 */
export const DonationSchema = donationSchemas.read;

/**
 * Amounts are compared to a millionth of the currency unit, so that float sums such as
 * 0.1 + 0.2 do not exceed 0.3.
 */
const MONEY_TOLERANCE = 1e-6;

/**
 * A donation as a client sends it on create (with `_links['std:person']`) and update:
 * amounts not negative, ISO 4217 `currency`, ISO 8601 dates, no unknown members. When
 * a body carries both `amount` and `recipients`, the recipients' amounts must not add
 * up to more than `amount` (a custom issue at `recipients`, reported with any other
 * problem of the body). A partial update that
 * changes only one of them is checked by the server against the stored other.
 *
 * @example
 * ```ts
 * import { DonationWriteSchema } from 'adis-sdk';
 * DonationWriteSchema.safeParse({
 *   amount: 20,
 *   currency: 'USD',
 *   recipients: [{ display_name: 'Park Fund', amount: 25 }],
 * }).success; // false: the recipients get more than was given
 * ```
 */
export const DonationWriteSchema = donationSchemas.write.check(
  z.superRefine((donation, ctx) => {
    const problem = recipientsProblem(donation.amount, donation.recipients);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['recipients'] });
  }, EVEN_WITH_INVALID_MEMBERS),
);

/**
 * Why the recipients' amounts do not fit the donation's amount, or undefined when they
 * do (or when either is missing, so there is nothing to compare). Exported so that the
 * server applies the same rule to a partial update merged with the stored donation.
 *
 * @example
 * ```ts
 * recipientsProblem(20, [{ amount: 15 }, { amount: 10 }]);
 * // 'the recipients' amounts add up to 25, more than the amount 20'
 * ```
 */
export function recipientsProblem(amount: unknown, recipients: unknown): string | undefined {
  // Read defensively: the rule also runs when other members failed their own checks,
  // and a negative amount is already reported as such.
  if (typeof amount !== 'number' || amount < 0 || !Array.isArray(recipients)) return undefined;
  const total = recipients.reduce<number>((sum, recipient: unknown) => {
    const share = (recipient as { amount?: unknown } | null)?.amount;
    return typeof share === 'number' ? sum + share : sum;
  }, 0);
  if (total <= amount + MONEY_TOLERANCE) return undefined;
  return `the recipients' amounts add up to ${Number(total.toFixed(6))}, more than the amount ${amount}`;
}

/**
 * Members of a donation the server owns: ignored on create and update.
 *
 * @example
 * ```ts
 * DONATION_READ_ONLY_FIELDS.includes('created_date'); // true
 * ```
 */
export const DONATION_READ_ONLY_FIELDS = donationSchemas.readOnly;

/**
 * A donation read from a server. Derived from {@link DonationSchema}.
 *
 * @example
 * ```ts
 * const method: string | null | undefined = donation.data.payment?.method;
 * ```
 */
export type Donation = z.output<typeof DonationSchema>;

/**
 * What a client sends to create or update a donation. Derived from
 * {@link DonationWriteSchema}.
 *
 * @example
 * ```ts
 * const input: DonationInput = { amount: 25, currency: 'USD', _links: { 'std:person': linkTo(person) } };
 * ```
 */
export type DonationInput = z.input<typeof DonationWriteSchema>;

/**
 * A donation read from a server, with a method per link relation of a donation.
 *
 * @example
 * ```ts
 * for await (const donation of page.donations()) {
 *   if (!donation.data.voided) console.log(donation.data.amount, donation.data.currency);
 * }
 * ```
 */
export class DonationResource extends Resource<Donation, DonationInput> {
  /**
   * The donor (`std:person`).
   *
   * @example
   * ```ts
   * const donor = await donation.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource> {
    return this.linkedResource(personKind, 'std:person', options);
  }

  /**
   * The fundraising page the donation was made on (`std:fundraising_page`), or
   * undefined for a donation taken elsewhere (at an event, by check).
   *
   * @example
   * ```ts
   * const page = await donation.fundraisingPage();
   * console.log(page?.data.title ?? 'offline donation');
   * ```
   */
  fundraisingPage(options?: CallOptions): Promise<FundraisingPageResource | undefined> {
    return this.optionalLinkedResource(fundraisingPageKind, 'std:fundraising_page', options);
  }

  /**
   * The attendance the donation paid for, such as the tickets of a ticketed event
   * (`std:attendance`); undefined when there is none.
   *
   * @example
   * ```ts
   * const attendance = await donation.attendance();
   * ```
   */
  attendance(options?: CallOptions): Promise<AttendanceResource | undefined> {
    return this.optionalLinkedResource(attendanceKind, 'std:attendance', options);
  }

  /**
   * The form submission the donation came with (`std:submission`); undefined when
   * there is none.
   *
   * @example
   * ```ts
   * const submission = await donation.submission();
   * ```
   */
  submission(options?: CallOptions): Promise<SubmissionResource | undefined> {
    return this.optionalLinkedResource(submissionKind, 'std:submission', options);
  }

  /**
   * The organization that gave, when an organization rather than a person donated
   * (`std:organization`); undefined otherwise.
   *
   * @example
   * ```ts
   * const giver = (await donation.organization()) ?? (await donation.person());
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }
}

/**
 * The donation kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const donations = new Collection(context, locate, donationKind);
 * ```
 */
export const donationKind: ResourceKind<Donation, DonationInput, DonationResource> = {
  singular: 'donation',
  plural: 'donations',
  schema: DonationSchema,
  writeSchema: DonationWriteSchema,
  wrap: (context, document) => new DonationResource(context, document, donationKind),
};

import * as z from 'zod/mini';
import {
  amountValue,
  currency,
  money,
  paymentSchema,
  recipientSchema,
  referredActionFields,
} from '../action-fields.js';
import {
  bool,
  commonFields,
  datetime,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
} from '../fields.js';
import { defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

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

/**
 * Amounts are compared to a millionth of the currency unit, so that float sums such as
 * 0.1 + 0.2 do not exceed 0.3.
 */
const MONEY_TOLERANCE = 1e-6;

/**
 * Why the recipients' amounts do not fit the donation's amount, or undefined when they
 * do (or when either is missing, so there is nothing to compare). Exported so that the
 * server applies the same rule to a partial update merged with the stored donation.
 *
 * @example
 * ```ts
 * import { recipientsProblem } from 'adis-sdk/schema';
 *
 * recipientsProblem(20, [{ amount: 15 }, { amount: 10 }]);
 * // 'the recipients' amounts add up to 25, more than the amount 20'
 * ```
 */
export function recipientsProblem(amount: unknown, recipients: unknown): string | undefined {
  // Read defensively: the rule also runs when other members failed their own checks,
  // and a negative amount is already reported as such.
  const given = moneyOf(amount);
  if (given === undefined || given < 0 || !Array.isArray(recipients)) return undefined;
  const total = recipients.reduce<number>((sum, recipient: unknown) => {
    const share = moneyOf((recipient as { amount?: unknown } | null)?.amount);
    return share === undefined ? sum : sum + share;
  }, 0);
  if (total <= given + MONEY_TOLERANCE) return undefined;
  return `the recipients' amounts add up to ${Number(total.toFixed(6))}, more than the amount ${given}`;
}

/** An amount read defensively: a number or a decimal string, else undefined. */
function moneyOf(value: unknown): number | undefined {
  return typeof value === 'number' || typeof value === 'string' ? amountValue(value) : undefined;
}

/**
 * The donation kind: a donation by a person. Read with `schema` (unknown members kept,
 * amounts as numbers or decimal strings, kept as given; payment methods open); sent
 * with `writeSchema` (on create, with `_links['std:person']`; no unknown plain
 * members, vendor `<prefix>:<name>` members pass); the reference server checks
 * `strictSchema` (amounts not negative, ISO 4217 `currency`, ISO 8601 dates). For the
 * reference server, when a body carries both `amount` and `recipients`, the recipients'
 * amounts must not add up to more than `amount` (a custom issue at `recipients`,
 * reported with any other problem of the body); a partial update
 * that changes only one of them is checked by the server against the stored other
 * ({@link recipientsProblem}).
 *
 * A donation's `created_date` is the donation's own date, which the client may give
 * (`clientCreatedDate`): an import of past donations keeps their dates, as Action
 * Network documents for the donation's create. It is sent on create and update, and
 * in the record donation helper's body (which takes the donation's fields). It is a
 * `Date` or a string holding a date-time in any server's spelling
 * (`2024-05-01T12:00:00Z`, `2024-05-01 12:00:00`); anything else is refused before
 * sending (SchemaValidationError).
 * The reference server stores it as given (an RFC 3339 date-time, not in the future),
 * takes it back unchanged on update and refuses a different one; without it, the
 * donation is dated when it is written. `modified_date` is always the server's.
 *
 * @example
 * ```ts
 * import { donationKind } from 'adis-sdk/schema';
 *
 * donationKind.schema.parse({ amount: '25.00', currency: 'USD' }).amount; // '25.00'
 * donationKind.strictSchema.safeParse({
 *   amount: 20,
 *   currency: 'USD',
 *   recipients: [{ display_name: 'Park Fund', amount: 25 }],
 * }).success; // false: the recipients get more than was given
 * donationKind.writeSchema.parse({ amount: 20, created_date: new Date(Date.UTC(2023, 11, 24)) })
 *   .created_date; // '2023-12-24T00:00:00.000Z': sent, not dropped
 * donationKind.writeSchema.safeParse({ created_date: 'last Christmas' }).success; // false
 * ```
 */
export const donationKind = defineKind({
  singular: 'donation',
  plural: 'donations',
  description: 'A donation by a person, on a fundraising page or taken elsewhere',
  shape: donationShape,
  computed: HELPER_COMPUTED_FIELDS,
  // The donation's own date: an import of past donations gives it (see above).
  clientCreatedDate: true,
  relations: {
    /** The donor (`std:person`). */
    person: one('person', { required: true }),
    /**
     * The fundraising page the donation was made on (`std:fundraising_page`), or
     * undefined for a donation taken elsewhere (at an event, by check).
     */
    fundraisingPage: one('fundraising_page'),
    /**
     * The attendance the donation paid for, such as the tickets of a ticketed event
     * (`std:attendance`); undefined when there is none.
     */
    attendance: one('attendance'),
    /**
     * The form submission the donation came with (`std:submission`); undefined when
     * there is none.
     */
    submission: one('submission'),
    /**
     * The organization that gave, when an organization rather than a person donated
     * (`std:organization`); undefined otherwise.
     */
    organization: one('organization'),
  },
  check: (donation, ctx) => {
    const problem = recipientsProblem(donation.amount, donation.recipients);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['recipients'] });
  },
});

/** A donation as read from a server: the output of `donationKind.schema`. */
export interface Donation extends z.output<typeof donationKind.schema> {}
/** What a client sends to create or update a donation: the input of `donationKind.writeSchema`. */
export interface DonationInput extends z.input<typeof donationKind.writeSchema>, VendorMembers {}

import * as z from 'zod/mini';
import {
  bool,
  code,
  datetime,
  flexenum,
  isServerMode,
  type Mode,
  object,
  optional,
  preprocess,
} from './fields.js';
import { referrerDataSchema } from './shared.js';

// This module imports no resource kind on purpose: the action resources import it while
// their kinds import each other, so it must be fully evaluated before any of them.
// content-fields.ts imports it, never the other way round.

/** ISO 4217 currency code: three upper-case letters (`USD`, `EUR`). */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/**
 * A currency (`currency` of a donation or a ticket): an ISO 4217 code for the reference
 * server, any string on read and write.
 *
 * @example
 * ```ts
 * import { currency } from './action-fields.js';
 *
 * currency('strict').parse('EUR'); // 'EUR'
 * currency('strict').safeParse('euro').success; // false
 * ```
 */
export function currency(mode: Mode): z.ZodMiniType<string, string> {
  return code(CURRENCY_PATTERN, 'ISO 4217 currency code such as USD', mode);
}

/** A decimal amount as text, as Action Network writes money: `"3.00"`, `"25"`. */
export const DECIMAL_PATTERN = /^-?\d+(\.\d+)?$/;

/**
 * An amount of money: a number, or a decimal string as some servers write money
 * (Action Network's `"3.00"`). Read and sent as given, never converted: `"20.00"` stays
 * `"20.00"`, so what was read is written back byte for byte ({@link amountValue} gives
 * the number). For the reference server never negative (a refund is recorded as
 * `credited_amount` or by voiding the donation, not as a negative amount), at most
 * {@link MAX_AMOUNT}, and a string must be a decimal; it is stored as a number.
 *
 * @example
 * ```ts
 * import { money } from './action-fields.js';
 *
 * money('read').parse('25.00'); // '25.00'
 * money('write').parse(25); // 25
 * money('strict').parse('25.00'); // 25
 * money('strict').safeParse(-5).success; // false
 * ```
 */
export function money(mode: Mode): z.ZodMiniType<number | string, number | string> {
  if (!isServerMode(mode)) return z.union([z.number(), z.string()], { error: MONEY_TYPE });
  // A decimal string becomes its number first, so that every other value is reported
  // by the number's own checks (a bare union would say only "Invalid input").
  return preprocess(
    (value) => (typeof value === 'string' && DECIMAL_PATTERN.test(value) ? Number(value) : value),
    z
      .number({ error: MONEY_TYPE })
      .check(z.gte(0, 'must not be negative'), z.lte(MAX_AMOUNT, 'must be at most 1,000,000,000')),
  ) as unknown as z.ZodMiniType<number | string, number | string>;
}

const MONEY_TYPE = 'must be a number or a decimal string such as 3.00';

/**
 * The number an amount of money stands for: a number as it is, a decimal string
 * (`"3.00"`) parsed; undefined when there is no amount or it is not a number.
 *
 * @example
 * ```ts
 * import { amountValue } from 'adis-sdk';
 *
 * amountValue('20.00'); // 20
 * amountValue(7.5); // 7.5
 * amountValue(undefined); // undefined
 * ```
 */
export function amountValue(amount: number | string | null | undefined): number | undefined {
  if (typeof amount === 'number') return Number.isFinite(amount) ? amount : undefined;
  if (typeof amount !== 'string' || amount.trim() === '') return undefined;
  const value = Number(amount);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The largest amount the reference server accepts: far above any real donation or ticket, and low
 * enough that totals of many amounts stay exact to the cent (servers sum in fixed point).
 */
export const MAX_AMOUNT = 1_000_000_000;

/**
 * The fields every action record has (a signature, donation, attendance, submission,
 * answer or canvass): where it was made and when. `action_date` is typed "string" in
 * the spec but described as a date and time, so the reference server takes an ISO 8601
 * date-time, like every other date-time (a `Date` is sent as one).
 */
export function actionFields(mode: Mode) {
  return {
    origin_system: optional(z.string()),
    action_date: optional(datetime(mode)),
  };
}

/**
 * {@link actionFields} plus `referrer_data`, for the actions a person takes from a page
 * (signatures, donations, attendances, submissions): the page was reached from somewhere.
 */
export function referredActionFields(mode: Mode) {
  return {
    ...actionFields(mode),
    referrer_data: optional(referrerDataSchema(mode)),
  };
}

/**
 * The members of something sold or given at a price: a ticket of an attendance (and,
 * with a limit and totals, an event's ticket level).
 */
export function pricedFields(mode: Mode) {
  return {
    title: optional(z.string()),
    description: optional(z.string()),
    amount: optional(money(mode)),
    currency: optional(currency(mode)),
  };
}

/** Recipient of a donation (element of `recipients`): who got how much of it. */
export function recipientSchema(mode: Mode) {
  return object(
    {
      display_name: optional(z.string()),
      legal_name: optional(z.string()),
      amount: optional(money(mode)),
    },
    mode,
  );
}

/** The payment methods the spec lists for a donation's `payment.method` (a flexenum). */
export const PAYMENT_METHODS = [
  'Credit Card',
  'Check',
  'Cash',
  'Electronic Funds Transfer',
] as const;

/** Payment of a donation (`payment`). */
export function paymentSchema(mode: Mode) {
  return object(
    {
      method: optional(flexenum(PAYMENT_METHODS)),
      reference_number: optional(z.string()),
      authorization_stored: optional(bool(mode)),
    },
    mode,
  );
}

/**
 * The person a stored ticket is for, as the href of that person. On read a link object
 * (`{ href }`) or an inlined person with a `self` link is accepted too and reduced to
 * its href, so callers always see a string they can `get` from `client.people`.
 */
function ticketHolder(mode: Mode): z.ZodMiniType<string, string> {
  if (isServerMode(mode)) return z.string().check(z.minLength(1, 'must be the href of a person'));
  if (mode === 'write') return z.string();
  // Typed by what a client sends (the href); the read side accepts more.
  return preprocess<z.ZodMiniString, string>((value) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const record = value as { href?: unknown; _links?: { self?: { href?: unknown } } };
    if (typeof record.href === 'string') return record.href;
    const self = record._links?.self?.href;
    return typeof self === 'string' ? self : value;
  }, z.string());
}

/**
 * A ticket of an attendance at a ticketed event (element of `tickets`). The record
 * attendance helper inlines the ticket holder as a Person; a stored ticket refers to
 * that person by href in `person` (the person may differ from the buyer, who is the
 * attendance's `std:person`).
 */
export function ticketSchema(mode: Mode) {
  return object(
    {
      ...pricedFields(mode),
      attended: optional(bool(mode)),
      person: optional(ticketHolder(mode)),
    },
    mode,
  );
}

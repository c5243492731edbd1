import * as z from 'zod/mini';
import { isServerMode, type Mode } from './fields.js';

// The length limits the reference server (`strict`, `extended`) holds strings to. Read
// and write stay unbounded: the SDK must read whatever another server stores, and write
// back what it read (the round-trip rule, docs/round-trip.md). The specification shows
// no field length limits ("Maximum request body size and field length limits: not
// shown"), and Action Network's documentation states none for the members bounded here.
// The only length found in its pages, a mass email's subject ("Less than 200
// characters should be your goal", help.actionnetwork.org), is advice: a longer subject
// is truncated at a byte limit it does not give, not refused. So a message's subject is
// left unbounded here, as are titles, descriptions, URLs and custom field values: the
// body limits (16 KiB without a key, 1 MiB with one) bound those.

/**
 * The longest local part (before the `@`) of an email address: 64 octets, RFC 5321
 * section 4.5.3.1.1. The server's addresses are ASCII (`z.email()`), so octets and
 * characters are the same count.
 */
export const EMAIL_LOCAL_PART_MAX = 64;

/**
 * The longest email address: 254 octets. RFC 5321 section 4.5.3.1.3 caps a path at 256
 * octets, and a path is the address between `<` and `>` (RFC 5321 erratum 1690).
 */
export const EMAIL_ADDRESS_MAX = 254;

/**
 * The longest short text (a person's names and honorifics, an employer, an address
 * line, a locality, a phone's extension, a profile's handle, a target's title) the
 * reference server stores. No real server documents a bound for these; 255 is the
 * `VARCHAR(255)` of the CRMs such data moves between, far above any real name, yet it
 * keeps a keyed body (up to 1 MiB) from storing a megabyte as someone's given name and
 * echoing it in every page of people. The anonymous body is capped at 16 KiB besides.
 * Counted in UTF-16 code units, as JavaScript counts a string's length.
 */
export const SHORT_TEXT_MAX = 255;

/**
 * A check that a string has at most `max` characters, whose message says the limit.
 * A refine rather than zod's `maxLength`: no other schema of the people bundle uses that
 * check, and with it the limits cost that bundle 0.38 kB (gzipped) instead of 0.14.
 */
function atMost(max: number) {
  return z.refine<string>((text) => text.length <= max, `must be at most ${max} characters`);
}

/**
 * A short text: any string on read and write, at most {@link SHORT_TEXT_MAX} characters
 * for the reference server, refused with a message that says the limit.
 *
 * @example
 * ```ts
 * import { shortText } from './lengths.js';
 *
 * shortText('strict').safeParse('x'.repeat(256)).success; // false: at most 255 characters
 * shortText('read').safeParse('x'.repeat(256)).success; // true
 * ```
 */
export function shortText(mode: Mode): z.ZodMiniString<string> {
  // Typed as a plain string schema on every side, so the kinds' types (and the API
  // reports that print them) are the same whether a member is bounded or not.
  return isServerMode(mode) ? z.string().check(atMost(SHORT_TEXT_MAX)) : z.string();
}

/**
 * The checks that hold an email address to RFC 5321's limits: at most
 * {@link EMAIL_ADDRESS_MAX} characters in all, at most {@link EMAIL_LOCAL_PART_MAX}
 * before the `@`. For the reference server's email schema, after its format check;
 * each message says the limit, which the server's `std:error` repeats.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { emailLengthChecks } from './lengths.js';
 *
 * const address = z.email('must be an email address').check(...emailLengthChecks());
 * address.safeParse(`${'a'.repeat(65)}@example.org`).success; // false: 65 before the @
 * ```
 */
export function emailLengthChecks() {
  return [
    atMost(EMAIL_ADDRESS_MAX),
    // The local part ends at the last `@` (the domain can hold none), so the index of
    // that `@` is its length. Without an `@` there is no local part to measure (-1): the
    // format check reports that address.
    z.refine<string>(
      (address) => address.lastIndexOf('@') <= EMAIL_LOCAL_PART_MAX,
      `must have at most ${EMAIL_LOCAL_PART_MAX} characters before the @`,
    ),
  ] as const;
}

import * as z from 'zod/mini';
import {
  bool,
  code,
  datetime,
  enumeration,
  flexenum,
  float,
  isServerMode,
  type Mode,
  object,
  optional,
  outsideSpec,
  preprocess,
} from './fields.js';
import { emailLengthChecks, shortText } from './lengths.js';
import { RuleCode } from './rules.js';

/** ISO 3166-1 alpha-2 country code. */
export const COUNTRY_PATTERN = /^[A-Z]{2}$/;
/**
 * ISO 3166-2 subdivision: the spec stores only the part after the country (`NY`, not
 * `US-NY`); some subdivisions use digits (`FR-75`), so letters and digits are allowed.
 */
export const REGION_PATTERN = /^[A-Z0-9]{1,3}$/;
/** ISO 639 language code (two or three letters), or an RFC 5646 tag such as `en-US`. */
export const LANGUAGE_PATTERN = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/;
/**
 * Phone numbers are digits only and must include the country code. The shortest
 * international numbers have 7 digits with the code; E.164 allows at most 15.
 */
export const PHONE_NUMBER_PATTERN = /^\d{7,15}$/;

/** Geocode of an address (`location` of a postal address or an event location). */
export function locationSchema(mode: Mode) {
  return object(
    {
      latitude: optional(z.pipe(float(mode), z.number().check(z.gte(-90), z.lte(90)))),
      longitude: optional(z.pipe(float(mode), z.number().check(z.gte(-180), z.lte(180)))),
      accuracy: optional(enumeration(['Rooftop', 'Approximate'], mode)),
    },
    mode,
  );
}

/**
 * The address members shared by postal addresses, an employer's address and an
 * event's location.
 */
export function addressMembers(mode: Mode) {
  return {
    venue: optional(shortText(mode)),
    address_lines: optional(z.array(shortText(mode))),
    locality: optional(shortText(mode)),
    region: optional(code(REGION_PATTERN, 'ISO 3166-2 subdivision code such as NY', mode)),
    postal_code: optional(shortText(mode)),
    country: optional(code(COUNTRY_PATTERN, 'ISO 3166-1 alpha-2 country code such as US', mode)),
    language: optional(code(LANGUAGE_PATTERN, 'ISO 639 language code such as en', mode)),
    location: optional(locationSchema(mode)),
  };
}

/** Postal Address (element of `postal_addresses`). */
export function postalAddressSchema(mode: Mode) {
  return object(
    {
      primary: optional(bool(mode)),
      address_type: optional(enumeration(['Home', 'Work', 'Mailing'], mode)),
      ...addressMembers(mode),
      status: optional(enumeration(['Potential', 'Verified', 'Bad', 'Past'], mode)),
      last_verified_date: optional(datetime(mode)),
      // The spec lists `occupation` among the address members.
      occupation: optional(shortText(mode)),
    },
    mode,
  );
}

/**
 * Employer address of a person: the address members without `primary`, with a
 * smaller status list.
 */
export function employerAddressSchema(mode: Mode) {
  return object(
    {
      ...addressMembers(mode),
      status: optional(enumeration(['Potential', 'Verified', 'Bad'], mode)),
    },
    mode,
  );
}

/** The email statuses the specification lists. */
export const SPEC_EMAIL_STATUSES = [
  'subscribed',
  'unsubscribed',
  'bouncing',
  'spam complaints',
] as const;

/**
 * Email and phone statuses: the specification's, and those Action Network documents
 * beside them (`previous bounce`, `spam complaint`, `previous spam complaint`). On
 * read and write any other string passes too (the server owns the vocabulary); these
 * are what editors complete.
 */
export const SUBSCRIPTION_STATUSES = [
  ...SPEC_EMAIL_STATUSES,
  'previous bounce',
  'spam complaint',
  'previous spam complaint',
] as const;

/**
 * An email or phone status: any string on read and write (typed with
 * {@link SUBSCRIPTION_STATUSES} for completion); one of the specification's four for
 * the reference server, one of {@link SUBSCRIPTION_STATUSES} under a real server's
 * preset (`extended`).
 */
function subscriptionStatus(mode: Mode) {
  return enumeration(
    mode === 'strict' ? SPEC_EMAIL_STATUSES : SUBSCRIPTION_STATUSES,
    mode,
  ) as ReturnType<typeof flexenum<typeof SUBSCRIPTION_STATUSES>>;
}

/**
 * An email address (`address` of an email, `reply_to` of a message, `email_address` of
 * an event's contact): any string on read and write, so that a long address another
 * server stores is still read; for the reference server an email address within RFC
 * 5321's limits (at most 64 characters before the `@`, 254 in all: see lengths.ts).
 *
 * @example
 * ```ts
 * import { emailText } from './shared.js';
 *
 * emailText('strict').safeParse('not an email').success; // false
 * emailText('strict').safeParse(`${'a'.repeat(65)}@example.org`).success; // false
 * emailText('read').safeParse(`${'a'.repeat(65)}@example.org`).success; // true
 * ```
 */
export function emailText(mode: Mode): z.ZodMiniType<string, string> {
  return isServerMode(mode)
    ? z.email('must be an email address').check(...emailLengthChecks())
    : z.string();
}

/** Email Address (element of `email_addresses`). */
export function emailAddressSchema(mode: Mode) {
  return object(
    {
      primary: optional(bool(mode)),
      address: optional(emailText(mode)),
      address_type: optional(flexenum(['personal', 'work', 'other'])),
      status: optional(subscriptionStatus(mode)),
    },
    mode,
  );
}

/**
 * Phone Number (element of `phone_numbers`). On read, `number` may arrive as a JSON
 * number and `primary` as a string (the spec's table types it so); both are
 * normalised. For the reference server, `number` must be digits only with the country
 * code. `status` is Action Network's SMS subscription status, beside the spec's members.
 *
 * @example
 * ```ts
 * import { phoneNumberSchema } from './shared.js';
 *
 * phoneNumberSchema('read').parse({ primary: 'true', number: 12025550123 });
 * // { primary: true, number: '12025550123' }
 * ```
 */
export function phoneNumberSchema(mode: Mode) {
  const phoneNumber = isServerMode(mode)
    ? z
        .string()
        .check(z.regex(PHONE_NUMBER_PATTERN, 'must be 7 to 15 digits including the country code'))
    : mode === 'read'
      ? // Typed by what a client sends (a string); numbers are read too.
        preprocess<z.ZodMiniString, string>(
          (value) => (typeof value === 'number' ? String(value) : value),
          z.string(),
        )
      : z.string();
  return object(
    {
      // READING-NOTES.md: the table types it a string; accept "true"/"false" on both
      // sides and always produce (and so send) a boolean.
      primary: optional(bool('read')),
      number: optional(phoneNumber),
      extension: optional(shortText(mode)),
      description: optional(shortText(mode)),
      number_type: optional(
        flexenum(['Home', 'Work', 'Mobile', 'Other', 'Daytime', 'Evening', 'Fax']),
      ),
      operator: optional(shortText(mode)),
      country: optional(code(COUNTRY_PATTERN, 'ISO 3166-1 alpha-2 country code such as US', mode)),
      sms_capable: optional(bool(mode)),
      do_not_call: optional(bool(mode)),
      // Action Network's SMS subscription status: not a member of the spec's phones.
      status: optional(outsideSpec(subscriptionStatus(mode), mode)),
    },
    mode,
  );
}

/** Profile (element of `profiles`): an account on an online service. */
export function profileSchema(mode: Mode) {
  return object(
    {
      provider: optional(shortText(mode)),
      id: optional(shortText(mode)),
      // A URL is not short text: no bound but the body's.
      url: optional(z.string()),
      handle: optional(
        isServerMode(mode)
          ? shortText(mode).check(z.refine((h) => !h.startsWith('@'), 'must not start with @'))
          : z.string(),
      ),
    },
    mode,
  );
}

/**
 * Custom Fields: string keys to string values for the reference server. On read,
 * numbers and booleans are kept as they came rather than failing the whole record, and
 * written back as they were read.
 */
export function customFieldsSchema(mode: Mode) {
  return isServerMode(mode)
    ? z.record(z.string(), z.nullable(z.string()))
    : z.record(z.string(), z.unknown());
}

/** Referrer Data (`referrer_data`): where an action came from. */
export function referrerDataSchema(mode: Mode) {
  return object(
    {
      source: optional(z.string()),
      referrer: optional(z.string()),
      website: optional(z.string()),
      url: optional(z.string()),
    },
    mode,
  );
}

/** The `params.code` of the issue raised when more than one member is primary. */
export const MULTIPLE_PRIMARY = RuleCode.MULTIPLE_PRIMARY;

/**
 * A list of addresses, emails or phones of which at most one may be primary, as the
 * spec requires. For the reference server, the second primary member is reported at its own path with
 * `params.code` {@link MULTIPLE_PRIMARY}, so a server can map it to an error code
 * without reading the message. The check sits on the list itself so that it runs even
 * when other members of the person are invalid: every problem is reported at once.
 */
export function primaryList<
  T extends z.ZodMiniType<{ primary?: boolean | null | undefined }, unknown>,
>(item: T, property: string, mode: Mode) {
  const list = z.array(item);
  if (!isServerMode(mode)) return list;
  return list.check(
    z.superRefine((items, ctx) => {
      let seen = false;
      items.forEach((member, index) => {
        if (!member.primary) return;
        if (seen) {
          ctx.addIssue({
            code: 'custom',
            message: `only one of ${property} may be primary`,
            path: [index, 'primary'],
            params: { code: MULTIPLE_PRIMARY },
          });
        }
        seen = true;
      });
    }),
  );
}

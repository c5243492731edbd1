import * as z from 'zod/mini';
import {
  bool,
  commonFields,
  datetime,
  enumeration,
  flexenum,
  HELPER_COMPUTED_FIELDS,
  integer,
  isServerMode,
  type Mode,
  object,
  optional,
  preprocess,
  uniqueStrings,
} from '../fields.js';
import { defineKind, many, recordHelper } from '../kind.js';
import { shortText } from '../lengths.js';
import {
  customFieldsSchema,
  emailAddressSchema,
  employerAddressSchema,
  LANGUAGE_PATTERN,
  phoneNumberSchema,
  postalAddressSchema,
  primaryList,
  profileSchema,
} from '../shared.js';
import type { VendorMembers } from '../vendor.js';

const PARTY_VALUES = ['None', 'Democratic', 'Republican', 'Independent'] as const;

function genderPronounsSchema(mode: Mode) {
  const shape = {
    subject: optional(flexenum(['She', 'He', 'They'])),
    object: optional(flexenum(['Her', 'Him', 'Them'])),
    // Spelled `posessive` on the wire (READING-NOTES.md).
    posessive: optional(flexenum(['Hers', 'His', 'Theirs'])),
  };
  // Some servers and clients fix the spelling. On read, `possessive` is copied into
  // `posessive` so callers see one member, and kept (nothing is dropped on read). On
  // write it is accepted and renamed, so only the wire spelling is sent or stored; when
  // both are there (as read gives them), the wire spelling wins and `possessive` is not
  // sent: a record read is written back without a member the schema does not know.
  const pronouns = object(shape, mode);
  // Typed by what a client sends (the object, `possessive` accepted as the fixed
  // spelling), not by the `unknown` the preprocess step takes at run time.
  return preprocess(
    (value: z.input<typeof pronouns> & { possessive?: z.input<typeof pronouns>['posessive'] }) => {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const { possessive, ...rest } = value as Record<string, unknown>;
        if (possessive === undefined) return value;
        if (rest.posessive === undefined) {
          return mode === 'read'
            ? { ...rest, possessive, posessive: possessive }
            : { ...rest, posessive: possessive };
        }
        if (mode !== 'read') return rest;
      }
      return value;
    },
    pronouns,
  );
}

function birthdateSchema(mode: Mode) {
  const bounded = (min: number, max: number) =>
    isServerMode(mode)
      ? z.pipe(integer(mode), z.number().check(z.gte(min), z.lte(max)))
      : integer(mode);
  return object(
    {
      month: optional(bounded(1, 12)),
      day: optional(bounded(1, 31)),
      year: optional(bounded(1000, 9999)),
    },
    mode,
  );
}

function divisionInfoSchema(mode: Mode) {
  return object(
    {
      id: optional(z.string()),
      name: optional(z.string()),
      // The spec does not show a Division's fields; keep whatever arrives.
      divisions: optional(z.array(z.record(z.string(), z.unknown()))),
    },
    mode,
  );
}

function partySchema(mode: Mode) {
  return object(
    {
      identification: optional(flexenum(PARTY_VALUES)),
      last_verified_date: optional(datetime(mode)),
      active: optional(bool(mode)),
    },
    mode,
  );
}

/**
 * The person's fields as the spec's Person table lists them, for one side of the wire.
 * `profiles` is the field the table misprints as "the service".
 */
function personShape(mode: Mode) {
  return {
    ...commonFields(mode),
    // The names and the other short texts are bounded for the reference server only
    // (lengths.ts): no real server documents a limit, and read must take any length.
    family_name: optional(shortText(mode)),
    given_name: optional(shortText(mode)),
    additional_name: optional(shortText(mode)),
    honorific_prefix: optional(shortText(mode)),
    honorific_suffix: optional(shortText(mode)),
    gender: optional(enumeration(['Female', 'Male', 'Other'], mode)),
    gender_identity: optional(shortText(mode)),
    additional_gender_identities: optional(z.array(shortText(mode))),
    gender_pronouns: optional(genderPronounsSchema(mode)),
    party_identification: optional(flexenum(PARTY_VALUES)),
    parties: optional(z.array(partySchema(mode))),
    source: optional(shortText(mode)),
    ethnicities: optional(uniqueStrings(mode)),
    languages_spoken: optional(
      uniqueStrings(
        mode,
        isServerMode(mode)
          ? z.string().check(z.regex(LANGUAGE_PATTERN, 'must be an RFC 5646 language tag'))
          : z.string(),
      ),
    ),
    preferred_language: optional(
      isServerMode(mode)
        ? z.string().check(z.regex(LANGUAGE_PATTERN, 'must be an RFC 5646 language tag'))
        : z.string(),
    ),
    browser_url: optional(z.string()),
    administrative_url: optional(z.string()),
    birthdate: optional(birthdateSchema(mode)),
    employer: optional(shortText(mode)),
    work_title: optional(shortText(mode)),
    work_department: optional(shortText(mode)),
    employer_address: optional(employerAddressSchema(mode)),
    postal_addresses: optional(primaryList(postalAddressSchema(mode), 'postal_addresses', mode)),
    email_addresses: optional(primaryList(emailAddressSchema(mode), 'email_addresses', mode)),
    phone_numbers: optional(primaryList(phoneNumberSchema(mode), 'phone_numbers', mode)),
    profiles: optional(z.array(profileSchema(mode))),
    custom_fields: optional(customFieldsSchema(mode)),
    division_info: optional(z.array(divisionInfoSchema(mode))),
  };
}

/**
 * The person kind: an individual with an action history. Read with `schema` (unknown
 * members kept, flexenums and enums open, `possessive` read as `posessive`, phone
 * `primary` strings and numeric phone numbers normalised); sent with `writeSchema`
 * (member names and JSON types: no unknown plain members at any depth, vendor
 * `<prefix>:<name>` members pass; `null` clears a field on update); the reference
 * server checks `strictSchema` (closed enums, ISO codes, digit-only phone numbers with
 * the country code, unique arrays, at most one primary address, email and phone, email
 * addresses within RFC 5321's lengths, names and other short texts of at most 255
 * characters).
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk/schema';
 *
 * const json: unknown = await (await fetch('https://api.example.org/api/v1/people/1')).json();
 * const person = personKind.schema.parse(json);
 * console.log(person.given_name, person.email_addresses?.[0]?.address);
 * personKind.writeSchema.safeParse({ givn_name: 'Ana' }).success; // false: a typo
 * personKind.writeSchema.safeParse({ phone_numbers: [{ number: '555' }] }).success; // true
 * personKind.strictSchema.safeParse({ phone_numbers: [{ number: '555' }] }).success; // false
 * ```
 */
export const personKind = defineKind({
  singular: 'person',
  plural: 'people',
  description: 'An individual stored in the system with an action history',
  shape: personShape,
  computed: HELPER_COMPUTED_FIELDS,
  relations: {
    /** The person's answers to questions (`std:answers`). */
    answers: many('answer'),
    /**
     * The person's attendances (`std:attendances`): RSVPs and tickets bought. The spec's
     * list of a person's links spells it `std:attendance` once; both are read.
     */
    attendances: many('attendance', { alternatives: ['attendance'] }),
    /** The person's signatures (`std:signatures`). */
    signatures: many('signature'),
    /** The person's form submissions (`std:submissions`). */
    submissions: many('submission'),
    /** The person's donations (`std:donations`). */
    donations: many('donation'),
    /** The person's outreaches to targets of advocacy campaigns (`std:outreaches`). */
    outreaches: many('outreach'),
    /** The taggings that apply tags to the person (`std:taggings`). */
    taggings: many('tagging'),
    /** The list items that put the person on lists (`std:items`). */
    items: many('item'),
  },
  helpers: {
    /**
     * Records a canvass of this person (the target) through the person's
     * `std:record_canvass_helper`: the canvass fields go in `canvass` (with the
     * `canvasser` inlined and one `question_response`), and the action functions apply to
     * this person. Checked first; resolves with the canvass and the target,
     * `complete: false` when an action function failed; an atomic error rejects with an
     * HTTPError. `authenticate: false` sends no key.
     */
    recordCanvass: recordHelper('record_canvass_helper', 'recordCanvass', 'canvass', {
      anonymous: true,
    }),
  },
});

/** A person as read from a server: the output of `personKind.schema`. */
export interface Person extends z.output<typeof personKind.schema> {}
/** What a client sends to create or update a person: the input of `personKind.writeSchema`. */
export interface PersonInput extends z.input<typeof personKind.writeSchema>, VendorMembers {}
/** Postal address of a person, as read. */
export type PostalAddress = NonNullable<Person['postal_addresses']>[number];
/** Email address of a person, as read. */
export type EmailAddress = NonNullable<Person['email_addresses']>[number];
/** Phone number of a person, as read. */
export type PhoneNumber = NonNullable<Person['phone_numbers']>[number];

/**
 * The person's primary email address, else the first one; undefined when the person has
 * none.
 *
 * @example
 * ```ts
 * import { primaryEmail } from 'adis-sdk/schema';
 *
 * primaryEmail({
 *   email_addresses: [{ address: 'bo@example.org' }, { address: 'ana@example.org', primary: true }],
 * }); // 'ana@example.org'
 * ```
 */
export function primaryEmail(person: Person): string | undefined {
  const emails = person.email_addresses ?? [];
  const email = emails.find((e) => e?.primary) ?? emails[0];
  return email?.address ?? undefined;
}

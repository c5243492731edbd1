import * as z from 'zod/mini';
import {
  bool,
  commonFields,
  datetime,
  enumeration,
  flexenum,
  HELPER_COMPUTED_FIELDS,
  integer,
  type Mode,
  object,
  optional,
  preprocess,
  resourceSchemas,
  uniqueStrings,
} from './fields.js';
import {
  customFieldsSchema,
  emailAddressSchema,
  employerAddressSchema,
  LANGUAGE_PATTERN,
  phoneNumberSchema,
  postalAddressSchema,
  primaryList,
  profileSchema,
} from './shared.js';

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
  // write it is accepted and renamed, so only the wire spelling is sent or stored.
  return preprocess(
    (value) => {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const { possessive, ...rest } = value as Record<string, unknown>;
        if (possessive !== undefined && rest.posessive === undefined) {
          return mode === 'write'
            ? { ...rest, posessive: possessive }
            : { ...rest, possessive, posessive: possessive };
        }
      }
      return value;
    },
    object(shape, mode),
  );
}

function birthdateSchema(mode: Mode) {
  const bounded = (min: number, max: number) =>
    mode === 'write'
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
    family_name: optional(z.string()),
    given_name: optional(z.string()),
    additional_name: optional(z.string()),
    honorific_prefix: optional(z.string()),
    honorific_suffix: optional(z.string()),
    gender: optional(enumeration(['Female', 'Male', 'Other'], mode)),
    gender_identity: optional(z.string()),
    additional_gender_identities: optional(z.array(z.string())),
    gender_pronouns: optional(genderPronounsSchema(mode)),
    party_identification: optional(flexenum(PARTY_VALUES)),
    parties: optional(z.array(partySchema(mode))),
    source: optional(z.string()),
    ethnicities: optional(uniqueStrings(mode)),
    languages_spoken: optional(
      uniqueStrings(
        mode,
        mode === 'write'
          ? z.string().check(z.regex(LANGUAGE_PATTERN, 'must be an RFC 5646 language tag'))
          : z.string(),
      ),
    ),
    preferred_language: optional(
      mode === 'write'
        ? z.string().check(z.regex(LANGUAGE_PATTERN, 'must be an RFC 5646 language tag'))
        : z.string(),
    ),
    browser_url: optional(z.string()),
    administrative_url: optional(z.string()),
    birthdate: optional(birthdateSchema(mode)),
    employer: optional(z.string()),
    work_title: optional(z.string()),
    work_department: optional(z.string()),
    employer_address: optional(employerAddressSchema(mode)),
    postal_addresses: optional(primaryList(postalAddressSchema(mode), 'postal_addresses', mode)),
    email_addresses: optional(primaryList(emailAddressSchema(mode), 'email_addresses', mode)),
    phone_numbers: optional(primaryList(phoneNumberSchema(mode), 'phone_numbers', mode)),
    profiles: optional(z.array(profileSchema(mode))),
    custom_fields: optional(customFieldsSchema(mode)),
    division_info: optional(z.array(divisionInfoSchema(mode))),
  };
}

const personSchemas = resourceSchemas(personShape, HELPER_COMPUTED_FIELDS);

/**
 * A person as the SDK reads it from any server: unknown members kept, flexenums and
 * enums open, `possessive` read as `posessive`, phone `primary` strings and numeric
 * phone numbers normalised. This schema is the single source of the {@link Person} type.
 *
 * @example
 * ```ts
 * import { PersonSchema } from 'adis-sdk';
 * const person = PersonSchema.parse(json);
 * console.log(person.given_name, person.email_addresses?.[0]?.address);
 * ```
 */
export const PersonSchema = personSchemas.read;

/**
 * A person as a compliant client sends it and as the reference server accepts it on
 * create and update: closed enums, ISO codes, digit-only phone numbers with the country
 * code, unique arrays, at most one primary address, email and phone, and no unknown
 * members. `null` clears a field on update.
 *
 * @example
 * ```ts
 * import { PersonWriteSchema } from 'adis-sdk';
 * const result = PersonWriteSchema.safeParse({ given_name: 'Ana', phone_numbers: [{ number: '555' }] });
 * result.success; // false: phone_numbers[0].number must be 7 to 15 digits
 * ```
 */
export const PersonWriteSchema = personSchemas.write;

/** A person read from a server. Derived from {@link PersonSchema}. */
export type Person = z.output<typeof PersonSchema>;
/** The fields a client may send to create or update a person. Derived from {@link PersonWriteSchema}. */
export type PersonInput = z.input<typeof PersonWriteSchema>;
/** Postal address of a person, as read. */
export type PostalAddress = NonNullable<Person['postal_addresses']>[number];
/** Email address of a person, as read. */
export type EmailAddress = NonNullable<Person['email_addresses']>[number];
/** Phone number of a person, as read. */
export type PhoneNumber = NonNullable<Person['phone_numbers']>[number];

/**
 * Fields of a person that a client may not set: the server computes them. A PUT that
 * carries them is not an error; the values are ignored.
 */
export const PERSON_READ_ONLY_FIELDS = personSchemas.readOnly;

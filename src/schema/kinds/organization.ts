import * as z from 'zod/mini';
import { contactListFields, languageTags } from '../content-fields.js';
import { commonFields, flexenum, type Mode, optional } from '../fields.js';
import { defineKind, many, one } from '../kind.js';
import { customFieldsSchema, profileSchema } from '../shared.js';
import type { VendorMembers } from '../vendor.js';

/** Common legal statuses the spec lists; any other string is accepted (flexenum). */
const LEGAL_STATUSES = ['llc', 'sole prop', 'c3', 'c4', 'pac', 'unofficial'] as const;
/** The party values the spec lists for an organization, plus a person's `Independent`. */
const PARTY_VALUES = ['None', 'Democratic', 'Republican', 'Independent'] as const;

/**
 * The organization's writable fields as the spec's Organization table lists them
 * ("the service" is `profiles`, READING-NOTES.md).
 */
function organizationShape(mode: Mode) {
  return {
    ...commonFields(mode),
    organization: optional(z.string()),
    legal_status: optional(flexenum(LEGAL_STATUSES)),
    logo_image_url: optional(z.string()),
    site_url: optional(z.string()),
    summary: optional(z.string()),
    description: optional(z.string()),
    party_identification: optional(flexenum(PARTY_VALUES)),
    source: optional(z.string()),
    languages_spoken: optional(languageTags(mode)),
    browser_url: optional(z.string()),
    administrative_url: optional(z.string()),
    ...contactListFields(mode),
    profiles: optional(z.array(profileSchema(mode))),
    custom_fields: optional(customFieldsSchema(mode)),
  };
}

/**
 * The organization kind (the spec marks the resource experimental). Read with `schema`
 * (unknown members kept, flexenums open); sent with `writeSchema` (no unknown plain
 * members, vendor `<prefix>:<name>` members pass); the reference server checks
 * `strictSchema` (unique RFC 5646 `languages_spoken`, the person's rules for addresses,
 * emails and phones). Its collections list the records that link the organization:
 * petitions and events it sponsors, and actions taken by it.
 *
 * @example
 * ```ts
 * import { organizationKind } from 'adis-sdk/schema';
 *
 * organizationKind.writeSchema.parse({
 *   organization: 'SPA',
 *   summary: 'Springfield Parks Alliance',
 *   legal_status: 'c4',
 *   email_addresses: [{ primary: true, address: 'info@parks.example.org' }],
 * });
 * ```
 */
export const organizationKind = defineKind({
  singular: 'organization',
  plural: 'organizations',
  description: 'A political or legal entity that organizes people',
  shape: organizationShape,
  relations: {
    /** The person who last modified the organization (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The events the organization sponsors (`std:events`). */
    events: many('event'),
    /** The petitions the organization sponsors (`std:petitions`). */
    petitions: many('petition'),
    /** Answers to questions linked to the organization (`std:answers`). */
    answers: many('answer'),
    /** Event attendances linked to the organization (`std:attendances`). */
    attendances: many('attendance'),
    /** Petition signatures linked to the organization (`std:signatures`). */
    signatures: many('signature'),
    /** Form submissions linked to the organization (`std:submissions`). */
    submissions: many('submission'),
    /** Donations made by or through the organization (`std:donations`). */
    donations: many('donation'),
    /** Advocacy outreaches linked to the organization (`std:outreaches`). */
    outreaches: many('outreach'),
    /** The taggings that tag the organization (`std:taggings`). */
    taggings: many('tagging'),
    /** List items linked to the organization (`std:items`). */
    items: many('item'),
  },
});

/** An organization as read from a server: the output of `organizationKind.schema`. */
export interface Organization extends z.output<typeof organizationKind.schema> {}
/** What a client sends to create or update an organization: the input of `organizationKind.writeSchema`. */
export interface OrganizationInput
  extends z.input<typeof organizationKind.writeSchema>,
    VendorMembers {}

import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { answerKind } from './answer.js';
import { attendanceKind } from './attendance.js';
import { contactListFields, languageTags } from './content-fields.js';
import { donationKind } from './donation.js';
import { eventKind } from './event.js';
import { commonFields, flexenum, type Mode, optional, resourceSchemas } from './fields.js';
import { itemKind } from './item.js';
import { outreachKind } from './outreach.js';
import { type PersonResource, personKind } from './person-resource.js';
import { petitionKind } from './petition.js';
import { customFieldsSchema, profileSchema } from './shared.js';
import { signatureKind } from './signature.js';
import { submissionKind } from './submission.js';
import { taggingKind } from './tagging.js';

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

const organizationSchemas = resourceSchemas(organizationShape);

/**
 * An organization as the SDK reads it from any server (the spec marks the resource
 * experimental): unknown members kept, flexenums open.
 *
 * @example
 * ```ts
 * import { OrganizationSchema } from 'adis-sdk';
 * const organization = OrganizationSchema.parse(json);
 * console.log(organization.organization, organization.legal_status);
 * ```
 */
export const OrganizationSchema = organizationSchemas.read;

/**
 * An organization as a client sends it and the reference server accepts it: unique
 * RFC 5646 `languages_spoken`, the person's rules for addresses, emails and phones
 * (at most one primary of each, digit-only phone numbers, ISO codes), no unknown
 * members.
 *
 * @example
 * ```ts
 * import { OrganizationWriteSchema } from 'adis-sdk';
 * OrganizationWriteSchema.parse({
 *   organization: 'SPA',
 *   summary: 'Springfield Parks Alliance',
 *   legal_status: 'c4',
 *   email_addresses: [{ primary: true, address: 'info@parks.example.org' }],
 * });
 * ```
 */
export const OrganizationWriteSchema = organizationSchemas.write;

/**
 * Fields of an organization that a client may not set (dates, HAL members).
 *
 * @example
 * ```ts
 * ORGANIZATION_READ_ONLY_FIELDS.includes('modified_date'); // true
 * ```
 */
export const ORGANIZATION_READ_ONLY_FIELDS = organizationSchemas.readOnly;

/** An organization read from a server. Derived from {@link OrganizationSchema}. */
export type Organization = z.output<typeof OrganizationSchema>;
/** The fields a client may send to create or update an organization. Derived from {@link OrganizationWriteSchema}. */
export type OrganizationInput = z.input<typeof OrganizationWriteSchema>;

/**
 * An organization read from a server, with a method per link relation. Its
 * collections list the records that link the organization: petitions and events it
 * sponsors, and actions taken by it.
 *
 * @example
 * ```ts
 * const sponsor = await petition.sponsor();
 * if (sponsor) for await (const event of sponsor.events()) console.log(event.data.title);
 * ```
 */
export class OrganizationResource extends Resource<Organization, OrganizationInput> {
  /**
   * The person who last modified the organization (`std:modified_by`), if the server says.
   *
   * @example
   * ```ts
   * const editor = await organization.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The events the organization sponsors (`std:events`).
   *
   * @example
   * ```ts
   * const upcoming = await organization.events().toArray({ limit: 5 });
   * ```
   */
  events() {
    return this.linkedCollection(eventKind, 'std:events');
  }

  /**
   * The petitions the organization sponsors (`std:petitions`).
   *
   * @example
   * ```ts
   * for await (const petition of organization.petitions()) console.log(petition.data.title);
   * ```
   */
  petitions() {
    return this.linkedCollection(petitionKind, 'std:petitions');
  }

  /**
   * Donations made by or through the organization (`std:donations`).
   *
   * @example
   * ```ts
   * for await (const donation of organization.donations()) console.log(donation.data.amount);
   * ```
   */
  donations() {
    return this.linkedCollection(donationKind, 'std:donations');
  }

  /**
   * Form submissions linked to the organization (`std:submissions`).
   *
   * @example
   * ```ts
   * const count = (await organization.submissions().toArray()).length;
   * ```
   */
  submissions() {
    return this.linkedCollection(submissionKind, 'std:submissions');
  }

  /**
   * Event attendances linked to the organization (`std:attendances`).
   *
   * @example
   * ```ts
   * for await (const attendance of organization.attendances()) console.log(attendance.data.status);
   * ```
   */
  attendances() {
    return this.linkedCollection(attendanceKind, 'std:attendances');
  }

  /**
   * Petition signatures linked to the organization (`std:signatures`).
   *
   * @example
   * ```ts
   * for await (const signature of organization.signatures()) console.log(signature.url);
   * ```
   */
  signatures() {
    return this.linkedCollection(signatureKind, 'std:signatures');
  }

  /**
   * Advocacy outreaches linked to the organization (`std:outreaches`).
   *
   * @example
   * ```ts
   * for await (const outreach of organization.outreaches()) console.log(outreach.data.type);
   * ```
   */
  outreaches() {
    return this.linkedCollection(outreachKind, 'std:outreaches');
  }

  /**
   * Answers to questions linked to the organization (`std:answers`).
   *
   * @example
   * ```ts
   * for await (const answer of organization.answers()) console.log(answer.url);
   * ```
   */
  answers() {
    return this.linkedCollection(answerKind, 'std:answers');
  }

  /**
   * The taggings that tag the organization (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of organization.taggings()) console.log(tagging.url);
   * ```
   */
  taggings() {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }

  /**
   * List items linked to the organization (`std:items`).
   *
   * @example
   * ```ts
   * for await (const item of organization.items()) console.log(item.url);
   * ```
   */
  items() {
    return this.linkedCollection(itemKind, 'std:items');
  }
}

/**
 * The organization kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const organizations = new Collection(context, locate, organizationKind);
 * ```
 */
export const organizationKind: ResourceKind<Organization, OrganizationInput, OrganizationResource> =
  {
    singular: 'organization',
    plural: 'organizations',
    schema: OrganizationSchema,
    writeSchema: OrganizationWriteSchema,
    wrap: (context: NavigatorContext, document: HalDocument) =>
      new OrganizationResource(context, document, organizationKind),
  };

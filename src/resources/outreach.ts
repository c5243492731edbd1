import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { referredActionFields } from './action-fields.js';
import { type AdvocacyCampaignResource, advocacyCampaignKind } from './advocacy-campaign.js';
import { nonNegativeInteger, OUTREACH_TYPES, targetSchema } from './content-fields.js';
import {
  commonFields,
  flexenum,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
  resourceSchemas,
} from './fields.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';

/**
 * The outreach's writable fields as the spec's table lists them. `action_date` is
 * typed "string" but described as a date and time: an ISO 8601 date-time on write,
 * like every action's (`referredActionFields`).
 */
function outreachShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...referredActionFields(mode),
    type: optional(flexenum(OUTREACH_TYPES)),
    // Length of a phone call, in seconds.
    duration: optional(nonNegativeInteger(mode)),
    subject: optional(z.string()),
    message: optional(z.string()),
    notes: optional(z.string()),
    targets: optional(z.array(targetSchema(mode))),
  };
}

const outreachSchemas = resourceSchemas(outreachShape, HELPER_COMPUTED_FIELDS);

/**
 * An outreach (a call, email, letter or visit made in an advocacy campaign) as the SDK
 * reads it from any server: unknown members kept, `type` open, `duration` read from a
 * numeric string.
 *
 * @example
 * ```ts
 * import { OutreachSchema } from 'adis-sdk';
 * const outreach = OutreachSchema.parse(json);
 * console.log(outreach.type, outreach.duration, outreach.targets?.[0]?.family_name);
 * ```
 */
export const OutreachSchema = outreachSchemas.read;

/**
 * An outreach as a client sends it and the reference server accepts it: `action_date`
 * an ISO 8601 date-time with an offset, `duration` whole seconds (at least 0), targets
 * with the person's rules for addresses, emails and phones, no unknown members.
 *
 * @example
 * ```ts
 * import { OutreachWriteSchema } from 'adis-sdk';
 * OutreachWriteSchema.parse({
 *   action_date: '2026-03-02T15:04:00Z',
 *   type: 'phone',
 *   duration: 95,
 *   notes: 'Staffer said the senator is undecided.',
 *   targets: [{ title: 'Senator', family_name: 'Lopez' }],
 * });
 * ```
 */
export const OutreachWriteSchema = outreachSchemas.write;

/**
 * Fields of an outreach that a client may not set (dates, HAL members).
 *
 * @example
 * ```ts
 * OUTREACH_READ_ONLY_FIELDS.includes('created_date'); // true
 * ```
 */
export const OUTREACH_READ_ONLY_FIELDS = outreachSchemas.readOnly;

/** An outreach read from a server. Derived from {@link OutreachSchema}. */
export type Outreach = z.output<typeof OutreachSchema>;
/** The fields a client may send to create or update an outreach. Derived from {@link OutreachWriteSchema}. */
export type OutreachInput = z.input<typeof OutreachWriteSchema>;

/**
 * An outreach read from a server, with a method per link relation.
 *
 * @example
 * ```ts
 * for await (const outreach of campaign.outreaches()) {
 *   const caller = await outreach.person();
 *   console.log(caller.data.given_name, outreach.data.duration);
 * }
 * ```
 */
export class OutreachResource extends Resource<Outreach, OutreachInput> {
  /**
   * The person who made the outreach (`std:person`); the server always links it.
   *
   * @example
   * ```ts
   * const caller = await outreach.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource> {
    return this.linkedResource(personKind, 'std:person', options);
  }

  /**
   * The campaign the outreach belongs to (`std:advocacy_campaign`); always linked.
   *
   * @example
   * ```ts
   * const campaign = await outreach.advocacyCampaign();
   * console.log(campaign.data.title);
   * ```
   */
  advocacyCampaign(options?: CallOptions): Promise<AdvocacyCampaignResource> {
    return this.linkedResource(advocacyCampaignKind, 'std:advocacy_campaign', options);
  }

  /**
   * The organization that made the outreach (`std:organization`), if any.
   *
   * @example
   * ```ts
   * const organization = await outreach.organization();
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }
}

/**
 * The outreach kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const outreaches = new Collection(context, locate, outreachKind);
 * ```
 */
export const outreachKind: ResourceKind<Outreach, OutreachInput, OutreachResource> = {
  singular: 'outreach',
  plural: 'outreaches',
  schema: OutreachSchema,
  writeSchema: OutreachWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new OutreachResource(context, document, outreachKind),
};

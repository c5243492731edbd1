import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import { RecordOutreachBodySchema, type RecordOutreachInput } from '../helpers/bodies.js';
import type { HelperOptions } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import {
  contentFields,
  OUTREACH_TYPES,
  SHARING_TOTALS,
  sharingFields,
  targetSchema,
} from './content-fields.js';
import { commonFields, flexenum, integer, type Mode, optional, resourceSchemas } from './fields.js';
import { type OutreachResource, outreachKind } from './outreach.js';
import { type PersonResource, personKind } from './person-resource.js';

/** The advocacy campaign's writable fields as the spec's table lists them. */
function advocacyCampaignShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(),
    // Call scripts or letter templates, text and/or HTML.
    templates: optional(z.array(z.string())),
    // A human-readable description of the target universe ("all state senators");
    // the targets themselves are in target_list.
    targets: optional(z.string()),
    target_list: optional(z.array(targetSchema(mode))),
    type: optional(flexenum(OUTREACH_TYPES)),
    ...sharingFields(mode),
  };
}

const advocacyCampaignSchemas = resourceSchemas(advocacyCampaignShape, {
  total_outreaches: optional(integer('read')),
  ...SHARING_TOTALS,
});

/**
 * An advocacy campaign as the SDK reads it from any server: unknown members kept,
 * `type` open, counts read from numeric strings.
 *
 * @example
 * ```ts
 * import { AdvocacyCampaignSchema } from 'adis-sdk';
 * const campaign = AdvocacyCampaignSchema.parse(json);
 * console.log(campaign.targets, campaign.target_list?.length, campaign.total_outreaches);
 * ```
 */
export const AdvocacyCampaignSchema = advocacyCampaignSchemas.read;

/**
 * An advocacy campaign as a client sends it and the reference server accepts it:
 * targets with the person's rules for addresses, emails and phones, no unknown
 * members. `total_outreaches` and `total_shares` are computed: accepted and ignored.
 *
 * @example
 * ```ts
 * import { AdvocacyCampaignWriteSchema } from 'adis-sdk';
 * AdvocacyCampaignWriteSchema.parse({
 *   title: 'Call your senator about the parks bill',
 *   type: 'phone',
 *   templates: ['Hello, my name is {given_name} and I support SB 12.'],
 *   targets: 'Illinois state senators',
 *   target_list: [{ title: 'Senator', family_name: 'Lopez', phone_numbers: [{ number: '12175550100' }] }],
 * });
 * ```
 */
export const AdvocacyCampaignWriteSchema = advocacyCampaignSchemas.write;

/**
 * Fields of an advocacy campaign that a client may not set (dates, totals, HAL members).
 *
 * @example
 * ```ts
 * ADVOCACY_CAMPAIGN_READ_ONLY_FIELDS.includes('total_outreaches'); // true
 * ```
 */
export const ADVOCACY_CAMPAIGN_READ_ONLY_FIELDS = advocacyCampaignSchemas.readOnly;

/** An advocacy campaign read from a server. Derived from {@link AdvocacyCampaignSchema}. */
export type AdvocacyCampaign = z.output<typeof AdvocacyCampaignSchema>;
/** The fields a client may send to create or update an advocacy campaign. Derived from {@link AdvocacyCampaignWriteSchema}. */
export type AdvocacyCampaignInput = z.input<typeof AdvocacyCampaignWriteSchema>;
/** A target of an advocacy campaign or an outreach, as read. */
export type Target = NonNullable<AdvocacyCampaign['target_list']>[number];

/**
 * An advocacy campaign read from a server, with a method per link relation.
 *
 * @example
 * ```ts
 * const campaign = await client.advocacyCampaigns.get(url);
 * for await (const outreach of campaign.outreaches()) console.log(outreach.data.type);
 * ```
 */
export class AdvocacyCampaignResource extends Resource<AdvocacyCampaign, AdvocacyCampaignInput> {
  /**
   * The person who created the campaign (`std:creator`), if the server links one.
   *
   * @example
   * ```ts
   * const organizer = await campaign.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last modified the campaign (`std:modified_by`), if the server says.
   *
   * @example
   * ```ts
   * const editor = await campaign.modifiedBy();
   * console.log(editor?.data.given_name);
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The outreaches made in the campaign (`std:outreaches`).
   *
   * @example
   * ```ts
   * const calls = await campaign.outreaches().toArray({ limit: 100 });
   * ```
   */
  outreaches() {
    return this.linkedCollection(outreachKind, 'std:outreaches');
  }

  /**
   * Records an outreach of this campaign (a call or an email to a target) through its
   * `std:record_outreach_helper`: the person who reached out is created or matched and
   * updated, and the action functions are applied. Checked first; resolves with the
   * outreach and the person, `complete: false` when an action function failed; an
   * atomic error rejects with an HTTPError. `authenticate: false` sends no key.
   *
   * @example
   * ```ts
   * const { record } = await campaign.recordOutreach({
   *   type: 'phone',
   *   duration: 180,
   *   targets: [{ given_name: 'Sam', family_name: 'Ruiz' }],
   *   person: { given_name: 'Ana' },
   * });
   * console.log(record?.data.duration);
   * ```
   */
  recordOutreach(
    input: RecordOutreachInput,
    options?: HelperOptions,
  ): Promise<HelperResult<OutreachResource, PersonResource>> {
    return this.callHelper(
      'std:record_outreach_helper',
      RecordOutreachBodySchema,
      input,
      { record: outreachKind, person: personKind },
      options,
    );
  }
}

/**
 * The advocacy campaign kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const campaigns = new Collection(context, locate, advocacyCampaignKind);
 * ```
 */
export const advocacyCampaignKind: ResourceKind<
  AdvocacyCampaign,
  AdvocacyCampaignInput,
  AdvocacyCampaignResource
> = {
  singular: 'advocacy_campaign',
  plural: 'advocacy_campaigns',
  schema: AdvocacyCampaignSchema,
  writeSchema: AdvocacyCampaignWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new AdvocacyCampaignResource(context, document, advocacyCampaignKind),
};

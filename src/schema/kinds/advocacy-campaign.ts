import * as z from 'zod/mini';
import {
  contentFields,
  OUTREACH_TYPES,
  SHARING_TOTALS,
  sharingFields,
  targetSchema,
} from '../content-fields.js';
import { commonFields, flexenum, integer, type Mode, optional } from '../fields.js';
import { defineKind, many, one, recordHelper } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/** The advocacy campaign's writable fields as the spec's table lists them. */
function advocacyCampaignShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(mode),
    // Call scripts or letter templates, text and/or HTML.
    templates: optional(z.array(z.string())),
    // A human-readable description of the target universe ("all state senators");
    // the targets themselves are in target_list. Action Network puts them here instead:
    // read, written and taken under its preset (extended), refused by strict.
    targets: optional(
      mode === 'strict' ? z.string() : z.union([z.string(), z.array(targetSchema(mode))]),
    ),
    target_list: optional(z.array(targetSchema(mode))),
    type: optional(flexenum(OUTREACH_TYPES)),
    ...sharingFields(mode),
  };
}

/**
 * The advocacy campaign kind: a campaign people take part in by reaching out to its
 * targets. Read with `schema` (unknown members kept, `type` open, counts read from
 * numeric strings); sent with `writeSchema` (member names and JSON types: no unknown
 * plain members, vendor `<prefix>:<name>` members pass; `total_outreaches` and
 * `total_shares` are computed by the server and ignored when sent back); the reference
 * server checks `strictSchema` (targets with the person's rules for addresses, emails
 * and phones; `targets` a description, as the spec has it). `targets` may also be
 * Action Network's array of Target objects: kept as read, written back as it came.
 *
 * @example
 * ```ts
 * import { advocacyCampaignKind } from 'adis-sdk/schema';
 *
 * advocacyCampaignKind.writeSchema.parse({
 *   title: 'Call your senator about the parks bill',
 *   type: 'phone',
 *   templates: ['Hello, my name is {given_name} and I support SB 12.'],
 *   targets: 'Illinois state senators',
 *   target_list: [{ title: 'Senator', family_name: 'Lopez', phone_numbers: [{ number: '12175550100' }] }],
 * });
 * ```
 */
export const advocacyCampaignKind = defineKind({
  singular: 'advocacy_campaign',
  plural: 'advocacy_campaigns',
  description: 'A campaign people take part in by reaching out to its targets',
  shape: advocacyCampaignShape,
  computed: { total_outreaches: optional(integer('read')), ...SHARING_TOTALS },
  relations: {
    /** The person who created the campaign (`std:creator`), if the server links one. */
    creator: one('person'),
    /** The person who last modified the campaign (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The outreaches made in the campaign (`std:outreaches`). */
    outreaches: many('outreach'),
  },
  helpers: {
    /**
     * Records an outreach of this campaign (a call or an email to a target) through its
     * `std:record_outreach_helper`: the person who reached out is created or matched and
     * updated, and the action functions are applied. Checked first; resolves with the
     * outreach and the person, `complete: false` when an action function failed; an
     * atomic error rejects with an HTTPError. `authenticate: false` sends no key.
     */
    recordOutreach: recordHelper('record_outreach_helper', 'recordOutreach', 'outreach', {
      anonymous: true,
    }),
  },
});

/** An advocacy campaign as read from a server: the output of `advocacyCampaignKind.schema`. */
export interface AdvocacyCampaign extends z.output<typeof advocacyCampaignKind.schema> {}
/** What a client sends to create or update an advocacy campaign: the input of `advocacyCampaignKind.writeSchema`. */
export interface AdvocacyCampaignInput
  extends z.input<typeof advocacyCampaignKind.writeSchema>,
    VendorMembers {}
/** A target of an advocacy campaign or an outreach, as read. */
export type Target = NonNullable<AdvocacyCampaign['target_list']>[number];

import * as z from 'zod/mini';
import { referredActionFields } from '../action-fields.js';
import { nonNegativeInteger, OUTREACH_TYPES, targetSchema } from '../content-fields.js';
import { commonFields, flexenum, HELPER_COMPUTED_FIELDS, type Mode, optional } from '../fields.js';
import { defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The outreach's writable fields as the spec's table lists them. `action_date` is
 * typed "string" but described as a date and time: an ISO 8601 date-time for the
 * reference server, like every action's (`referredActionFields`).
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

/**
 * The outreach kind: a call, email, letter or visit made in an advocacy campaign. Read
 * with `schema` (unknown members kept, `type` open, `duration` read from a numeric
 * string); sent with `writeSchema` (`duration` a number, no unknown plain members,
 * vendor `<prefix>:<name>` members pass); the reference server checks `strictSchema`
 * (`action_date` an ISO 8601 date-time with an offset, `duration` whole seconds, at
 * least 0, targets with the person's rules for addresses, emails and phones).
 *
 * @example
 * ```ts
 * import { outreachKind } from 'adis-sdk/schema';
 *
 * outreachKind.writeSchema.parse({
 *   action_date: '2026-03-02T15:04:00Z',
 *   type: 'phone',
 *   duration: 95,
 *   notes: 'Staffer said the senator is undecided.',
 *   targets: [{ title: 'Senator', family_name: 'Lopez' }],
 * });
 * ```
 */
export const outreachKind = defineKind({
  singular: 'outreach',
  plural: 'outreaches',
  description: 'An action in an advocacy campaign',
  shape: outreachShape,
  computed: HELPER_COMPUTED_FIELDS,
  relations: {
    /** The person who made the outreach (`std:person`); the server always links it. */
    person: one('person', { required: true }),
    /** The campaign the outreach belongs to (`std:advocacy_campaign`); always linked. */
    advocacyCampaign: one('advocacy_campaign', { required: true }),
    /** The organization that made the outreach (`std:organization`), if any. */
    organization: one('organization'),
  },
});

/** An outreach as read from a server: the output of `outreachKind.schema`. */
export interface Outreach extends z.output<typeof outreachKind.schema> {}
/** What a client sends to create or update an outreach: the input of `outreachKind.writeSchema`. */
export interface OutreachInput extends z.input<typeof outreachKind.writeSchema>, VendorMembers {}

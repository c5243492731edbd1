import * as z from 'zod/mini';
import { actionFields } from '../action-fields.js';
import { bool, commonFields, HELPER_COMPUTED_FIELDS, type Mode, optional } from '../fields.js';
import { defineKind, many, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The canvass's fields: those of the Record Canvass Helper's `canvass` object, less the
 * canvasser (linked as `std:canvasser`) and the question response (stored as the
 * answers it creates, which link the canvass). `contact_type`, `input_type` and
 * `status_code` are codes of the metadata lists (`canvass_contact_types`,
 * `canvass_input_types`, `canvass_response_codes`); the server checks them against
 * its lists, the schema only that they are strings.
 */
function canvassShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...actionFields(mode),
    contact_type: optional(z.string()),
    input_type: optional(z.string()),
    success: optional(bool(mode)),
    status_code: optional(z.string()),
  };
}

/** The canvass kind as declared: its strict schema gets the success rule below. */
/**
 * The canvass kind: one attempt to contact a person. Read with `schema` (unknown members
 * kept, `success` as a boolean or `"true"`/`"false"`); sent with `writeSchema`
 * (`success` a boolean, no unknown plain members, vendor `<prefix>:<name>` members
 * pass); the reference server checks `strictSchema` (when both are sent, `success`
 * agreeing with `status_code`, a custom issue at `status_code` otherwise: the spec says
 * an empty or missing status code means the contact was successful).
 *
 * @example
 * ```ts
 * import { canvassKind } from 'adis-sdk/schema';
 *
 * canvassKind.schema.parse({ success: 'false', status_code: 'not_home' }).success; // false
 * canvassKind.writeSchema.safeParse({ success: true, status_code: 'not_home' }).success; // true
 * canvassKind.strictSchema.safeParse({ success: true, status_code: 'not_home' }).success; // false
 * canvassKind.strictSchema.safeParse({ success: false, status_code: 'not_home' }).success; // true
 * ```
 */
export const canvassKind = defineKind({
  singular: 'canvass',
  plural: 'canvasses',
  description: 'One attempt to contact a person, and what came of it',
  shape: canvassShape,
  computed: HELPER_COMPUTED_FIELDS,
  relations: {
    /** The person canvassed (`std:target`). */
    target: one('person', { required: true }),
    /** The person who made the contact (`std:canvasser`), when the server knows. */
    canvasser: one('person'),
    /** The answers given during the canvass (`std:answers`). */
    answers: many('answer'),
    /** The tags applied during the canvass (`std:taggings`). */
    taggings: many('tagging'),
  },
  check: (canvass, ctx) => {
    // Read defensively: the rule also runs when other members failed their own checks.
    const { success, status_code: status } = canvass;
    if (typeof success !== 'boolean' || (status !== null && typeof status !== 'string')) return;
    if (!status === success) return;
    ctx.addIssue({
      code: 'custom',
      message: success
        ? 'a successful canvass has no status_code; leave it out or empty'
        : 'an unsuccessful canvass needs a status_code saying why',
      path: ['status_code'],
    });
  },
});

/** A canvass as read from a server: the output of `canvassKind.schema`. */
export interface Canvass extends z.output<typeof canvassKind.schema> {}
/** What a client sends to create or update a canvass: the input of `canvassKind.writeSchema`. */
export interface CanvassInput extends z.input<typeof canvassKind.writeSchema>, VendorMembers {}

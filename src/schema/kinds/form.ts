import * as z from 'zod/mini';
import { contentFields, SHARING_TOTALS, sharingFields } from '../content-fields.js';
import { commonFields, integer, type Mode, optional } from '../fields.js';
import { defineKind, many, one, recordHelper } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/** The form's writable fields as the spec lists them (content fields "as in Petition"). */
function formShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(mode),
    call_to_action: optional(z.string()),
    ...sharingFields(mode),
  };
}

/**
 * The form kind: a page, survey or interaction people submit. Read with `schema`
 * (unknown members kept, counts read from numeric strings); sent with `writeSchema`
 * (no unknown plain members, vendor `<prefix>:<name>` members pass; `total_submissions`
 * and `total_shares` are computed by the server and ignored when sent back).
 *
 * @example
 * ```ts
 * import { formKind } from 'adis-sdk/schema';
 *
 * formKind.writeSchema.parse({ title: 'Volunteer with us', call_to_action: 'Sign up' });
 * ```
 */
export const formKind = defineKind({
  singular: 'form',
  plural: 'forms',
  description: 'A page, survey or interaction a user takes part in by submitting information',
  shape: formShape,
  computed: { total_submissions: optional(integer('read')), ...SHARING_TOTALS },
  relations: {
    /** The person who created the form (`std:creator`), if the server links one. */
    creator: one('person'),
    /** The person who last modified the form (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The form's submissions (`std:submissions`). */
    submissions: many('submission'),
    /** The taggings that tag the form (`std:taggings`). */
    taggings: many('tagging'),
  },
  helpers: {
    /**
     * Records a submission of this form through its `std:record_submission_helper` (a
     * key is needed): the submitter (`person`) is created or matched and updated, and
     * the action functions are applied. Checked first; resolves with the submission and
     * the person, `complete: false` when an action function failed; an atomic error
     * rejects with an HTTPError.
     */
    recordSubmission: recordHelper('record_submission_helper', 'recordSubmission', 'submission'),
  },
});

/** A form as read from a server: the output of `formKind.schema`. */
export interface Form extends z.output<typeof formKind.schema> {}
/** What a client sends to create or update a form: the input of `formKind.writeSchema`. */
export interface FormInput extends z.input<typeof formKind.writeSchema>, VendorMembers {}

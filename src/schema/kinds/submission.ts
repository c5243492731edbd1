import type * as z from 'zod/mini';
import { referredActionFields } from '../action-fields.js';
import { commonFields, HELPER_COMPUTED_FIELDS, type Mode, optional } from '../fields.js';
import { defineKind, one } from '../kind.js';
import { customFieldsSchema } from '../shared.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The submission's fields. The spec shows none; these are the action fields every
 * action record has, plus `custom_fields` for the answers to form fields that belong to
 * this submission rather than to the person (a t-shirt size, "how did you hear about
 * us"). Answers to defined questions are Answer records, and person fields go on the
 * person.
 */
function submissionShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...referredActionFields(mode),
    custom_fields: optional(customFieldsSchema(mode)),
  };
}

/**
 * The submission kind: a person's submission of a form. Read with `schema` (unknown
 * members kept); sent with `writeSchema` (on create, with `_links['std:person']`; no
 * unknown plain members, vendor `<prefix>:<name>` members pass); the reference server
 * checks `strictSchema` (`action_date` an ISO 8601 date-time, custom field values
 * strings).
 *
 * @example
 * ```ts
 * import { submissionKind } from 'adis-sdk/schema';
 *
 * const json: unknown = await (await fetch('https://api.example.org/api/v1/forms/1/submissions/1')).json();
 * const data = submissionKind.schema.parse(json);
 * console.log(data.action_date, data.custom_fields?.shirt_size);
 * ```
 */
export const submissionKind = defineKind({
  singular: 'submission',
  plural: 'submissions',
  description: 'A submission of a form by a person',
  shape: submissionShape,
  computed: HELPER_COMPUTED_FIELDS,
  relations: {
    /** The person who submitted the form (`std:person`). */
    person: one('person', { required: true }),
    /** The form submitted (`std:form`). */
    form: one('form', { required: true }),
    /**
     * The organization that submitted the form, when an organization took the action
     * (`std:organization`); undefined otherwise.
     */
    organization: one('organization'),
  },
});

/** A submission as read from a server: the output of `submissionKind.schema`. */
export interface Submission extends z.output<typeof submissionKind.schema> {}
/** What a client sends to create or update a submission: the input of `submissionKind.writeSchema`. */
export interface SubmissionInput
  extends z.input<typeof submissionKind.writeSchema>,
    VendorMembers {}

import type * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { referredActionFields } from './action-fields.js';
import {
  commonFields,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
  resourceSchemas,
} from './fields.js';
import { type FormResource, formKind } from './form.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';
import { customFieldsSchema } from './shared.js';

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

const submissionSchemas = resourceSchemas(submissionShape, HELPER_COMPUTED_FIELDS);

/**
 * A form submission as the SDK reads it from any server: unknown members kept.
 *
 * @example
 * ```ts
 * import { SubmissionSchema } from 'adis-sdk';
 * const submission = SubmissionSchema.parse(json);
 * console.log(submission.action_date, submission.custom_fields?.shirt_size);
 * ```
 */
export const SubmissionSchema = submissionSchemas.read;

/**
 * A submission as a client sends it on create (with `_links['std:person']`) and update:
 * `action_date` an ISO 8601 date-time, custom field values strings, no unknown members.
 *
 * @example
 * ```ts
 * import { SubmissionWriteSchema } from 'adis-sdk';
 * SubmissionWriteSchema.parse({
 *   action_date: '2026-03-01T10:00:00Z',
 *   custom_fields: { shirt_size: 'M' },
 *   _links: { 'std:person': { href: person.url } },
 * });
 * ```
 */
export const SubmissionWriteSchema = submissionSchemas.write;

/**
 * Members of a submission the server owns: ignored on create and update.
 *
 * @example
 * ```ts
 * SUBMISSION_READ_ONLY_FIELDS.includes('modified_date'); // true
 * ```
 */
export const SUBMISSION_READ_ONLY_FIELDS = submissionSchemas.readOnly;

/**
 * A submission read from a server. Derived from {@link SubmissionSchema}.
 *
 * @example
 * ```ts
 * const when: Submission['action_date'] = submission.data.action_date;
 * ```
 */
export type Submission = z.output<typeof SubmissionSchema>;

/**
 * What a client sends to create or update a submission. Derived from
 * {@link SubmissionWriteSchema}.
 *
 * @example
 * ```ts
 * const input: SubmissionInput = { origin_system: 'Signup kiosk', _links: { 'std:person': linkTo(person) } };
 * ```
 */
export type SubmissionInput = z.input<typeof SubmissionWriteSchema>;

/**
 * A form submission read from a server, with a method per link relation of a
 * submission.
 *
 * @example
 * ```ts
 * for await (const submission of form.submissions()) {
 *   console.log((await submission.person()).primaryEmail);
 * }
 * ```
 */
export class SubmissionResource extends Resource<Submission, SubmissionInput> {
  /**
   * The person who submitted the form (`std:person`).
   *
   * @example
   * ```ts
   * const submitter = await submission.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource> {
    return this.linkedResource(personKind, 'std:person', options);
  }

  /**
   * The form submitted (`std:form`).
   *
   * @example
   * ```ts
   * console.log((await submission.form()).data.title);
   * ```
   */
  form(options?: CallOptions): Promise<FormResource> {
    return this.linkedResource(formKind, 'std:form', options);
  }

  /**
   * The organization that submitted the form, when an organization took the action
   * (`std:organization`); undefined otherwise.
   *
   * @example
   * ```ts
   * const org = await submission.organization();
   * if (org) console.log(org.data.organization);
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }
}

/**
 * The submission kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const submissions = new Collection(context, locate, submissionKind);
 * ```
 */
export const submissionKind: ResourceKind<Submission, SubmissionInput, SubmissionResource> = {
  singular: 'submission',
  plural: 'submissions',
  schema: SubmissionSchema,
  writeSchema: SubmissionWriteSchema,
  wrap: (context, document) => new SubmissionResource(context, document, submissionKind),
};

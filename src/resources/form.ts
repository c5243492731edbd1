import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import { RecordSubmissionBodySchema, type RecordSubmissionInput } from '../helpers/bodies.js';
import type { HelperOptions } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { contentFields, SHARING_TOTALS, sharingFields } from './content-fields.js';
import { commonFields, integer, type Mode, optional, resourceSchemas } from './fields.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type SubmissionResource, submissionKind } from './submission.js';
import { taggingKind } from './tagging.js';

/** The form's writable fields as the spec lists them (content fields "as in Petition"). */
function formShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(),
    call_to_action: optional(z.string()),
    ...sharingFields(mode),
  };
}

const formSchemas = resourceSchemas(formShape, {
  total_submissions: optional(integer('read')),
  ...SHARING_TOTALS,
});

/**
 * A form (a page, survey or interaction people submit) as the SDK reads it from any
 * server: unknown members kept, counts read from numeric strings.
 *
 * @example
 * ```ts
 * import { FormSchema } from 'adis-sdk';
 * const form = FormSchema.parse(json);
 * console.log(form.call_to_action, form.total_submissions);
 * ```
 */
export const FormSchema = formSchemas.read;

/**
 * A form as a client sends it and the reference server accepts it. The totals
 * (`total_submissions`, `total_shares`) are computed: accepted and ignored.
 *
 * @example
 * ```ts
 * import { FormWriteSchema } from 'adis-sdk';
 * FormWriteSchema.parse({ title: 'Volunteer with us', call_to_action: 'Sign up' });
 * ```
 */
export const FormWriteSchema = formSchemas.write;

/**
 * Fields of a form that a client may not set (dates, totals, HAL members).
 *
 * @example
 * ```ts
 * FORM_READ_ONLY_FIELDS.includes('total_submissions'); // true
 * ```
 */
export const FORM_READ_ONLY_FIELDS = formSchemas.readOnly;

/** A form read from a server. Derived from {@link FormSchema}. */
export type Form = z.output<typeof FormSchema>;
/** The fields a client may send to create or update a form. Derived from {@link FormWriteSchema}. */
export type FormInput = z.input<typeof FormWriteSchema>;

/**
 * A form read from a server, with a method per link relation of a form.
 *
 * @example
 * ```ts
 * const form = await client.forms.get(url);
 * for await (const submission of form.submissions()) console.log(submission.url);
 * ```
 */
export class FormResource extends Resource<Form, FormInput> {
  /**
   * The person who created the form (`std:creator`), if the server links one.
   *
   * @example
   * ```ts
   * const creator = await form.creator();
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last modified the form (`std:modified_by`), if the server says.
   *
   * @example
   * ```ts
   * const editor = await form.modifiedBy();
   * console.log(editor?.primaryEmail);
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The form's submissions (`std:submissions`).
   *
   * @example
   * ```ts
   * const recent = await form.submissions().toArray({ limit: 20 });
   * ```
   */
  submissions() {
    return this.linkedCollection(submissionKind, 'std:submissions');
  }

  /**
   * The taggings that tag the form (`std:taggings`).
   *
   * @example
   * ```ts
   * for await (const tagging of form.taggings()) console.log(tagging.url);
   * ```
   */
  taggings() {
    return this.linkedCollection(taggingKind, 'std:taggings');
  }

  /**
   * Records a submission of this form through its `std:record_submission_helper` (a
   * key is needed): the submitter (`person`) is created or matched and updated, and
   * the action functions are applied. Checked first; resolves with the submission and
   * the person, `complete: false` when an action function failed; an atomic error
   * rejects with an HTTPError.
   *
   * @example
   * ```ts
   * const { record, person } = await form.recordSubmission({
   *   custom_fields: { t_shirt: 'M' },
   *   person: { given_name: 'Ana' },
   *   add_lists: ['Volunteers'],
   * });
   * ```
   */
  recordSubmission(
    input: RecordSubmissionInput,
    options?: HelperOptions,
  ): Promise<HelperResult<SubmissionResource, PersonResource>> {
    return this.callHelper(
      'std:record_submission_helper',
      RecordSubmissionBodySchema,
      input,
      { record: submissionKind, person: personKind },
      options,
    );
  }
}

/**
 * The form kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const forms = new Collection(context, locate, formKind);
 * ```
 */
export const formKind: ResourceKind<Form, FormInput, FormResource> = {
  singular: 'form',
  plural: 'forms',
  schema: FormSchema,
  writeSchema: FormWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new FormResource(context, document, formKind),
};

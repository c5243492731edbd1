import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { actionFields } from './action-fields.js';
import { type CanvassResource, canvassKind } from './canvass.js';
import { commonFields, type Mode, optional, resourceSchemas, uniqueStrings } from './fields.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';
import { type QuestionResource, questionKind } from './question.js';

/**
 * The answer's fields: those of a question response in the helpers
 * (`add_questions_responses_uri`, a canvass's `question_response`), less the question,
 * which a stored answer links as `std:question`. Whether the responses fit the
 * question (keys it defines, one for SingleChoice, none for Paragraph) depends on the
 * question, so the server checks it; the schema checks shapes only.
 */
function answerShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...actionFields(mode),
    /** Free text: the answer to a Paragraph question, or the text of an 'Other'. */
    value: optional(z.string()),
    /** Keys of the chosen responses of a SingleChoice or MultiChoice question. */
    responses: optional(uniqueStrings(mode)),
  };
}

const answerSchemas = resourceSchemas(answerShape);

/**
 * An answer to a question as the SDK reads it from any server: unknown members kept.
 *
 * @example
 * ```ts
 * import { AnswerSchema } from 'adis-sdk';
 * const answer = AnswerSchema.parse({ responses: ['yes'] });
 * answer.responses; // ['yes']
 * ```
 */
export const AnswerSchema = answerSchemas.read;

/**
 * An answer as a client sends it on create (with `_links['std:person']`) and update:
 * `responses` unique strings, no unknown members.
 *
 * @example
 * ```ts
 * import { AnswerWriteSchema } from 'adis-sdk';
 * AnswerWriteSchema.safeParse({ responses: ['yes', 'yes'] }).success; // false
 * ```
 */
export const AnswerWriteSchema = answerSchemas.write;

/**
 * Members of an answer the server owns: ignored on create and update.
 *
 * @example
 * ```ts
 * ANSWER_READ_ONLY_FIELDS.includes('created_date'); // true
 * ```
 */
export const ANSWER_READ_ONLY_FIELDS = answerSchemas.readOnly;

/**
 * An answer read from a server. Derived from {@link AnswerSchema}.
 *
 * @example
 * ```ts
 * const text: Answer['value'] = answer.data.value;
 * ```
 */
export type Answer = z.output<typeof AnswerSchema>;

/**
 * What a client sends to create or update an answer. Derived from
 * {@link AnswerWriteSchema}.
 *
 * @example
 * ```ts
 * const input: AnswerInput = { value: 'More bike lanes', _links: { 'std:person': linkTo(person) } };
 * ```
 */
export type AnswerInput = z.input<typeof AnswerWriteSchema>;

/**
 * An answer read from a server, with a method per link relation of an answer.
 *
 * @example
 * ```ts
 * for await (const answer of question.answers()) {
 *   console.log(answer.data.responses ?? answer.data.value);
 * }
 * ```
 */
export class AnswerResource extends Resource<Answer, AnswerInput> {
  /**
   * The person who answered (`std:person`).
   *
   * @example
   * ```ts
   * const respondent = await answer.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource> {
    return this.linkedResource(personKind, 'std:person', options);
  }

  /**
   * The question answered (`std:question`).
   *
   * @example
   * ```ts
   * const question = await answer.question();
   * const chosen = question.data.responses?.filter((r) => answer.data.responses?.includes(r.key ?? ''));
   * ```
   */
  question(options?: CallOptions): Promise<QuestionResource> {
    return this.linkedResource(questionKind, 'std:question', options);
  }

  /**
   * The canvass during which the answer was given (`std:canvass`); undefined for an
   * answer recorded otherwise.
   *
   * @example
   * ```ts
   * const canvass = await answer.canvass();
   * console.log(canvass?.data.contact_type);
   * ```
   */
  canvass(options?: CallOptions): Promise<CanvassResource | undefined> {
    return this.optionalLinkedResource(canvassKind, 'std:canvass', options);
  }

  /**
   * The organization that answered, when an organization took the action
   * (`std:organization`); undefined otherwise.
   *
   * @example
   * ```ts
   * const respondingOrg = await answer.organization();
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }
}

/**
 * The answer kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const answers = new Collection(context, locate, answerKind);
 * ```
 */
export const answerKind: ResourceKind<Answer, AnswerInput, AnswerResource> = {
  singular: 'answer',
  plural: 'answers',
  schema: AnswerSchema,
  writeSchema: AnswerWriteSchema,
  wrap: (context, document) => new AnswerResource(context, document, answerKind),
};

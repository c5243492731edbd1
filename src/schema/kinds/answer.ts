import * as z from 'zod/mini';
import { actionFields } from '../action-fields.js';
import { commonFields, type Mode, optional, uniqueStrings } from '../fields.js';
import { defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

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

/**
 * The answer kind: a person's answer to a question. Read with `schema` (unknown members
 * kept); sent with `writeSchema` (on create, with `_links['std:person']`; `responses`
 * strings, no unknown plain members, vendor `<prefix>:<name>` members pass); the
 * reference server checks `strictSchema` (`responses` unique).
 *
 * @example
 * ```ts
 * import { answerKind } from 'adis-sdk/schema';
 *
 * answerKind.schema.parse({ responses: ['yes'] }).responses; // ['yes']
 * const twice = { responses: ['yes', 'yes'] };
 * answerKind.writeSchema.safeParse(twice).success; // true: the server decides
 * answerKind.strictSchema.safeParse(twice).success; // false
 * ```
 */
export const answerKind = defineKind({
  singular: 'answer',
  plural: 'answers',
  description: "A person's answer to a question",
  shape: answerShape,
  relations: {
    /** The person who answered (`std:person`). */
    person: one('person', { required: true }),
    /** The question answered (`std:question`). */
    question: one('question', { required: true }),
    /**
     * The canvass during which the answer was given (`std:canvass`); undefined for an
     * answer recorded otherwise.
     */
    canvass: one('canvass'),
    /**
     * The organization that answered, when an organization took the action
     * (`std:organization`); undefined otherwise.
     */
    organization: one('organization'),
  },
});

/** An answer as read from a server: the output of `answerKind.schema`. */
export interface Answer extends z.output<typeof answerKind.schema> {}
/** What a client sends to create or update an answer: the input of `answerKind.writeSchema`. */
export interface AnswerInput extends z.input<typeof answerKind.writeSchema>, VendorMembers {}

import * as z from 'zod/mini';
import { describedFields, questionResponseSchema } from '../content-fields.js';
import { commonFields, enumeration, type Mode, optional } from '../fields.js';
import { defineKind, many, one } from '../kind.js';
import { addRuleIssue, RuleCode, type RuleIssue } from '../rules.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The question types the spec lists. Its table types `question_type` as a string, but
 * the list is exhaustive and the rules depend on it (a Paragraph has no responses), so
 * it is a closed enum for the reference server; on read and write any string passes.
 */
export const QUESTION_TYPES = ['Paragraph', 'SingleChoice', 'MultiChoice'] as const;

/**
 * What a response `key` must match: ASCII letters and digits only, 1 to 64 of them.
 * The spec says "alphanumeric"; `_` and `-` are not allowed, because keys are tokens
 * that answers, canvass records and helper calls (`add_questions_responses_uri`)
 * carry between systems, and the strict reading is the one every system accepts.
 *
 * @example
 * ```ts
 * import { RESPONSE_KEY_PATTERN } from 'adis-sdk/schema';
 *
 * RESPONSE_KEY_PATTERN.test('yes2026'); // true
 * RESPONSE_KEY_PATTERN.test('strongly_agree'); // false
 * ```
 */
export const RESPONSE_KEY_PATTERN = /^[A-Za-z0-9]{1,64}$/;

/**
 * What a response `name` (its administrative name) must match: 1 to 100 characters
 * that start with a letter or digit and are letters (any script, with their accents),
 * digits, spaces or the punctuation `. , : ; ' ’ " ! ? & ( ) / + # % _ -`. No control
 * characters, line breaks or markup (`<`, `>`), which break the administrative
 * screens and exports where names are shown. Its source is the `hint` of a
 * RESPONSE_NAME_INVALID issue, as in the spec's example.
 *
 * @example
 * ```ts
 * import { RESPONSE_NAME_PATTERN } from 'adis-sdk/schema';
 *
 * RESPONSE_NAME_PATTERN.test('Sí, con condiciones'); // true
 * RESPONSE_NAME_PATTERN.test('<b>Yes</b>'); // false
 * ```
 */
export const RESPONSE_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} .,:;'’"!?&()/+#%_-]{0,99}$/u;

/** The question's writable fields as the spec's Question table lists them. */
function questionShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...describedFields(),
    question_type: optional(enumeration(QUESTION_TYPES, mode)),
    responses: optional(z.array(questionResponseSchema(mode))),
  };
}

/** What {@link questionRuleIssues} reads: members may be missing or of any type. */
export interface QuestionRuleInput {
  /** The question's type. */
  question_type?: unknown;
  /** The question's possible responses. */
  responses?: unknown;
}

/** The rules on each response: key pattern, key uniqueness, name pattern. */
function responseIssues(responses: readonly unknown[]): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const keys = new Set<string>();
  responses.forEach((response, index) => {
    if (typeof response !== 'object' || response === null) return;
    const { key, name } = response as { key?: unknown; name?: unknown };
    if (typeof key === 'string') {
      if (!RESPONSE_KEY_PATTERN.test(key)) {
        issues.push({
          code: RuleCode.RESPONSE_KEY_INVALID,
          message: `response key "${key}" is not alphanumeric`,
          path: ['responses', index, 'key'],
          hint: `must match ${RESPONSE_KEY_PATTERN.source}`,
        });
      } else if (keys.has(key)) {
        issues.push({
          code: RuleCode.DUPLICATE_RESPONSE_KEY,
          message: `another response already has the key "${key}"`,
          path: ['responses', index, 'key'],
          hint: 'give each response of the question its own key',
        });
      }
      keys.add(key);
    }
    if (typeof name === 'string' && !RESPONSE_NAME_PATTERN.test(name)) {
      issues.push({
        code: RuleCode.RESPONSE_NAME_INVALID,
        message: 'response name fails the name pattern',
        path: ['responses', index, 'name'],
        hint: RESPONSE_NAME_PATTERN.source,
      });
    }
  });
  return issues;
}

/**
 * The cross-field rules of a question, all of them at once, each at its own path:
 * a Paragraph question lists no responses (PARAGRAPH_CANNOT_HAVE_RESPONSES, at
 * `responses`); each response key is alphanumeric (RESPONSE_KEY_INVALID) and unique
 * (DUPLICATE_RESPONSE_KEY, at the second occurrence; keys are compared exactly, as
 * the identifiers they are); each response name matches {@link RESPONSE_NAME_PATTERN}
 * (RESPONSE_NAME_INVALID, with the pattern as hint). The strict schema applies them,
 * so the reference server re-parsing the merged document after a partial update (a PUT
 * that only sets `question_type` to Paragraph) finds them too.
 *
 * @example
 * ```ts
 * import { questionRuleIssues } from 'adis-sdk/server-kit';
 *
 * questionRuleIssues({ question_type: 'Paragraph', responses: [{ key: 'a', name: '<b>' }] })
 *   .map((issue) => issue.code); // ['PARAGRAPH_CANNOT_HAVE_RESPONSES', 'RESPONSE_NAME_INVALID']
 * ```
 */
export function questionRuleIssues(question: QuestionRuleInput): RuleIssue[] {
  const { question_type: type, responses } = question;
  if (!Array.isArray(responses)) return [];
  const issues: RuleIssue[] = [];
  if (type === 'Paragraph' && responses.length > 0) {
    issues.push({
      code: RuleCode.PARAGRAPH_CANNOT_HAVE_RESPONSES,
      message: 'a Paragraph question cannot have responses',
      path: ['responses'],
      hint: 'remove the responses, or use SingleChoice or MultiChoice',
    });
  }
  return [...issues, ...responseIssues(responses)];
}

/** The question kind as declared: its strict schema gets the question's rules below. */
/**
 * The question kind: a question asked to a person. Read with `schema` (unknown members
 * kept, any `question_type` kept); sent with `writeSchema` (no unknown plain members,
 * vendor `<prefix>:<name>` members pass); the reference server checks `strictSchema` (a
 * `question_type` of the spec's list, responses with a key, and the rules of
 * {@link questionRuleIssues}, reported as issues whose `params.code` is the spec's
 * error code, all of them at once, beside any other problem).
 *
 * @example
 * ```ts
 * import { questionKind } from 'adis-sdk/schema';
 *
 * questionKind.writeSchema.parse({
 *   name: 'Parks bill support',
 *   title: 'Do you support SB 12?',
 *   question_type: 'SingleChoice',
 *   responses: [
 *     { key: 'yes', name: 'Supports SB 12', title: 'Yes' },
 *     { key: 'no', name: 'Opposes SB 12', title: 'No' },
 *   ],
 * });
 * ```
 */
export const questionKind = defineKind({
  singular: 'question',
  plural: 'questions',
  description: 'A question asked to a person; answers to it are Answer records',
  shape: questionShape,
  relations: {
    /** The person who created the question (`std:creator`), if the server links one. */
    creator: one('person'),
    /** The person who last modified the question (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The answers people gave to the question (`std:answers`). */
    answers: many('answer'),
  },
  check: (question, ctx) => {
    for (const issue of questionRuleIssues(question)) addRuleIssue(ctx, issue);
  },
});

/** A question as read from a server: the output of `questionKind.schema`. */
export interface Question extends z.output<typeof questionKind.schema> {}
/** What a client sends to create or update a question: the input of `questionKind.writeSchema`. */
export interface QuestionInput extends z.input<typeof questionKind.writeSchema>, VendorMembers {}
/** A response of a question, as read. */
export type QuestionResponse = NonNullable<Question['responses']>[number];

import type * as z from 'zod/mini';

/**
 * Codes of the rules the write schemas check beyond types and formats. A schema reports
 * a broken rule as a zod `custom` issue whose `params.code` is one of these (and whose
 * `params.hint` says how to fix it), so the SDK can refuse a bad write before sending
 * it and the reference server can answer with the spec's `error_code` without parsing
 * messages.
 */
export const RuleCode = {
  /** More than one primary address, email or phone. */
  MULTIPLE_PRIMARY: 'MULTIPLE_PRIMARY',
  /** An event's `start_date` is after its `end_date`. */
  START_DATE_AFTER_END_DATE: 'START_DATE_AFTER_END_DATE',
  /** A question of type Paragraph lists responses. */
  PARAGRAPH_CANNOT_HAVE_RESPONSES: 'PARAGRAPH_CANNOT_HAVE_RESPONSES',
  /** A question response's `name` fails the name pattern (given in the hint). */
  RESPONSE_NAME_INVALID: 'RESPONSE_NAME_INVALID',
  /** A question response's `key` is not alphanumeric. */
  RESPONSE_KEY_INVALID: 'RESPONSE_KEY_INVALID',
  /** Two responses of one question share a key. */
  DUPLICATE_RESPONSE_KEY: 'DUPLICATE_RESPONSE_KEY',
  /** Two ticket levels of an event share a title (tickets name their level by title). */
  DUPLICATE_TICKET_LEVEL_TITLE: 'DUPLICATE_TICKET_LEVEL_TITLE',
} as const;

/** One of the {@link RuleCode} values. */
export type RuleCodeValue = (typeof RuleCode)[keyof typeof RuleCode];

/** A broken rule, as a schema's `superRefine` reports it. */
export interface RuleIssue {
  /** Which rule is broken. */
  code: RuleCodeValue;
  /** What is wrong, in words. */
  message: string;
  /** Path of the offending member, relative to the object being refined. */
  path: (string | number)[];
  /** How to fix it, for example the pattern a value must match. */
  hint?: string;
}

/**
 * Reports a broken rule from inside a `superRefine`, with the rule's code and hint in
 * `params` where servers and callers can read them.
 *
 * @internal
 */
export function addRuleIssue(ctx: z.core.$RefinementCtx, issue: RuleIssue): void {
  ctx.addIssue({
    code: 'custom',
    message: issue.message,
    path: issue.path,
    params: { code: issue.code, ...(issue.hint === undefined ? {} : { hint: issue.hint }) },
  });
}

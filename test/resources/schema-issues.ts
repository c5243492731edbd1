import type * as z from 'zod/mini';

/** One problem a schema found: where, and the rule code when a rule was broken. */
export interface FoundIssue {
  path: string;
  code: string;
  rule: unknown;
}

/**
 * The issues `schema` finds in `input`, flattened for assertions: an empty list when
 * the input is accepted.
 */
export function issuesOf(schema: z.ZodMiniType, input: unknown): FoundIssue[] {
  const result = schema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    code: issue.code,
    rule: issue.code === 'custom' ? issue.params?.code : undefined,
  }));
}

/** The paths of the issues `schema` finds in `input`. */
export function issuePaths(schema: z.ZodMiniType, input: unknown): string[] {
  return issuesOf(schema, input).map((issue) => issue.path);
}

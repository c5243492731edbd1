/**
 * Turning zod issues into the spec's ErrorDescriptions.
 *
 * The schemas are the SDK's (single source of truth); this module only translates
 * their findings into `error_code`, `properties` (indexed paths such as
 * `phone_numbers[0].number`), `description` and `hint`.
 */

import { RuleCode } from 'adis-sdk/schema';
import type * as z from 'zod/mini';
import { ApiError, ErrorCode, type ErrorDescription } from './errors.js';

/**
 * Formats a zod path as the spec's indexed property path.
 *
 * @example
 * ```ts
 * import { propertyPath } from './validation.js';
 *
 * propertyPath(['phone_numbers', 0, 'number']); // 'phone_numbers[0].number'
 * propertyPath(['given_name'], 'person'); // 'person.given_name'
 * ```
 */
export function propertyPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** A readable list of allowed values for a hint, short enough to read. */
function listValues(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/**
 * Maps one zod issue to one ErrorDescription.
 *
 * Codes: `UNKNOWN_PROPERTY` for members the schema does not know (strict objects),
 * `MULTIPLE_PRIMARY` for the "only one primary" rule, `INVALID_PROPERTY` for everything
 * else (wrong type, pattern, enum value, range).
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk/schema';
 * import { issueToDescription } from './validation.js';
 *
 * const result = personKind.strictSchema.safeParse({ nickname: 'x' });
 * if (!result.success) issueToDescription(result.error.issues[0]!); // UNKNOWN_PROPERTY, ['nickname']
 * ```
 */
export function issueToDescription(issue: z.core.$ZodIssue, prefix = ''): ErrorDescription {
  const where = propertyPath(issue.path, prefix);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const properties = issue.keys.map((key) => propertyPath([...issue.path, key], prefix));
      return {
        error_code: ErrorCode.UNKNOWN_PROPERTY,
        description: `unknown ${properties.length === 1 ? 'property' : 'properties'}: ${properties.join(', ')}`,
        properties,
        hint: 'remove the property or check its spelling against the specification',
      };
    }
    case 'invalid_type':
      return {
        error_code: ErrorCode.INVALID_PROPERTY,
        description: `${where || 'body'}: ${issue.message}`,
        properties: where ? [where] : [],
        hint: `must be of type ${issue.expected}`,
      };
    case 'invalid_format': {
      const description: ErrorDescription = {
        error_code: ErrorCode.INVALID_PROPERTY,
        description: `${where}: ${issue.message}`,
        properties: [where],
      };
      // The pattern is the most useful hint a client can get (the spec's own example).
      // For built-in formats (email, datetime) the pattern is unreadable; name the format.
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string') {
        description.hint = `must match ${issue.pattern}`;
      } else {
        description.hint = `must be a valid ${issue.format}`;
      }
      return description;
    }
    case 'invalid_value':
      return {
        error_code: ErrorCode.INVALID_PROPERTY,
        description: `${where}: ${issue.message}`,
        properties: [where],
        hint: `one of ${listValues(issue.values)}`,
      };
    case 'custom': {
      // A rule of the shared schemas: its code is the spec's error_code.
      const rule = issue.params?.code;
      if (typeof rule === 'string' && (Object.values(RuleCode) as string[]).includes(rule)) {
        const hint =
          typeof issue.params?.hint === 'string'
            ? issue.params.hint
            : rule === RuleCode.MULTIPLE_PRIMARY
              ? 'set primary to true on at most one member'
              : undefined;
        return {
          error_code: rule,
          description: `${where}: ${issue.message}`,
          properties: [where],
          ...(hint === undefined ? {} : { hint }),
        };
      }
      return {
        // A rule about `_links` (a tagging that links two targets) is about links.
        error_code:
          issue.path[0] === '_links' ? ErrorCode.INVALID_LINK : ErrorCode.INVALID_PROPERTY,
        description: `${where}: ${issue.message}`,
        properties: [where],
      };
    }
    default:
      return {
        error_code: ErrorCode.INVALID_PROPERTY,
        description: `${where || 'body'}: ${issue.message}`,
        properties: where ? [where] : [],
      };
  }
}

/**
 * Parses `value` with `schema`; on failure throws one atomic 400 {@link ApiError} that
 * carries every issue, for the resource named `resource`.
 */
export function parseOrThrow<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
  resource: string,
  prefix = '',
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError(
    400,
    result.error.issues.map((issue) => issueToDescription(issue, prefix)),
    resource,
  );
}

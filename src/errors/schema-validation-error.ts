import { AdisError } from './adis-error.js';

/** One failing path of a validated response, in zod's vocabulary. */
export interface ValidationIssue {
  /** Where in the document, for example `['email_addresses', 0, 'address']`. */
  path: (string | number)[];
  /** What is wrong there. */
  message: string;
  /** zod's issue code, e.g. `invalid_type`. */
  code: string;
  /** For `unrecognized_keys`: the members the schema does not know. */
  keys?: string[];
  /** For `invalid_value`: the values allowed there. */
  values?: unknown[];
}

/**
 * The part of a zod 4 error this class reads. Structural, so ZodError, `z.core.$ZodError`
 * and zod/mini errors all fit.
 */
export interface ZodErrorLike {
  /** The failing paths. */
  readonly issues: readonly {
    readonly path: readonly PropertyKey[];
    readonly message: string;
    readonly code?: string;
    readonly keys?: readonly string[];
    readonly values?: readonly unknown[];
  }[];
}

/** Where a failing document came from. */
export interface SchemaValidationContext {
  /** The URL the document was read from (or is about to be sent to). */
  url?: string;
  /** Resource name, e.g. `std:person`. */
  resource?: string;
  /**
   * `read` (default) for a document that came from the server, `write` for input the
   * caller was about to send: the message says which.
   */
  direction?: 'read' | 'write';
}

const LISTED_ISSUES = 5;

/**
 * A response did not match the schema of the resource it should be, with validation
 * on. Lists every failing path.
 *
 * @example
 * ```ts
 * import { connect, isSchemaValidationError } from 'adis-sdk';
 *
 * const client = await connect('https://api.example.org/api/v1/', { validate: true });
 * try {
 *   await client.people.toArray();
 * } catch (error) {
 *   if (isSchemaValidationError(error)) for (const issue of error.issues) console.error(issue.path, issue.message);
 * }
 * ```
 */
export class SchemaValidationError extends AdisError {
  /** Always `'SCHEMA_VALIDATION'`. */
  readonly code = 'SCHEMA_VALIDATION' as const;
  /** Always `'SchemaValidationError'`. */
  override readonly name = 'SchemaValidationError' as const;
  /** Every failing path (the message lists the first five). */
  declare readonly issues: ValidationIssue[];
  /** The URL the document came from or was going to, when known. */
  declare readonly url: string | undefined;
  /** The resource name, for example `std:person`, when known. */
  declare readonly resource: string | undefined;

  /**
   * Builds the error from a zod error's issues; the message lists the first five
   * failing paths.
   *
   * @param error - The zod error (kept as `cause`), or anything with its `issues`.
   * @param context - Where the document came from, for the message.
   */
  constructor(error: ZodErrorLike, context: SchemaValidationContext = {}) {
    const issues = error.issues.map(
      (issue): ValidationIssue => ({
        path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
        message: issue.message,
        code: issue.code ?? 'custom',
        ...(issue.keys ? { keys: [...issue.keys] } : {}),
        ...(issue.values ? { values: [...issue.values] } : {}),
      }),
    );
    super(validationMessage(issues, context), { cause: error });
    this.issues = issues;
    this.url = context.url;
    this.resource = context.resource;
  }
}

function validationMessage(issues: ValidationIssue[], context: SchemaValidationContext): string {
  const what = context.resource ?? 'resource';
  const where =
    context.direction === 'write'
      ? ` (not sent${context.url ? ` to ${context.url}` : ''})`
      : context.url
        ? ` from ${context.url}`
        : '';
  const listed = issues
    .slice(0, LISTED_ISSUES)
    .map((issue) => `${formatPath(issue.path)}: ${describeIssue(issue)}`);
  if (issues.length > LISTED_ISSUES) listed.push(`and ${issues.length - LISTED_ISSUES} more`);
  const intro = context.direction === 'write' ? 'Invalid input for' : 'Invalid';
  return `${intro} ${what}${where}: ${listed.join('; ')}`;
}

/**
 * zod's fallback message when no locale is loaded. The SDK's schemas use zod/mini,
 * which loads none (to stay small), so an issue without a message of its own reads
 * `Invalid input` unless the application loaded one (importing `zod` does); the code
 * then says what kind of problem it is.
 */
const GENERIC_MESSAGE = 'Invalid input';

/**
 * The message of one issue: the unknown members named, the allowed values listed, and
 * zod's code when the message alone is generic.
 */
function describeIssue(issue: ValidationIssue): string {
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const names = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    return `unknown ${issue.keys.length === 1 ? 'member' : 'members'} ${names}`;
  }
  if (issue.code === 'invalid_value' && issue.values?.length) {
    return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  return issue.message === GENERIC_MESSAGE && issue.code !== 'custom'
    ? `${issue.message} (${issue.code})`
    : issue.message;
}

/**
 * Writes an issue path the way it would be written in code: `emails[0].address`,
 * with keys such as `std:person` quoted.
 *
 * @example
 * ```ts
 * import { formatPath } from 'adis-sdk';
 *
 * formatPath(['_embedded', 'std:people', 0, 'given_name']); // '_embedded["std:people"][0].given_name'
 * ```
 */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)';
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) text += text ? `.${key}` : key;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text;
}

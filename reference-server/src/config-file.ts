/**
 * The operator's JSON files (`--keys`, `--webhooks`): read the same way, so that a bad
 * one is refused the same way, naming every problem on a line of its own with where it
 * is (`keys.0.token: token must have at least 8 characters`).
 */
import type * as z from 'zod';

/**
 * `text` (the file `path`, a `what` file: `keys`, `webhooks`) parsed as JSON and checked
 * against `schema`.
 *
 * @throws {Error} saying which file and what is wrong: not JSON, or each problem found.
 *
 * @example
 * ```ts
 * import * as z from 'zod';
 * import { parseConfigFile } from './config-file.js';
 *
 * const KeysFile = z.strictObject({ keys: z.array(z.string()).min(1, 'list at least one key') });
 * const file = parseConfigFile('{"keys":[]}', 'keys.json', 'keys', KeysFile);
 * // Error: keys file keys.json is invalid:
 * //   keys: list at least one key
 * ```
 */
export function parseConfigFile<Schema extends z.ZodType>(
  text: string,
  path: string,
  what: string,
  schema: Schema,
): z.output<Schema> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`,
    );
    throw new Error(`${what} file ${path} is invalid:\n${problems.join('\n')}`);
  }
  return result.data;
}

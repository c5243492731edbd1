/**
 * Reading the operator's JSON files (`--keys`, `--webhooks`) from disk. What goes wrong
 * is the command line's mistake (a wrong path, a bad file), so it is a usage error.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './usage-error.js';

/**
 * The file at `path` (a `what` file: `keys`, `webhooks`) read and parsed by `parse`;
 * a file that cannot be read, or that `parse` refuses, is a {@link UsageError} (exit 2)
 * with the reason. Read at start, before the port is taken, so a typo costs nothing.
 */
export function readOperatorFile<T>(path: string, what: string, parse: (text: string) => T): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} file ${path}: ${(error as Error).message}`);
  }
  try {
    return parse(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

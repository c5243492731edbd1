/**
 * How a start that failed ends the process: one `error:` line on stderr and an exit code
 * that says whose mistake it was.
 */
import { UsageError } from './usage-error.js';

/**
 * Prints `error` and exits: code 2 for a {@link UsageError} (with a pointer to `--help`),
 * code 1 for anything else (the port, the database, a seed that failed). Only the
 * message is printed: a stack trace would bury the one line that says what to do.
 */
export function exitOnFailure(error: unknown): never {
  if (error instanceof UsageError) {
    console.error(`error: ${error.message}\n\nRun with --help for usage.`);
    process.exit(2);
  }
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

/**
 * A mistake in the command line, told apart from a failed start by its exit code.
 */

/**
 * An error in the command line (a flag, its value, a file it names): the command prints
 * the message with a pointer to `--help` and exits with code 2, where a start-up failure
 * exits with 1, so scripts can tell a typo from a server that could not start.
 */
export class UsageError extends Error {}

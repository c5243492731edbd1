/**
 * `adis-export`: exports a collection of an ADIS server to NDJSON or CSV.
 *
 * This module holds the command as a function of its arguments and its streams, so
 * that tests run it in-process; `export-cli.ts` is the executable that wires it to the
 * process. Exit codes: 0 done, 1 failed (the server, the network, the disk), 2 bad
 * arguments, 130 interrupted (a file export can then be resumed).
 */
import { type ExportRequest, parseCommandLine, USAGE, UsageError } from './export-arguments.js';
import { describeFailure } from './export-failure.js';
import type { CommandIO } from './export-io.js';
import { exportWith } from './export-run.js';
import { packageVersion } from './package-version.js';

export type { CommandIO, CommandStream } from './export-io.js';

/**
 * Runs `adis-export` with `argv` (the arguments after the command name) and resolves
 * with its exit code. It writes records to stdout or `--output`, and progress, the
 * summary and errors to stderr.
 */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  let request: ExportRequest;
  try {
    const parsed = parseCommandLine(argv, io.env);
    if (parsed === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    if (parsed === 'version') {
      io.stdout.write(`adis-export ${await packageVersion()}\n`);
      return 0;
    }
    request = parsed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`adis-export: ${error.message}\nRun adis-export --help for usage.\n`);
    return 2;
  }
  try {
    return await exportWith(request, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`adis-export: ${error.message}\nRun adis-export --help for usage.\n`);
      return 2;
    }
    if (io.signal?.aborted) {
      // Stopped while connecting, before anything was written.
      io.stderr.write('\nInterrupted before any record was exported.\n');
      return 130;
    }
    io.stderr.write(`adis-export: ${describeFailure(error, request)}\n`);
    return 1;
  }
}

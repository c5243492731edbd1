/**
 * `adis-check`: checks an ADIS server against the specification.
 *
 * The command as a function of its arguments and streams, so that tests run it
 * in-process; `check-cli.ts` is the executable. Exit codes: 0 no check failed, 1 a
 * check failed, 2 bad usage or a server that does not answer.
 */
import { CheckUsageError, checkServer, formatReport } from '../check/index.js';
import { isAdisError } from '../index.js';
import {
  CHECK_USAGE,
  type CheckRequest,
  CheckUsage,
  parseCheckCommandLine,
} from './check-arguments.js';
import { packageVersion } from './package-version.js';

/** The process, as `adis-check` sees it (tests pass their own). */
export interface CheckIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
  /** The `fetch` to send with (tests pass an in-process server's). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Runs `adis-check` with `argv` (the arguments after the command name) and resolves
 * with its exit code. The report goes to stdout, progress and errors to stderr.
 */
export async function checkMain(argv: readonly string[], io: CheckIO): Promise<number> {
  let request: CheckRequest;
  try {
    const parsed = parseCheckCommandLine(argv, io.env);
    if (parsed === 'help') {
      io.stdout.write(CHECK_USAGE);
      return 0;
    }
    if (parsed === 'version') {
      io.stdout.write(`adis-check ${await packageVersion()}\n`);
      return 0;
    }
    request = parsed;
  } catch (error) {
    if (!(error instanceof CheckUsage)) throw error;
    io.stderr.write(`adis-check: ${error.message}\nRun adis-check --help for usage.\n`);
    return 2;
  }
  const progress = !request.quiet && io.stderr.isTTY === true;
  try {
    const report = await checkServer(request.url, {
      apiKey: request.apiKey,
      keyHeader: request.keyHeader,
      write: request.write,
      followDocs: request.followDocs,
      maxRequests: request.maxRequests,
      rate: request.rate,
      pagesPerCollection: request.pages,
      timeoutMs: request.timeoutMs,
      signal: io.signal,
      fetch: io.fetch,
      onRequest: progress
        ? (method, url) => io.stderr.write(`\r\u001b[K${method} ${url}`.slice(0, 200))
        : undefined,
    });
    if (progress) io.stderr.write('\r\u001b[K');
    io.stdout.write(request.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    return report.counts.fail > 0 ? 1 : 0;
  } catch (error) {
    if (progress) io.stderr.write('\r\u001b[K');
    if (io.signal?.aborted) {
      io.stderr.write('adis-check: interrupted\n');
      return 130;
    }
    if (error instanceof CheckUsageError) {
      io.stderr.write(`adis-check: ${error.message}\n`);
      return 2;
    }
    if (isAdisError(error) && (error.code === 'NETWORK' || error.code === 'TIMEOUT')) {
      io.stderr.write(`adis-check: the server did not answer: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

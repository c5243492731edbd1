/**
 * `adis-export`: exports a collection of an ADIS server to NDJSON or CSV.
 *
 * This module holds the command as a function of its arguments and its streams, so
 * that tests run it in-process; `export-cli.ts` is the executable that wires it to the
 * process. Exit codes: 0 done, 1 failed (the server, the network, the disk), 2 bad
 * arguments, 130 interrupted (a file export can then be resumed).
 */
import { rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import {
  type Checkpoint,
  checkpointPath,
  readCheckpoint,
  removeCheckpoint,
  writeCheckpoint,
} from '../export/checkpoint.js';
import { type Column, defaultColumns, parseColumn } from '../export/columns.js';
import { csvFormat, ndjsonFormat, type RecordFormat } from '../export/formats.js';
import { EXPORTABLE_COLLECTIONS, type ExportableKind, exportableKind } from '../export/kinds.js';
import { createFileOutput, type Output, resumeFileOutput, streamOutput } from '../export/output.js';
import { ProgressBar, type ProgressStream } from '../export/progress.js';
import { type DurableEvery, type ExportProgress, runExport } from '../export/run-export.js';
import {
  type Client,
  connect,
  DEFAULT_MAX_RETRY_AFTER,
  field,
  isHTTPError,
  isInvalidLinkError,
  isLinkNotFoundError,
  isNetworkError,
  isRateLimitError,
  isResponseFormatError,
  isTimeoutError,
  presetNamed,
  SERVER_PRESETS,
  type ServerPreset,
} from '../index.js';
import { isHttpUrl } from '../wire/http-url.js';
import { requestedWait } from '../wire/retry-after.js';
import { packageVersion } from './package-version.js';
import { namingWaits, waitText } from './wait-notice.js';

/** A stream the command writes to, with what it can tell of a terminal. */
export type CommandStream = Pick<Writable, 'write' | 'on' | 'off'> &
  ProgressStream & {
    isTTY?: boolean;
  };

/** The process, as the command sees it (tests pass their own). */
export interface CommandIO {
  stdout: CommandStream;
  stderr: CommandStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths start. */
  cwd: string;
  /** Aborted on Ctrl-C: the export stops after saving where it was. */
  signal?: AbortSignal;
  /**
   * What stdout is, to decide on the progress line: records on a terminal or into a
   * pipe want no progress line beside them; records redirected into a file do.
   */
  stdoutKind?: 'terminal' | 'pipe' | 'file';
  /**
   * How often a file export flushes the file and saves its checkpoint (default: after
   * the page that ends a second since the last save). Tests pass `{ pages: n }` to place
   * a crash between two checkpoints.
   */
  durableEvery?: DurableEvery;
}

const SERVERS = Object.keys(SERVER_PRESETS);

const USAGE = `Usage: adis-export [collection] --url <entry point> [options]

Exports a collection of an ADIS server (people unless another is named) to NDJSON or
CSV, following the server's links from its entry point.

Collections: ${EXPORTABLE_COLLECTIONS.join(', ')}

Options:
  --url <url>          the API entry point (or ADIS_URL), like https://api.example.org/api/v1/
  --key <key>          API key (or ADIS_KEY; the environment keeps it out of shell history)
  --key-header <name>  header that carries the key (default STD-API-Token)
  --server <name>      what a known server needs (its key header, curie prefix and
                       request rate): ${SERVERS.join(', ')}; --key-header and --rate
                       given beside it win
  -f, --format <f>     ndjson or csv (default: csv for a .csv output, else ndjson)
  -o, --output <file>  write to a file (default: stdout); a file export can be resumed
  --resume             continue the interrupted export into --output where it stopped,
                       with the --server, --key-header and --rate it ran with unless
                       given again (the key is never saved: give it again)
  --force              overwrite --output, dropping any unfinished export into it
  --since <date>       only records modified after this ISO 8601 date-time
                       (filter=modified_date gt '<date>'; the summary of an export
                       prints the value for the next incremental run)
  --filter <query>     a filter query of the server's, like "created_date gt '2026-01-01'"
  --columns <list>     CSV columns, comma-separated paths: given_name,
                       email_addresses[primary].address, custom_fields.ward, url
  --rate <n>           at most n requests a second, like 3.5 (default: no limit; a 429
                       is retried after the wait the server asks for)
  --limit <n>          stop after n records
  --progress           always draw the progress line on stderr
  --no-progress        never draw it (default: drawn when stderr is a terminal and the
                       records go to a file)
  -q, --quiet          no summary on stderr, errors only
  -h, --help           show this help
  --version            print the version
`;

/** A mistake in the command line: the message and exit code 2. */
class UsageError extends Error {}

/** What the command line asks for, checked. */
interface Request {
  url: string | undefined;
  key: string | undefined;
  keyHeader: string | undefined;
  /** A name of SERVER_PRESETS, checked. */
  server: string | undefined;
  collection: string | undefined;
  format: 'ndjson' | 'csv' | undefined;
  output: string | undefined;
  resume: boolean;
  force: boolean;
  filter: string | undefined;
  columns: string[] | undefined;
  rate: number | undefined;
  limit: number | undefined;
  progress: boolean | undefined;
  quiet: boolean;
}

/**
 * Runs `adis-export` with `argv` (the arguments after the command name) and resolves
 * with its exit code. It writes records to stdout or `--output`, and progress, the
 * summary and errors to stderr.
 *
 * @example
 * ```ts
 * const code = await main(['people', '--url', url, '-o', 'people.csv'], {
 *   stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(),
 * });
 * ```
 */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  let request: Request;
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

function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Request | 'help' | 'version' {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length > 1) {
    throw new UsageError(`one collection at a time, got ${positionals.join(', ')}`);
  }
  const format = values.format?.toLowerCase();
  if (format !== undefined && format !== 'ndjson' && format !== 'csv') {
    throw new UsageError(`--format must be ndjson or csv, got ${JSON.stringify(values.format)}`);
  }
  if (values.resume && values.force) {
    throw new UsageError('--resume continues an export and --force starts it over: pick one');
  }
  if ((values.resume || values.force) && values.output === undefined) {
    throw new UsageError(`--${values.resume ? 'resume' : 'force'} needs --output <file>`);
  }
  if (values.server !== undefined) serverPreset(values.server);
  const keyHeader = values['key-header'];
  // Checked here: a name fetch refuses would otherwise fail every request, later.
  if (keyHeader !== undefined && !HEADER_NAME.test(keyHeader)) {
    throw new UsageError(
      `--key-header must be an HTTP header name, got ${JSON.stringify(keyHeader)}`,
    );
  }
  if (values.progress && values['no-progress']) {
    throw new UsageError('--progress and --no-progress contradict each other');
  }
  let filter = values.filter?.trim() || undefined;
  if (values.since !== undefined) {
    const since = sinceOption(values.since);
    filter = filter === undefined ? since : `${filter} and ${since}`;
  }
  const columns = values.columns
    ?.split(',')
    .map((column) => column.trim())
    .filter((column) => column !== '');
  if (columns !== undefined) {
    if (columns.length === 0) throw new UsageError('--columns names no column');
    for (const column of columns) {
      try {
        parseColumn(column);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    }
  }
  return {
    url: values.url ?? env.ADIS_URL,
    key: values.key ?? env.ADIS_KEY,
    keyHeader,
    server: values.server,
    collection: positionals[0],
    format,
    output: values.output,
    resume: values.resume ?? false,
    force: values.force ?? false,
    filter,
    columns,
    rate: positiveNumber('rate', values.rate, false),
    limit: positiveNumber('limit', values.limit, true),
    progress: values.progress ? true : values['no-progress'] ? false : undefined,
    quiet: values.quiet ?? false,
  };
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      'key-header': { type: 'string' },
      server: { type: 'string' },
      format: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      resume: { type: 'boolean' },
      force: { type: 'boolean' },
      since: { type: 'string' },
      filter: { type: 'string' },
      columns: { type: 'string' },
      rate: { type: 'string' },
      limit: { type: 'string' },
      progress: { type: 'boolean' },
      'no-progress': { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
}

/** An HTTP header name (a token of RFC 9110). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The preset `--server` names; a usage error listing the known ones otherwise. */
function serverPreset(name: string): ServerPreset {
  const preset = presetNamed(name);
  if (preset === undefined) {
    throw new UsageError(`unknown --server ${JSON.stringify(name)}; one of: ${SERVERS.join(', ')}`);
  }
  return preset;
}

/** `--since`: an ISO 8601 date or date-time, as the filter `modified_date gt '…'`. */
function sinceOption(raw: string): string {
  const value = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    throw new UsageError(
      `--since must be an ISO 8601 date or date-time like 2026-01-31T12:00:00Z, got ${JSON.stringify(raw)}`,
    );
  }
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new UsageError(`--since: no such date ${JSON.stringify(raw)}`);
  return field('modified_date').gt(new Date(time).toISOString()).toString();
}

function positiveNumber(
  name: string,
  raw: string | undefined,
  integer: boolean,
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const pattern = integer ? /^\d+$/ : /^\d+(\.\d+)?$/;
  if (!pattern.test(raw.trim()) || !(value > 0)) {
    throw new UsageError(
      `--${name} must be a positive ${integer ? 'whole ' : ''}number, got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

/** The command's work once the arguments are known to be well formed. */
async function exportWith(request: Request, io: CommandIO): Promise<number> {
  const outputPath = request.output === undefined ? undefined : resolve(io.cwd, request.output);
  const statePath = outputPath === undefined ? undefined : checkpointPath(outputPath);
  const saved = statePath === undefined ? undefined : await readCheckpoint(statePath);
  if (outputPath !== undefined && !request.resume && !request.force) {
    await refuseToOverwrite(outputPath, saved !== undefined);
  }
  if (request.resume && saved === undefined) {
    throw new UsageError(
      `nothing to resume: ${statePath} does not exist (an export that finished leaves none)`,
    );
  }
  const resumed = request.resume ? saved : undefined;
  const settings = settle(request, resumed, outputPath);

  let bar: ProgressBar | undefined;
  const client = await connect(settings.url, {
    ...(settings.server === undefined ? {} : serverPreset(settings.server)),
    ...(request.key === undefined ? {} : { apiKey: request.key }),
    ...(settings.keyHeader === undefined ? {} : { apiKeyHeader: settings.keyHeader }),
    ...(settings.rate === undefined ? {} : { rateLimit: settings.rate }),
    // Export what the server has, as it has it: one record a strict schema would
    // refuse must not stop a walk of a hundred thousand.
    validate: false,
    ...(io.signal ? { signal: io.signal } : {}),
    fetch: namingWaits((line) => {
      if (request.quiet) return;
      bar?.done(); // redrawn at the next page
      io.stderr.write(line);
    }),
  });
  const startedAt = resumed?.startedAt ?? (await serverClock(client));
  const collection = client.collection(settings.kind);
  const filtered = settings.filter === undefined ? collection : collection.filter(settings.filter);
  const format: RecordFormat =
    settings.format === 'csv'
      ? csvFormat(settings.columns ?? defaultColumns(settings.kind))
      : ndjsonFormat();

  let output: Output;
  if (outputPath === undefined) {
    output = streamOutput(io.stdout);
  } else if (resumed) {
    output = await resumeFileOutput(outputPath, resumed.bytes);
  } else {
    if (request.force && statePath !== undefined) await removeCheckpoint(statePath);
    output = await createFileOutput(outputPath, { overwrite: request.force });
  }

  const label = settings.kind.plural;
  bar = wantsProgress(request, io, outputPath !== undefined)
    ? new ProgressBar(io.stderr, label, resumed?.records ?? 0)
    : undefined;
  const checkpoint = (progress: ExportProgress): Checkpoint => ({
    version: 1,
    entryPoint: settings.url,
    collection: label,
    filter: settings.filter ?? null,
    format: format.name,
    columns: settings.columns?.map((column) => column.header) ?? null,
    server: settings.server ?? null,
    keyHeader: settings.keyHeader ?? null,
    rate: settings.rate ?? null,
    next: progress.next ?? null,
    records: progress.records,
    bytes: progress.bytes,
    startedAt,
  });
  const started = performance.now();
  let last: ExportProgress = {
    records: resumed?.records ?? 0,
    totalRecords: undefined,
    next: resumed?.next ?? undefined,
    bytes: output.bytes,
  };
  try {
    last = await runExport({
      collection: filtered,
      format,
      output,
      ...(resumed ? { resume: { next: resumed.next ?? undefined, records: resumed.records } } : {}),
      ...(request.limit === undefined ? {} : { limit: request.limit }),
      ...(io.signal ? { signal: io.signal } : {}),
      onPage: (progress) => {
        last = progress;
        bar?.update(progress.records, progress.totalRecords);
      },
      ...(statePath === undefined
        ? {}
        : {
            onDurable: (progress: ExportProgress) =>
              writeCheckpoint(statePath, checkpoint(progress)),
          }),
      ...(io.durableEvery ? { durableEvery: io.durableEvery } : {}),
    });
  } catch (error) {
    bar?.done();
    await output.close();
    const resumable = outputPath !== undefined && (resumed !== undefined || last.records > 0);
    if (outputPath !== undefined && !resumable) {
      // Nothing was exported: leave no empty file (and no checkpoint) that the next run
      // would have to be told to --force over.
      await rm(outputPath, { force: true });
      if (statePath !== undefined) await removeCheckpoint(statePath);
    }
    if (io.signal?.aborted) {
      io.stderr.write(interruptedMessage(last, label, resumable));
      return 130;
    }
    if (resumable) {
      io.stderr.write(
        `adis-export: stopped after ${count(last.records)} ${label}; fix the cause and add --resume to continue\n`,
      );
    }
    throw error;
  }
  bar?.done();
  await output.close();
  if (statePath !== undefined) await removeCheckpoint(statePath);
  if (!request.quiet) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const where = outputPath === undefined ? '' : ` to ${request.output}`;
    const resumedText = resumed ? ` (resumed after ${count(resumed.records)})` : '';
    io.stderr.write(
      `Exported ${count(last.records)} ${label}${where} in ${seconds} s${resumedText}.\n` +
        `Next incremental export: --since ${startedAt}\n`,
    );
  }
  return 0;
}

/** The export's settings: from the command line, or from the checkpoint when resuming. */
interface Settings {
  url: string;
  kind: ExportableKind;
  filter: string | undefined;
  format: 'ndjson' | 'csv';
  columns: Column[] | undefined;
  /** How to talk to the server: given now, else what the resumed run used. */
  server: string | undefined;
  keyHeader: string | undefined;
  rate: number | undefined;
}

function settle(
  request: Request,
  resumed: Checkpoint | undefined,
  outputPath: string | undefined,
): Settings {
  if (resumed) {
    // A resume continues the same export: options may be repeated, not changed, or the
    // file would hold two exports' records under one header.
    const differ = (name: string, given: unknown, kept: unknown) => {
      if (given !== undefined && JSON.stringify(given) !== JSON.stringify(kept)) {
        // As typed: a list as its comma-separated option, an option the export began
        // without as such (not `was undefined`).
        const typed = (value: unknown) =>
          JSON.stringify(Array.isArray(value) ? value.join(',') : value);
        const began = kept === undefined ? 'not given (so its default)' : typed(kept);
        throw new UsageError(
          `--resume continues the export as it began: ${name} was ${began}, not ${typed(given)} (use --force to start over)`,
        );
      }
    };
    differ('the URL', request.url, resumed.entryPoint);
    differ(
      'the collection',
      request.collection && exportableKind(request.collection)?.plural,
      resumed.collection,
    );
    differ('the filter', request.filter, resumed.filter ?? undefined);
    differ('--format', request.format, resumed.format);
    differ('--columns', request.columns, resumed.columns ?? undefined);
  }
  const url = resumed?.entryPoint ?? request.url;
  if (url === undefined) throw new UsageError('--url (or ADIS_URL) is needed: the API entry point');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `--url must be an absolute http(s) URL like https://api.example.org/api/v1/, got ${JSON.stringify(url)}`,
    );
  }
  if (!isHttpUrl(parsed)) {
    throw new UsageError(`--url must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  const name = resumed?.collection ?? request.collection ?? 'people';
  const kind = exportableKind(name);
  if (!kind) {
    throw new UsageError(
      `unknown collection ${JSON.stringify(name)}; one of: ${EXPORTABLE_COLLECTIONS.join(', ')}`,
    );
  }
  const format =
    resumed?.format ??
    request.format ??
    (outputPath?.toLowerCase().endsWith('.csv') ? 'csv' : 'ndjson');
  const columnNames = resumed?.columns ?? request.columns;
  if (columnNames !== undefined && format !== 'csv') {
    throw new UsageError('--columns is for CSV; NDJSON keeps every member');
  }
  return {
    url,
    kind,
    filter: resumed ? (resumed.filter ?? undefined) : request.filter,
    format,
    columns: columnNames?.map(parseColumn),
    // How the export talks to the server, unlike what it exports, may change on a resume
    // (a slower --rate after 429s, say); what is not given again is what it used.
    server: request.server ?? resumed?.server ?? undefined,
    keyHeader: request.keyHeader ?? resumed?.keyHeader ?? undefined,
    rate: request.rate ?? resumed?.rate ?? undefined,
  };
}

/** Refuses to write over an earlier export, finished or not. */
async function refuseToOverwrite(path: string, unfinished: boolean): Promise<void> {
  if (unfinished) {
    throw new UsageError(
      `${path} holds an unfinished export: add --resume to continue it, or --force to start over`,
    );
  }
  const exists = await stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  if (exists) {
    throw new UsageError(`${path} exists: choose another --output, or add --force to overwrite it`);
  }
}

/**
 * Whether to draw the progress line: as asked, else only when stderr is a terminal and
 * the records do not share the screen or a pipe (they go to a file).
 */
function wantsProgress(request: Request, io: CommandIO, toFile: boolean): boolean {
  if (request.progress !== undefined) return request.progress;
  if (request.quiet || !io.stderr.isTTY) return false;
  return toFile || io.stdoutKind === 'file';
}

/**
 * The server's clock now, from the `Date` header of its entry point: a later `--since`
 * compares with the server's `modified_date` values, so it must be the server's time,
 * not this machine's. Falls back to this machine's clock when the header is missing.
 */
async function serverClock(client: Client): Promise<string> {
  const response = await client.transport.request({ method: 'GET', url: client.root.url });
  const header = response.headers.get('date');
  const time = header === null ? Number.NaN : Date.parse(header);
  return new Date(Number.isNaN(time) ? Date.now() : time).toISOString();
}

function interruptedMessage(last: ExportProgress, label: string, resumable: boolean): string {
  const done = `Interrupted after ${count(last.records)} ${label}.`;
  if (!resumable) return `\n${done}\n`;
  return `\n${done} Run the same command with --resume to continue where it stopped.\n`;
}

/** The one-line message for a failure, naming what to check. */
function describeFailure(error: unknown, request: Request): string {
  if (isHTTPError(error)) {
    if (error.status === 401 || error.status === 403) {
      const given = request.key === undefined ? 'no API key was given' : 'check the key';
      return `${error.method} ${error.url} was refused (${error.status} ${error.statusText}): ${given} (--key or ADIS_KEY${request.keyHeader || request.server ? '' : '; --server or --key-header if the server reads another header'})`;
    }
    if (error.status === 429) {
      // Still refused after the retries: name the last wait asked for, if any.
      const wait = requestedWait(error.headers);
      const asked =
        wait.kind === 'wait' ? `; the server asks to wait ${waitText(wait.ms, Date.now())}` : '';
      return `${error.message}${asked}: run the command again later, with a lower --rate`;
    }
    if (error.status === 404) {
      return `${error.method} ${error.url} answered 404 Not Found: is --url the API entry point?`;
    }
    return error.message;
  }
  if (isNetworkError(error)) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `cannot reach ${error.url}${cause}; check --url and the network`;
  }
  if (isTimeoutError(error)) return `${error.message}; the server is slow or unreachable`;
  if (isRateLimitError(error)) {
    return (
      `rate limited: ${error.method} ${error.url} answered ${error.status} ${error.statusText}, ` +
      `and the server asks to wait ${waitText(error.retryAfter, Date.now())}, longer than the ` +
      `${DEFAULT_MAX_RETRY_AFTER / 1000} s adis-export waits by itself: run the command again after that`
    );
  }
  if (isResponseFormatError(error) && isEntryPoint(error.url, request.url)) {
    return `${error.url} is not an ADIS entry point (${error.reason ?? 'not HAL+JSON'}): check --url`;
  }
  if (isInvalidLinkError(error)) return `the server sent an unusable address: ${error.message}`;
  if (isLinkNotFoundError(error)) {
    return `the server links no ${error.rel} from its entry point (it links: ${error.available.join(', ') || 'nothing'})`;
  }
  return error instanceof Error ? error.message : String(error);
}

// Whether a failing URL is the entry point the command was given (not a page or record).
function isEntryPoint(url: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  try {
    return new URL(given).toString() === url;
  } catch {
    return false;
  }
}

const integer = new Intl.NumberFormat('en-US');

function count(n: number): string {
  return integer.format(n);
}

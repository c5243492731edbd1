/**
 * `adis-export`'s command line: its usage text, and the checked request it asks for.
 */
import { parseArgs } from 'node:util';
import { parseColumn } from '../export/columns.js';
import { EXPORTABLE_COLLECTIONS } from '../export/kinds.js';
import { field, presetNamed, SERVER_PRESETS, type ServerPreset } from '../index.js';

const SERVERS = Object.keys(SERVER_PRESETS);

export const USAGE = `Usage: adis-export [collection] --url <entry point> [options]

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
export class UsageError extends Error {}

/** What the command line asks for, checked. */
export interface ExportRequest {
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
 * The command line, checked: the request, or `help`/`version`; a UsageError (exit 2)
 * saying what is wrong otherwise. The key may come from `ADIS_KEY` in `env`.
 */
export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ExportRequest | 'help' | 'version' {
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
export function serverPreset(name: string): ServerPreset {
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

/**
 * `adis-sync`'s command line: its usage text, and the checked request it asks for.
 * Keys are never arguments (a process list shows every argument): they come from files
 * or the environment (sync-keys.ts).
 */
import { parseArgs } from 'node:util';
import { KINDS, presetNamed, SERVER_PRESETS } from '../index.js';

const PRESETS = Object.keys(SERVER_PRESETS);
const KIND_NAMES: readonly string[] = KINDS.map((kind) => kind.plural);

export const SYNC_USAGE = `Usage: adis-sync <from entry point> <to entry point> --state <file> [options]

Copies an organisation's records from one ADIS server (from) to another (to), and keeps
the copy in sync: each run copies what changed on the source since the last one. The
state file remembers every copy made and where each kind's read stands; it is saved as
the run goes, so a run that stops (Ctrl-C, --max-requests, a failure) goes on where it
stopped when the same command is run again.

Keys are read from files or the environment, never from the command line (any user of
the machine can see a command's arguments): there is no --api-key option.

Options:
  --state <file>          the sync's state (required); one file per pair of servers
  --from-key-file <file>  the source's API key, the file's content (or ADIS_FROM_KEY)
  --to-key-file <file>    the target's API key, the file's content (or ADIS_TO_KEY)
  --from-preset <name>    what the source needs (key header, curie prefix, rate):
                          ${PRESETS.join(', ')}; default: detected from its entry point
  --to-preset <name>      the same for the target
  --kinds <list>          the kinds to copy, comma-separated plural names, like
                          people,tags,petitions,signatures (default: every kind the
                          source links); the kinds they need are copied too
  --since <date>          first run only: copy only what was modified at or after this
                          ISO 8601 date or date-time
  --dry-run               read everything and write nothing: the summary tells what
                          would be created and updated
  --deletions <what>      also look for records gone from the source (a full read of
                          its addresses): report (list them) or remove (delete their
                          copies on the target); default: not looked for
  --source-system <name>  the system name the source's identifiers carry on the target
                          (default: the source's namespace; needed when both servers
                          have the same one)
  --rate <n>              at most n requests a second on each side, like 3.5 (default:
                          a preset's own rate, as Action Network's; else no limit)
  --max-requests <n>      stop after n requests to both servers together (exit 2; run
                          the same command again to go on)
  --overlap <seconds>     how far before a run's start the next run begins reading
                          (default 60)
  --timeout <seconds>     how long a request may take (default: the SDK's)
  --json                  print the summary as JSON (for scripts) instead of a table
  -q, --quiet             no progress on stderr (refusals and errors are still told)
  -h, --help              show this help
  --version               print the version

Exit codes: 0 done, 1 done but the target refused some records (the summary names
them), 2 could not run or did not finish (bad usage, a server that fails or refuses the
key, a state file of another pair of servers, --max-requests reached, Ctrl-C): run the
same command again once the cause is fixed.
`;

/** A mistake in the command line: the message and exit code 2. */
export class SyncUsage extends Error {}

/** What the command line asks for, checked. */
export interface SyncCommandRequest {
  /** The source's entry point (an http(s) URL, as given). */
  from: string;
  /** The target's entry point. */
  to: string;
  /** The state file, as given (relative to the working directory). */
  state: string;
  fromKeyFile: string | undefined;
  toKeyFile: string | undefined;
  /** Names of SERVER_PRESETS, checked. */
  fromPreset: string | undefined;
  toPreset: string | undefined;
  /** Plural names of KINDS, checked, without repeats. */
  kinds: string[] | undefined;
  /** An instant, as ISO 8601 in UTC. */
  since: string | undefined;
  dryRun: boolean;
  deletions: 'report' | 'remove' | undefined;
  sourceSystem: string | undefined;
  rate: number | undefined;
  maxRequests: number | undefined;
  overlapMs: number | undefined;
  timeoutMs: number | undefined;
  json: boolean;
  quiet: boolean;
}

/**
 * The command line, checked: the request, or `help`/`version`; a {@link SyncUsage}
 * (exit 2) saying what is wrong otherwise.
 */
export function parseSyncCommandLine(
  argv: readonly string[],
): SyncCommandRequest | 'help' | 'version' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new SyncUsage(usageMessage(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length !== 2) {
    throw new SyncUsage(
      positionals.length < 2
        ? 'give two entry point URLs: the source (from), then the target (to)'
        : `two entry point URLs (from, to), not ${positionals.length} arguments: ${positionals.join(' ')}`,
    );
  }
  const from = entryPoint(positionals[0] as string, 'the source (from)');
  const to = entryPoint(positionals[1] as string, 'the target (to)');
  if (new URL(from).href === new URL(to).href) {
    throw new SyncUsage(`the source and the target are the same entry point (${from})`);
  }
  const state = values.state?.trim();
  if (state === undefined || state === '') {
    throw new SyncUsage(
      '--state <file> is needed: where the sync keeps its copies between runs (like --state sync-state.json)',
    );
  }
  return {
    from,
    to,
    state,
    fromKeyFile: keyFile(values['from-key-file'], '--from-key-file'),
    toKeyFile: keyFile(values['to-key-file'], '--to-key-file'),
    fromPreset: preset(values['from-preset'], '--from-preset'),
    toPreset: preset(values['to-preset'], '--to-preset'),
    kinds: kinds(values.kinds),
    since: since(values.since),
    dryRun: values['dry-run'] ?? false,
    deletions: deletions(values.deletions),
    sourceSystem: sourceSystem(values['source-system']),
    rate: number(values.rate, '--rate', { integer: false }),
    maxRequests: number(values['max-requests'], '--max-requests', { integer: true }),
    overlapMs: seconds(values.overlap, '--overlap', 0),
    timeoutMs: seconds(values.timeout, '--timeout', 0.001),
    json: values.json ?? false,
    quiet: values.quiet ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      state: { type: 'string' },
      'from-key-file': { type: 'string' },
      'to-key-file': { type: 'string' },
      'from-preset': { type: 'string' },
      'to-preset': { type: 'string' },
      kinds: { type: 'string' },
      since: { type: 'string' },
      'dry-run': { type: 'boolean' },
      deletions: { type: 'string' },
      'source-system': { type: 'string' },
      rate: { type: 'string' },
      'max-requests': { type: 'string' },
      overlap: { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
  });
}

// parseArgs's own message, and for an option that looks like a key, why there is none.
function usageMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const option = /Unknown option '(-{1,2}[^']+)'/.exec(message)?.[1];
  if (option !== undefined && /key|token|secret|password/i.test(option) && !/-file$/.test(option)) {
    return `${option}: keys are never given on the command line (any user of the machine can see a command's arguments); put the key in a file and give --from-key-file or --to-key-file, or set ADIS_FROM_KEY / ADIS_TO_KEY`;
  }
  return message;
}

function entryPoint(value: string, side: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SyncUsage(
      `${side} must be an entry point URL like https://api.example.org/api/v1/, not ${JSON.stringify(value)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SyncUsage(`${side} must be an http(s) URL, not ${JSON.stringify(value)}`);
  }
  return value;
}

function keyFile(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new SyncUsage(`${flag} names no file`);
  return value;
}

function preset(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (presetNamed(value) === undefined) {
    throw new SyncUsage(`unknown ${flag} ${JSON.stringify(value)}; one of: ${PRESETS.join(', ')}`);
  }
  return value;
}

function kinds(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) {
    throw new SyncUsage(`--kinds names no kind; some of: ${KIND_NAMES.join(', ')}`);
  }
  const unknown = names.filter((name) => !KIND_NAMES.includes(name));
  if (unknown.length > 0) {
    const singular = unknown.length === 1;
    throw new SyncUsage(
      `--kinds: unknown kind${singular ? '' : 's'} ${unknown.map((name) => JSON.stringify(name)).join(', ')} (plural names); some of: ${KIND_NAMES.join(', ')}`,
    );
  }
  return [...new Set(names)];
}

function since(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/i.test(value)) {
    throw new SyncUsage(
      `--since must be an ISO 8601 date or date-time like 2026-01-31 or 2026-01-31T12:00:00Z, not ${JSON.stringify(raw)}`,
    );
  }
  // Date.parse takes 2026-02-30 for March 2: the calendar date must exist as written.
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const time = Date.parse(value);
  if (Number.isNaN(time) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw new SyncUsage(`--since: no such date ${JSON.stringify(raw)}`);
  }
  return new Date(time).toISOString();
}

function deletions(value: string | undefined): 'report' | 'remove' | undefined {
  if (value === undefined) return undefined;
  if (value === 'report' || value === 'remove') return value;
  throw new SyncUsage(
    `--deletions must be report (list the records gone from the source) or remove (also delete their copies), not ${JSON.stringify(value)}`,
  );
}

function sourceSystem(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value === '' || /[:\s]/.test(value)) {
    throw new SyncUsage(
      `--source-system must be a system name without colons or spaces, like crm, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function number(
  raw: string | undefined,
  flag: string,
  { integer }: { integer: boolean },
): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  const pattern = integer ? /^\d+$/ : /^\d+(\.\d+)?$/;
  if (!pattern.test(raw.trim()) || !(value > 0)) {
    throw new SyncUsage(
      `${flag} must be a positive ${integer ? 'whole ' : ''}number, not ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function seconds(raw: string | undefined, flag: string, least: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || value < least) {
    throw new SyncUsage(
      `${flag} must be a number of seconds${least > 0 ? ' above 0' : ''}, not ${JSON.stringify(raw)}`,
    );
  }
  return Math.round(value * 1000);
}

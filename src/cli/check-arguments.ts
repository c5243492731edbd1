/**
 * `adis-check`'s command line: its usage text, and the checked request it asks for.
 */
import { parseArgs } from 'node:util';

export const CHECK_USAGE = `Usage: adis-check <entry point URL> [options]

Checks an ADIS server against the specification: its entry point, the first pages of
every collection it links (paging and records), relations, filtering, errors,
authentication, rate limiting, CORS and content types. Read-only unless --write. The
server under test is the entry point's origin: nothing elsewhere is contacted unless
--follow-docs. Each line says how far the specification asks for what it checks:
required, optional (missing is a warning), advice (not in the specification), or run.

Options:
  --api-key <key>       API key (or ADIS_KEY; the environment keeps it out of shell history)
  --key-header <name>   header that carries the key (default STD-API-Token, or a
                        detected server's, such as Action Network's OSDI-API-Token)
  --write               also create, read back, write back and delete a record of each
                        kind it can, call the signup helper once and test Idempotency-Key;
                        it deletes what it made (use a key and tenant you can spare)
  --follow-docs         also read documentation on other origins (a curie's href),
                        without the key; a failure there is a warning about that link
  --json                print the report as JSON (for CI) instead of text
  --max-requests <n>    send at most n requests (default 500)
  --rate <n>            at most n requests a second (default 4; 0 for no spacing)
  --pages <n>           pages read of each collection (default 2)
  --timeout <seconds>   how long a request may take (default 15)
  -q, --quiet           no progress on stderr
  -h, --help            show this help
  --version             print the version

Exit codes: 0 no check failed, 1 a check failed, 2 bad usage or no answer from the server.
`;

/** A mistake in the command line: the message and exit code 2. */
export class CheckUsage extends Error {}

/** What the command line asks for, checked. */
export interface CheckRequest {
  url: string;
  apiKey: string | undefined;
  keyHeader: string | undefined;
  write: boolean;
  followDocs: boolean;
  json: boolean;
  maxRequests: number;
  rate: number;
  pages: number;
  timeoutMs: number;
  quiet: boolean;
}

/**
 * The command line, checked: the request, or `help`/`version`; a CheckUsage (exit 2)
 * saying what is wrong otherwise.
 */
export function parseCheckCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CheckRequest | 'help' | 'version' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CheckUsage(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  if (positionals.length !== 1) {
    throw new CheckUsage(
      positionals.length === 0
        ? 'give the entry point URL'
        : `one entry point URL, not ${positionals.length} arguments`,
    );
  }
  const url = positionals[0] as string;
  if (!/^https?:\/\//i.test(url))
    throw new CheckUsage(`the entry point must be an http(s) URL, not ${JSON.stringify(url)}`);
  const apiKey = values['api-key'] ?? env.ADIS_KEY;
  return {
    url,
    apiKey: apiKey === '' ? undefined : apiKey,
    keyHeader: values['key-header'],
    write: values.write ?? false,
    followDocs: values['follow-docs'] ?? false,
    json: values.json ?? false,
    maxRequests: count(values['max-requests'], '--max-requests', 500, 1),
    rate: count(values.rate, '--rate', 4, 0),
    pages: count(values.pages, '--pages', 2, 1),
    timeoutMs: count(values.timeout, '--timeout', 15, 0.001) * 1000,
    quiet: values.quiet ?? false,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'api-key': { type: 'string' },
      'key-header': { type: 'string' },
      write: { type: 'boolean' },
      'follow-docs': { type: 'boolean' },
      json: { type: 'boolean' },
      'max-requests': { type: 'string' },
      rate: { type: 'string' },
      pages: { type: 'string' },
      timeout: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
  });
}

function count(value: string | undefined, flag: string, fallback: number, least: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < least) {
    throw new CheckUsage(
      `${flag} must be a number of at least ${least}, not ${JSON.stringify(value)}`,
    );
  }
  return number;
}

import { duration } from '../export/progress.js';
import { DEFAULT_MAX_RETRY_AFTER, DEFAULT_RETRY_LIMIT } from '../index.js';
import { requestedWait } from '../wire/retry-after.js';

/**
 * A fetch that names, through `say`, the wait a server asks for when it answers 429 (or
 * 503) with `Retry-After` or a rate-limit reset header: the transport then sleeps that
 * long before it retries, and an export that stops moving for a minute should say why.
 * A wait longer than the transport accepts (`DEFAULT_MAX_RETRY_AFTER`) is not named
 * here: the call fails with a RateLimitError, whose message names it.
 *
 * The header is read by the same function the transport decides with (`requestedWait`),
 * so what is printed is what is waited.
 */
export function namingWaits(
  say: (line: string) => void,
  fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429 || response.status === 503) {
      const notice = waitNotice(input, init, response);
      if (notice !== undefined) say(`adis-export: ${notice}\n`);
    }
    return response;
  };
}

function waitNotice(
  input: Parameters<typeof globalThis.fetch>[0],
  init: RequestInit | undefined,
  response: Response,
): string | undefined {
  // Read from the input as it is: a Request whose body was sent cannot be copied.
  const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
  const url = input instanceof Request ? input.url : String(input);
  const answered = `${method} ${url} answered ${response.status} ${response.statusText}`.trim();
  const retries = `(${DEFAULT_RETRY_LIMIT} retries at most)`;
  const wait = requestedWait(response.headers);
  if (wait.kind === 'wait') {
    if (wait.ms > DEFAULT_MAX_RETRY_AFTER) return undefined;
    return `${answered}: the server asks to wait ${waitText(wait.ms)}, then the request is retried ${retries}`;
  }
  if (response.status !== 429) return undefined;
  const unsaid =
    wait.kind === 'unparsable'
      ? `with a wait it cannot read (${wait.header}: ${wait.value})`
      : 'without saying how long to wait';
  return `${answered} ${unsaid}: the request is retried after a pause ${retries}`;
}

/**
 * A wait a server asks for, for people: `under a second`, `30 s`, or `3600 s (1h 00m)`,
 * and, given `from` (when the wait starts, ms since the epoch), the moment it ends, in UTC
 * (`3600 s (1h 00m, until 2026-01-31T14:05:10Z)`).
 *
 * @example
 * ```ts
 * import { waitText } from './wait-notice.js';
 *
 * waitText(90_000); // '90 s (1m 30s)'
 * ```
 */
export function waitText(ms: number, from?: number): string {
  const end =
    from === undefined ? undefined : new Date(from + ms).toISOString().replace(/\.\d+Z$/, 'Z');
  if (ms < 1000) return end === undefined ? 'under a second' : `under a second (until ${end})`;
  const seconds = Math.ceil(ms / 1000);
  const notes = [...(seconds >= 60 ? [duration(seconds)] : []), ...(end ? [`until ${end}`] : [])];
  return notes.length === 0 ? `${seconds} s` : `${seconds} s (${notes.join(', ')})`;
}

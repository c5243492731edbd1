// The headers a server names a wait in, in the order ky reads them (ky's retry loop
// waits what they say; this module lets the transport decide first whether it may).
const WAIT_HEADERS = [
  'retry-after',
  'ratelimit-reset',
  'x-ratelimit-retry-after', // Symfony-based services
  'x-ratelimit-reset', // GitHub: epoch seconds
  'x-rate-limit-reset', // Twitter: epoch seconds
] as const;

// A number of seconds this large is an epoch timestamp, not a delay (as ky reads it).
const TIMESTAMP_THRESHOLD_MS = Date.parse('2024-01-01');

/**
 * What a response asks of the client before the next attempt: nothing, a wait in
 * milliseconds, or a header the SDK cannot read (which falls back to the normal backoff
 * rather than to a wait of unknown length).
 */
export type RequestedWait =
  | { kind: 'none' }
  | { kind: 'wait'; ms: number }
  | { kind: 'unparsable'; header: string; value: string };

/**
 * Reads the wait a response asks for from `Retry-After` (seconds or an HTTP date) or a
 * rate-limit reset header (seconds, or epoch seconds), exactly as ky's retry loop reads
 * them, so that the transport's decision and ky's wait agree. A date in the past is a
 * wait of 0. A value that is neither a finite number nor a date is `unparsable`.
 * `names` limits the headers read (`['retry-after']` for a 409, whose rate-limit reset
 * headers, sent on every answer by some servers, say nothing about the conflict).
 *
 * @example
 * ```ts
 * import { requestedWait } from './retry-after.js';
 *
 * requestedWait(new Headers({ 'retry-after': '120' })); // { kind: 'wait', ms: 120_000 }
 * requestedWait(new Headers({ 'retry-after': 'soon' })); // { kind: 'unparsable', … }
 * ```
 */
export function requestedWait(
  headers: Headers,
  now: number = Date.now(),
  names: readonly string[] = WAIT_HEADERS,
): RequestedWait {
  for (const header of names) {
    const value = headers.get(header);
    if (value === null) continue;
    // ky skips an empty value (and then backs off normally); so does this.
    if (value === '') break;
    const seconds = Number(value) * 1000;
    const ms =
      seconds >= TIMESTAMP_THRESHOLD_MS
        ? seconds - now
        : Number.isNaN(seconds)
          ? Date.parse(value) - now
          : seconds;
    return Number.isFinite(ms)
      ? { kind: 'wait', ms: Math.max(0, ms) }
      : { kind: 'unparsable', header, value };
  }
  return { kind: 'none' };
}

/**
 * When a failed webhook delivery is tried again: exponential backoff with full jitter.
 *
 * Why jitter: after an outage every subscription of a receiver failed at about the same
 * time; without it their retries would arrive together, again and again. Full jitter
 * (a uniform delay up to the exponential ceiling) spreads them the most.
 */

/** How retries are spaced. */
export interface Backoff {
  /** Ceiling of the first retry's delay; doubled for each further failure. Default 1000 ms. */
  baseMs: number;
  /** Largest ceiling. Default one hour. */
  maxMs: number;
}

/** The spacing the server uses: 1 s, 2 s, 4 s … capped at one hour, each with full jitter. */
export const DEFAULT_BACKOFF: Readonly<Backoff> = Object.freeze({
  baseMs: 1000,
  maxMs: 60 * 60 * 1000,
});

/**
 * The delay before retrying after the `failures`-th failure in a row (1 for the
 * first): uniform from 1 ms to `min(maxMs, baseMs * 2^(failures - 1))`, given `random`
 * in [0, 1) (`Math.random`, or a test's).
 *
 * @example
 * ```ts
 * import { retryDelayMs } from './backoff.js';
 *
 * retryDelayMs(1, Math.random); // 1 … 1000
 * retryDelayMs(4, () => 0.5); // 4000
 * retryDelayMs(30, () => 0.999, { baseMs: 1000, maxMs: 3_600_000 }); // just under an hour
 * ```
 */
export function retryDelayMs(
  failures: number,
  random: () => number,
  backoff: Backoff = DEFAULT_BACKOFF,
): number {
  // 2^(failures - 1) overflows nothing: past the cap the exponent stops mattering.
  const exponent = Math.min(Math.max(failures, 1) - 1, 52);
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** exponent);
  // At least 1 ms: a retry is never due at the instant it failed (a frozen test clock
  // with `random` at 0 would otherwise retry forever).
  return Math.max(1, Math.floor(random() * ceiling));
}

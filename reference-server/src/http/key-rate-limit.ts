/**
 * A rate limit per API key (`AppOptions.keyRateLimit`, `--key-rate`): a server that
 * limits its clients like the servers in the wild do (Action Network: 4 requests a
 * second per key), so that a client's handling of 429 can be tested against it.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';
import { MAX_WINDOW_CALLS, rateLimited, SlidingWindows } from './rate-limit.js';
import { requestHeader } from './request-header.js';

/**
 * Refuses a keyed call beyond its key's limit with 429 `RATE_LIMITED` and `Retry-After`
 * (whole seconds, at least 1). Registered after authentication: only calls with a known
 * key are counted, each key on its own; calls without a key pass untouched (they have
 * their own limit, per address).
 */
export function keyRateLimit(
  windows: SlidingWindows,
  apiKeyHeader: string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('auth') === undefined) return next();
    const token = requestHeader(c, apiKeyHeader);
    if (token === undefined) return next();
    const result = windows.take(token);
    if (!result.allowed) {
      throw rateLimited(
        result.retryAfterSeconds,
        'too many calls with this API key',
        'space your calls out, and after a 429 wait for Retry-After seconds',
      );
    }
    return next();
  };
}

/**
 * How {@link checkKeyRate} names the rate it refuses: the option (`keyRateLimit`, or
 * the command line's `--key-rate`) and how to ask for no limit instead.
 */
export interface KeyRateNames {
  /** The option, as the caller wrote it. Default `keyRateLimit`. */
  name?: string;
  /** How to have no limit instead. Default `false`. */
  unlimited?: string;
}

/**
 * Checks a per-key rate: an integer number of calls a second from 1 to
 * {@link MAX_WINDOW_CALLS}, given as a number (`AppOptions.keyRateLimit`) or as the
 * digits of a command line (`--key-rate`). Returns it as a number; throws a
 * `RangeError` naming the option, the value as given, and how to have no limit. The one
 * check of both: `keyWindowsFor` and the command line use it.
 *
 * @example
 * ```ts
 * import { checkKeyRate } from './key-rate-limit.js';
 *
 * checkKeyRate(4); // 4
 * checkKeyRate('4', { name: '--key-rate', unlimited: 'leave it out' }); // 4
 * checkKeyRate(0); // RangeError: keyRateLimit must be an integer from 1 to 10000, got 0 (false for no limit)
 * ```
 */
export function checkKeyRate(rate: number | string, names: KeyRateNames = {}): number {
  const value = typeof rate === 'number' ? rate : /^\d+$/.test(rate) ? Number(rate) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_WINDOW_CALLS) {
    const given = typeof rate === 'string' ? JSON.stringify(rate) : String(rate);
    throw new RangeError(
      `${names.name ?? 'keyRateLimit'} must be an integer from 1 to ${MAX_WINDOW_CALLS}, got ${given} (${names.unlimited ?? 'false'} for no limit)`,
    );
  }
  return value;
}

/**
 * The windows of `AppOptions.keyRateLimit`: `rate` calls per key in any rolling second,
 * or undefined for `false` (no limit). Throws a `RangeError` naming the option for a
 * rate that is not an integer from 1 to {@link MAX_WINDOW_CALLS} ({@link checkKeyRate}).
 *
 * @example
 * ```ts
 * import { keyWindowsFor } from './key-rate-limit.js';
 *
 * keyWindowsFor(4); // SlidingWindows of 4 calls a second
 * keyWindowsFor(false); // undefined
 * ```
 */
export function keyWindowsFor(
  rate: number | false,
  now?: () => number,
): SlidingWindows | undefined {
  if (rate === false) return undefined;
  return new SlidingWindows({ calls: checkKeyRate(rate), ...(now ? { now } : {}) });
}

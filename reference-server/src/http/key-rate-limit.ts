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
 *
 * @example
 * ```ts
 * app.use('/api/v1/*', keyRateLimit(new SlidingWindows({ calls: 4 }), 'OSDI-API-Token'));
 * ```
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
 * The windows of `AppOptions.keyRateLimit`: `rate` calls per key in any rolling second,
 * or undefined for `false` (no limit). Throws a `RangeError` naming the option for a
 * rate that is not a whole number from 1 to {@link MAX_WINDOW_CALLS}.
 *
 * @example
 * ```ts
 * keyWindowsFor(4); // SlidingWindows of 4 calls a second
 * keyWindowsFor(false); // undefined
 * ```
 */
export function keyWindowsFor(rate: number | false): SlidingWindows | undefined {
  if (rate === false) return undefined;
  if (!Number.isInteger(rate) || rate < 1 || rate > MAX_WINDOW_CALLS) {
    throw new RangeError(
      `keyRateLimit must be a whole number of calls from 1 to ${MAX_WINDOW_CALLS}, or false, got ${rate}`,
    );
  }
  return new SlidingWindows({ calls: rate });
}

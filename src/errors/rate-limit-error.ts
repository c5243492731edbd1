import { type HTTPErrorInit, ResponseStatusError } from './response-status-error.js';

/** What a {@link RateLimitError} is built from: the answer, and the two waits. */
export interface RateLimitErrorInit extends HTTPErrorInit {
  /** The wait the server asked for, in milliseconds. */
  retryAfter: number;
  /** The longest wait the caller allows (`retry.maxRetryAfter`), in milliseconds. */
  maxRetryAfter: number;
}

/**
 * The server asked the SDK to wait before trying again (a 429, or a 503 with
 * `Retry-After` or a rate-limit reset header) for longer than `retry.maxRetryAfter`
 * allows, so the call fails now instead of sleeping. `retryAfter` is the wait the server
 * asked for: a script can sleep that long and resume, or give up.
 *
 * A wait within the cap is simply waited (and retried, for idempotent calls); a 429 that
 * is still refused after the last retry is an {@link HTTPError}.
 *
 * @example
 * ```ts
 * import { isRateLimitError } from 'adis-sdk';
 *
 * try {
 *   await client.people.toArray({ limit: 100 });
 * } catch (error) {
 *   if (isRateLimitError(error)) console.warn(`come back in ${error.retryAfter / 1000} s`);
 * }
 * ```
 */
export class RateLimitError extends ResponseStatusError {
  /** Always `'RATE_LIMITED'`. */
  readonly code = 'RATE_LIMITED' as const;
  /** Always `'RateLimitError'`. */
  override readonly name = 'RateLimitError' as const;
  /** The wait the server asked for, in milliseconds. */
  declare readonly retryAfter: number;
  /** The cap it exceeded (`retry.maxRetryAfter`), in milliseconds. */
  declare readonly maxRetryAfter: number;

  /**
   * Builds the error; the message gives both waits in seconds.
   *
   * @param init - The request, the answer (body already read) and the two waits.
   */
  constructor(init: RateLimitErrorInit) {
    const status = `${init.status} ${init.statusText}`.trim();
    super(
      `Rate limited (status ${status}): the server asks to wait ${seconds(init.retryAfter)} s, ` +
        `more than the ${seconds(init.maxRetryAfter)} s allowed by retry.maxRetryAfter: ${init.method} ${init.url}`,
      init,
    );
    this.retryAfter = init.retryAfter;
    this.maxRetryAfter = init.maxRetryAfter;
  }
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

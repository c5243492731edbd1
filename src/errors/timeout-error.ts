import { AdisError } from './adis-error.js';

/**
 * An attempt got no response within the per-attempt timeout (after any retries the
 * request was allowed).
 *
 * @example
 * ```ts
 * try {
 *   await transport.request({ method: 'GET', url, timeout: 5_000 });
 * } catch (error) {
 *   if (isTimeoutError(error)) console.warn(`gave up after ${error.timeout} ms`);
 * }
 * ```
 */
export class TimeoutError extends AdisError {
  readonly code = 'TIMEOUT' as const;
  override readonly name = 'TimeoutError' as const;
  readonly method: string;
  readonly url: string;
  /** The per-attempt timeout that ran out, in milliseconds. */
  readonly timeout: number;

  constructor(method: string, url: string, timeout: number, options?: { cause?: unknown }) {
    super(`Request timed out after ${timeout} ms: ${method} ${url}`, options);
    this.method = method;
    this.url = url;
    this.timeout = timeout;
  }
}

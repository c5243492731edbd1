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
  /** Always `'TIMEOUT'`. */
  readonly code = 'TIMEOUT' as const;
  /** Always `'TimeoutError'`. */
  override readonly name = 'TimeoutError' as const;
  /** The request's method. */
  readonly method: string;
  /** The request's URL. */
  readonly url: string;
  /** The per-attempt timeout that ran out, in milliseconds. */
  readonly timeout: number;

  /**
   * Builds the error; the message names the timeout and the request.
   *
   * @param method - The request's method.
   * @param url - The request's URL.
   * @param timeout - The per-attempt timeout that ran out, in milliseconds.
   * @param options - `cause`: the underlying timeout error, when there is one.
   *
   * @example
   * ```ts
   * const error = new TimeoutError('GET', url, 30_000);
   * ```
   */
  constructor(method: string, url: string, timeout: number, options?: { cause?: unknown }) {
    super(`Request timed out after ${timeout} ms: ${method} ${url}`, options);
    this.method = method;
    this.url = url;
    this.timeout = timeout;
  }
}

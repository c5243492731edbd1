import { AdisError } from './adis-error.js';

/**
 * Which timeout ran out: `attempt`, the whole attempt (headers and body) took longer
 * than `timeout`; `idle`, the body stopped arriving for longer than `idleTimeout`.
 */
export type TimeoutPhase = 'attempt' | 'idle';

/**
 * An attempt ran out of time (after any retries the request was allowed): it took
 * longer than `timeout` from start to the end of its body, or its body stalled for
 * longer than `idleTimeout` between two chunks.
 *
 * @example
 * ```ts
 * import { connect, isTimeoutError } from 'adis-sdk';
 *
 * const client = await connect('https://api.example.org/api/v1/', { timeout: 5_000 });
 * try {
 *   await client.people.get('https://api.example.org/api/v1/people/1');
 * } catch (error) {
 *   if (isTimeoutError(error)) console.warn(`gave up after ${error.timeout} ms (${error.phase})`);
 * }
 * ```
 */
export class TimeoutError extends AdisError {
  /** Always `'TIMEOUT'`. */
  readonly code = 'TIMEOUT' as const;
  /** Always `'TimeoutError'`. */
  override readonly name = 'TimeoutError' as const;
  /** The request's method. */
  declare readonly method: string;
  /** The request's URL. */
  declare readonly url: string;
  /** The timeout that ran out, in milliseconds. */
  declare readonly timeout: number;
  /** Which timeout ran out: the attempt's, or the idle time between body chunks. */
  declare readonly phase: TimeoutPhase;

  /**
   * Builds the error; the message names the timeout and the request.
   *
   * @param method - The request's method.
   * @param url - The request's URL.
   * @param timeout - The timeout that ran out, in milliseconds.
   * @param options - `cause`: the underlying timeout error, when there is one; `phase`:
   *   which timeout ran out (default `attempt`).
   */
  constructor(
    method: string,
    url: string,
    timeout: number,
    options?: { cause?: unknown; phase?: TimeoutPhase },
  ) {
    const phase = options?.phase ?? 'attempt';
    const what =
      phase === 'idle'
        ? `Response body stalled for ${timeout} ms`
        : `Request timed out after ${timeout} ms`;
    super(
      `${what}: ${method} ${url}`,
      options?.cause === undefined ? {} : { cause: options.cause },
    );
    this.method = method;
    this.url = url;
    this.timeout = timeout;
    this.phase = phase;
  }
}

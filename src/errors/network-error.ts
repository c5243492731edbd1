import { AdisError } from './adis-error.js';

/**
 * The request never got a response: DNS, refused connection, TLS, CORS, a dropped
 * socket. `cause` is what `fetch` threw.
 *
 * @example
 * ```ts
 * import { isNetworkError } from 'adis-sdk';
 *
 * try {
 *   await client.people.get('https://api.example.org/api/v1/people/1');
 * } catch (error) {
 *   if (isNetworkError(error)) console.warn('offline?', error.cause);
 * }
 * ```
 */
export class NetworkError extends AdisError {
  /** Always `'NETWORK'`. */
  readonly code = 'NETWORK' as const;
  /** Always `'NetworkError'`. */
  override readonly name = 'NetworkError' as const;
  /** The request's method. */
  declare readonly method: string;
  /** The request's URL. */
  declare readonly url: string;

  /**
   * Builds the error; the message names what failed, from `cause` and its own `cause`.
   *
   * @param method - The request's method.
   * @param url - The request's URL.
   * @param cause - What `fetch` threw; kept as `cause`, and its reason named in the message.
   */
  constructor(method: string, url: string, cause: unknown) {
    super(`Network error: ${method} ${url}${reasonOf(cause)}`, { cause });
    this.method = method;
    this.url = url;
  }
}

// Node's fetch says only "fetch failed" and keeps the useful part (ECONNREFUSED,
// ENOTFOUND) one level down, so name both.
function reasonOf(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const inner = cause.cause instanceof Error ? cause.cause : undefined;
  const innerCode = (inner as { code?: unknown } | undefined)?.code;
  const innerText = typeof innerCode === 'string' ? innerCode : inner?.message;
  return innerText ? ` (${cause.message}: ${innerText})` : ` (${cause.message})`;
}

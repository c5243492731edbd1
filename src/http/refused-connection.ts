// How deep the cause chain is searched: the SDK's NetworkError, fetch's TypeError, the
// socket's error, and room for a proxy's wrapper or two.
const MAX_CAUSES = 6;

/**
 * Whether a failed exchange provably sent nothing: somewhere in its chain of causes is
 * an error whose `code` is `ECONNREFUSED` (how Node's fetch, undici, reports a
 * connection the server's host refused: no connection, so no request). Such a call may
 * be repeated whatever its method. Every other failure proves nothing: a reset or a
 * timeout can come after the server acted, and browsers report every failure as the
 * same bare `TypeError` ("Failed to fetch"), which is therefore never counted here.
 *
 * @example
 * ```ts
 * import { NetworkError } from 'adis-sdk';
 * import { refusedBeforeSending } from './refused-connection.js';
 *
 * // What fetch('http://127.0.0.1:1/') rejects with under Node:
 * const fetchError = new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
 * refusedBeforeSending(new NetworkError('POST', 'http://127.0.0.1:1/', fetchError)); // true
 * refusedBeforeSending(new TypeError('Failed to fetch')); // false
 * ```
 */
export function refusedBeforeSending(error: unknown): boolean {
  let current = error;
  for (
    let depth = 0;
    depth < MAX_CAUSES && typeof current === 'object' && current !== null;
    depth++
  ) {
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

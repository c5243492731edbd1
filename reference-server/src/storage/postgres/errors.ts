/**
 * How PostgreSQL errors read through the {@link Storage} contract, decided in one place:
 * a database that cannot be reached or cannot take more work now becomes
 * {@link StorageUnavailableError} (the HTTP layer answers 503 with Retry-After);
 * everything else is the caller's to handle.
 */
import { StorageUnavailableError } from '../storage.js';

/** Node socket errors meaning the server is not there (now). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server going away or not yet accepting work: admin shutdown, crash
 * shutdown, cannot connect now (starting up, in recovery), too many connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Messages of `pg` for a connection lost or never made (it sets no code on them):
 * the pool's wait for a free client (`connectionTimeoutMillis`) and a socket closed
 * under a query.
 */
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
];

/** SQLSTATEs after which the whole transaction may simply run again. */
const RETRYABLE_STATES = new Set(['40001', '40P01']);

/** The `code` of an error from `pg` or Node, if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Whether `error` says the database cannot be reached or cannot take work now.
 *
 * @example
 * ```ts
 * import { isUnavailable } from './errors.js';
 *
 * isUnavailable(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })); // true
 * isUnavailable(Object.assign(new Error('dup'), { code: '23505' })); // false
 * ```
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof StorageUnavailableError) return true;
  const code = errorCode(error);
  if (code !== undefined) {
    if (UNREACHABLE_CODES.has(code) || UNAVAILABLE_STATES.has(code)) return true;
    // Class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  const message = error instanceof Error ? error.message : '';
  return UNAVAILABLE_MESSAGES.some((part) => message.includes(part));
}

/**
 * Whether `error` is a serialization failure or a deadlock: the transaction was rolled
 * back by the server and running it again is the documented remedy.
 */
export function isRetryable(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && RETRYABLE_STATES.has(code);
}

/**
 * `error` as the storage contract reports it: {@link StorageUnavailableError} (with a
 * Retry-After of 1 to 5 seconds) when the database cannot be reached or take more work,
 * else `error` itself.
 */
export function mapError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError || !isUnavailable(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  // Spread clients' retries over a few seconds rather than all at the same instant.
  const retryAfterSeconds = 1 + Math.floor(Math.random() * 5);
  return new StorageUnavailableError(`database unavailable: ${message}`, {
    cause: error,
    retryAfterSeconds,
  });
}

import type { RetryOptions as KyRetryOptions, ShouldRetryState } from 'ky';

/**
 * When and how often the transport retries. Only idempotent methods (GET, PUT, DELETE)
 * are ever retried: a POST or PATCH that timed out may have been applied.
 *
 * @example
 * ```ts
 * createTransport({ retry: { limit: 5, backoffLimit: 5_000, maxRetryAfter: 60_000 } });
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  limit?: number;
  /** Longest backoff between attempts, ms (before jitter). Default 10 000. */
  backoffLimit?: number;
  /** Longest wait a `Retry-After` header may impose, ms. Default: no limit. */
  maxRetryAfter?: number;
  /** Statuses that are retried. Default 408, 429, 500, 502, 503, 504 (never 413). */
  statusCodes?: readonly number[];
  /** Statuses whose `Retry-After` header is honoured. Default 429, 503. */
  afterStatusCodes?: readonly number[];
  /** Randomise each backoff between 0 and its computed value (full jitter). Default true. */
  jitter?: boolean;
}

/** Retried statuses. 413 is left out: the same body will be too large again. */
export const DEFAULT_RETRY_STATUS_CODES: readonly number[] = [408, 429, 500, 502, 503, 504];
/** Statuses whose Retry-After is honoured. */
export const DEFAULT_RETRY_AFTER_STATUS_CODES: readonly number[] = [429, 503];
/** Default number of retries. */
export const DEFAULT_RETRY_LIMIT = 3;

const IDEMPOTENT_METHODS = ['get', 'put', 'delete'];

/**
 * Translates the SDK's retry options into ky's, so ky's own machinery (exponential
 * backoff, jitter, Retry-After parsing, retry on timeout) does the work.
 *
 * @example
 * ```ts
 * ky(url, { retry: toKyRetry(3, () => undefined) });
 * ```
 */
export function toKyRetry(
  retry: RetryOptions | number | false | undefined,
  shouldRetry: (state: ShouldRetryState) => boolean | undefined,
): KyRetryOptions {
  const options: RetryOptions =
    typeof retry === 'number' ? { limit: retry } : retry === false ? { limit: 0 } : (retry ?? {});
  return {
    limit: options.limit ?? DEFAULT_RETRY_LIMIT,
    methods: IDEMPOTENT_METHODS,
    statusCodes: [...(options.statusCodes ?? DEFAULT_RETRY_STATUS_CODES)],
    afterStatusCodes: [...(options.afterStatusCodes ?? DEFAULT_RETRY_AFTER_STATUS_CODES)],
    backoffLimit: options.backoffLimit ?? 10_000,
    ...(options.maxRetryAfter === undefined ? {} : { maxRetryAfter: options.maxRetryAfter }),
    jitter: options.jitter ?? true,
    retryOnTimeout: true,
    shouldRetry,
  };
}

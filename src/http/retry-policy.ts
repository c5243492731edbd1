import type { RetryOptions as KyRetryOptions, ShouldRetryState } from 'ky';

/**
 * When and how often the transport retries. Only calls that are safe to repeat are
 * ever retried: the idempotent methods (GET, PUT, DELETE) and a POST that carries an
 * `Idempotency-Key` (creates and helper calls, unless keys are turned off). A POST
 * without a key, or a PATCH, that timed out may have been applied, and is not retried.
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
  /**
   * Longest wait a server may ask for with `Retry-After` (or a rate-limit reset
   * header), ms. A longer request fails at once with a `RateLimitError` that carries
   * the wait asked for. Default 60 000; `Infinity` waits whatever the server says.
   */
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
/** Default longest backoff between attempts, ms. */
export const DEFAULT_BACKOFF_LIMIT = 10_000;
/** Default longest wait a server may ask for before the call fails instead, ms. */
export const DEFAULT_MAX_RETRY_AFTER = 60_000;

/**
 * Retried on a POST that carries an `Idempotency-Key` only, and its `Retry-After`
 * honoured: 409 with `Retry-After`, which a server answers while a request with the same
 * key is still in progress (the reference server's `IDEMPOTENCY_KEY_IN_PROGRESS`). A 409
 * without `Retry-After`, or on any other call, is a conflict that another attempt will
 * not change.
 */
export const KEYED_POST_RETRY_STATUS_CODES: readonly number[] = [409];

/**
 * Whether a status is one of {@link KEYED_POST_RETRY_STATUS_CODES}: retried on a keyed
 * POST only when the answer carries `Retry-After`.
 *
 * @example
 * ```ts
 * isKeyedRetryStatus(409); // true
 * ```
 */
export function isKeyedRetryStatus(status: number): boolean {
  return KEYED_POST_RETRY_STATUS_CODES.includes(status);
}

const IDEMPOTENT_METHODS = ['get', 'put', 'delete'];

/** The retry options with every default filled in. */
export interface RetryPolicy {
  limit: number;
  backoffLimit: number;
  maxRetryAfter: number;
  statusCodes: readonly number[];
  afterStatusCodes: readonly number[];
  jitter: boolean;
}

/**
 * Fills in the defaults of the retry options, and refuses values that could only make
 * a request wait forever or fail inside ky (a `RangeError` now, when the transport is
 * created, rather than in the middle of a run).
 *
 * @example
 * ```ts
 * retryPolicy(5).limit; // 5
 * retryPolicy(undefined).maxRetryAfter; // 60_000
 * ```
 */
export function retryPolicy(retry: RetryOptions | number | false | undefined): RetryPolicy {
  const options: RetryOptions =
    typeof retry === 'number' ? { limit: retry } : retry === false ? { limit: 0 } : (retry ?? {});
  const policy: RetryPolicy = {
    limit: options.limit ?? DEFAULT_RETRY_LIMIT,
    backoffLimit: options.backoffLimit ?? DEFAULT_BACKOFF_LIMIT,
    maxRetryAfter: options.maxRetryAfter ?? DEFAULT_MAX_RETRY_AFTER,
    statusCodes: options.statusCodes ?? DEFAULT_RETRY_STATUS_CODES,
    afterStatusCodes: options.afterStatusCodes ?? DEFAULT_RETRY_AFTER_STATUS_CODES,
    jitter: options.jitter ?? true,
  };
  if (!Number.isInteger(policy.limit) || policy.limit < 0) {
    throw new RangeError(`retry.limit must be a whole number of 0 or more, got ${policy.limit}`);
  }
  for (const name of ['backoffLimit', 'maxRetryAfter'] as const) {
    const value = policy[name];
    if (Number.isNaN(value) || value < 0) {
      throw new RangeError(`retry.${name} must be 0 or more milliseconds, got ${value}`);
    }
  }
  return policy;
}

/**
 * The policy for a POST that carries an `Idempotency-Key`: the same limit and waits,
 * and 409 (a request with the same key in progress) retried after its `Retry-After`.
 *
 * @example
 * ```ts
 * keyedPostPolicy(retryPolicy(undefined)).statusCodes; // [408, 429, 500, 502, 503, 504, 409]
 * ```
 */
export function keyedPostPolicy(policy: RetryPolicy): RetryPolicy {
  return {
    ...policy,
    statusCodes: [...policy.statusCodes, ...KEYED_POST_RETRY_STATUS_CODES],
    afterStatusCodes: [...policy.afterStatusCodes, ...KEYED_POST_RETRY_STATUS_CODES],
  };
}

/**
 * Translates the retry policy into ky's options, so ky's own machinery (exponential
 * backoff, jitter, Retry-After waits, retry on timeout) does the work. `shouldRetry`
 * decides first, so that a wait over the cap or an unreadable header never reaches
 * ky's Retry-After arithmetic. `retryPost` adds POST to the retried methods, for a POST
 * that carries an `Idempotency-Key` (with {@link keyedPostPolicy}).
 *
 * @example
 * ```ts
 * ky(url, { retry: toKyRetry(retryPolicy(3), () => undefined) });
 * ky(url, { method: 'POST', retry: toKyRetry(keyedPostPolicy(retryPolicy(3)), () => undefined, true) });
 * ```
 */
export function toKyRetry(
  policy: RetryPolicy,
  shouldRetry: (state: ShouldRetryState) => boolean | undefined,
  retryPost = false,
): KyRetryOptions {
  return {
    limit: policy.limit,
    methods: retryPost ? [...IDEMPOTENT_METHODS, 'post'] : IDEMPOTENT_METHODS,
    statusCodes: [...policy.statusCodes],
    afterStatusCodes: [...policy.afterStatusCodes],
    backoffLimit: policy.backoffLimit,
    maxRetryAfter: policy.maxRetryAfter,
    jitter: policy.jitter,
    retryOnTimeout: true,
    shouldRetry,
  };
}

import type { RetryOptions as KyRetryOptions, ShouldRetryState } from 'ky';

/**
 * When and how often the transport retries. Calls that are safe to repeat are retried
 * after any transient failure: the idempotent methods (GET, PUT, DELETE), and a POST
 * that carries an `Idempotency-Key` to a server known to honour it (`idempotencyKeys:
 * 'honoured'`, or the server said so). Any other call (a POST to a server that may
 * ignore the key, a POST without one, a PATCH) may have been applied when it failed,
 * and is retried only after a failure that proves it was not: a 429, or a connection
 * refused before anything was sent.
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
 * Retried only on a POST that carries an `Idempotency-Key` its server honours, and its
 * `Retry-After` honoured: 409 with `Retry-After`, which a server answers while a request with the same
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

const IDEMPOTENT_METHODS = ['GET', 'PUT', 'DELETE'];
// Every method the SDK sends: ky is allowed to retry each, and the transport's
// `shouldRetry` decides, per failure, which calls may be repeated.
const KY_METHODS = ['get', 'put', 'delete', 'post', 'patch'];

/**
 * The one status after which any call is retried, whatever its method and whatever the
 * server does with `Idempotency-Key`: a 429 refuses the request without acting on it.
 *
 * @example
 * ```ts
 * if (response.status === UNAPPLIED_STATUS) retry(); // nothing was done: safe to send again
 * ```
 */
export const UNAPPLIED_STATUS = 429;

/**
 * Whether a method is idempotent (GET, PUT, DELETE): a repeat changes nothing more, so
 * it is retried after any transient failure.
 *
 * @example
 * ```ts
 * isIdempotentMethod('PUT'); // true
 * isIdempotentMethod('POST'); // false
 * ```
 */
export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.includes(method);
}

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
 * backoff, jitter, Retry-After waits, retry on timeout) does the work. Every method is
 * listed as retryable: `shouldRetry` decides first, per failure, whether this call may
 * be repeated at all (a POST or PATCH only after a failure that applied nothing, unless
 * its key is honoured), and keeps a wait over the cap or an unreadable header from ky's
 * Retry-After arithmetic.
 *
 * @example
 * ```ts
 * ky(url, { retry: toKyRetry(retryPolicy(3), () => undefined) });
 * ky(url, { method: 'POST', retry: toKyRetry(keyedPostPolicy(retryPolicy(3)), decide) });
 * ```
 */
export function toKyRetry(
  policy: RetryPolicy,
  shouldRetry: (state: ShouldRetryState) => boolean | undefined,
): KyRetryOptions {
  return {
    limit: policy.limit,
    methods: KY_METHODS,
    statusCodes: [...policy.statusCodes],
    afterStatusCodes: [...policy.afterStatusCodes],
    backoffLimit: policy.backoffLimit,
    maxRetryAfter: policy.maxRetryAfter,
    jitter: policy.jitter,
    retryOnTimeout: true,
    shouldRetry,
  };
}

import type { RetryOptions as KyRetryOptions, ShouldRetryState } from 'ky';
import {
  backoffSchedule,
  KEYED_POST_RETRY_STATUS_CODES,
  type RetryPolicy,
} from './retry-policy.js';

// Every method the SDK sends: ky may retry each, and `shouldRetry` (the policy's
// verdict) decides, per failure, which calls may be repeated.
const KY_METHODS = ['get', 'put', 'delete', 'post', 'patch'];

/**
 * Translates the retry policy into ky's options, so that ky's own machinery (attempts,
 * backoff with jitter, the wait a `Retry-After` names, retry on timeout) does the work
 * the policy decides. `shouldRetry` answers first, for every failure: `false` (not
 * again), `true` (again after the backoff) or `undefined` (again after the wait the
 * answer names, which ky reads as `requestedWait` does). On a keyed POST 409 is listed
 * too, so that ky waits the `Retry-After` of a request with the same key in progress.
 *
 * @example
 * ```ts
 * import ky from 'ky';
 * import { toKyRetry } from './ky-retry.js';
 * import { retryPolicy } from './retry-policy.js';
 *
 * await ky('https://api.example.org/api/v1/', { retry: toKyRetry(retryPolicy(3), false, () => undefined) });
 * ```
 */
export function toKyRetry(
  policy: RetryPolicy,
  keyed: boolean,
  shouldRetry: (state: ShouldRetryState) => boolean | undefined,
): KyRetryOptions {
  const keyedCodes = keyed ? KEYED_POST_RETRY_STATUS_CODES : [];
  return {
    limit: policy.limit,
    methods: KY_METHODS,
    statusCodes: [...policy.statusCodes, ...keyedCodes],
    afterStatusCodes: [...policy.afterStatusCodes, ...keyedCodes],
    delay: backoffSchedule,
    backoffLimit: policy.backoffLimit,
    maxRetryAfter: policy.maxRetryAfter,
    jitter: policy.jitter,
    retryOnTimeout: true,
    shouldRetry,
  };
}

import { requestedWait } from '../wire/retry-after.js';

// The one retry policy of the SDK. The navigator's transport (where ky does the
// attempts), `callHelper` (its own small loop: a page cannot load ky) and the offline
// signup queue (which sends a kept call again later) all ask `retryVerdict` whether a
// failed call may be sent again and after how long, and `backoffDelay` how long a
// backoff is: one table, one reading of Retry-After, the same limits. docs/errors.md
// shows the table.

/**
 * When and how often a failed call is sent again: the `retry` option of the client,
 * of `callHelper` (and every helper function) and of the offline signup queue, the same
 * shape everywhere. A number is the limit; `false` sends nothing again.
 *
 * Calls that are safe to repeat are sent again after any transient failure: the
 * idempotent methods (GET, PUT, DELETE), and a POST that carries an `Idempotency-Key`
 * to a server known to honour it. Any other call (a POST to a server that may ignore
 * the key, a POST without one, a PATCH) may have been applied when it failed, and is
 * sent again only after a failure that proves it was not: a 429, or a connection
 * refused before anything was sent.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 * import { createSignupQueue } from 'adis-sdk/helpers';
 *
 * // A script may wait for a busy server; the same shape for a page's queue.
 * const client = await connect('https://api.example.org/api/v1/', { retry: { limit: 5, maxRetryAfter: 120_000 } });
 * const queue = createSignupQueue({ retry: { backoffLimit: 60_000 } });
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  limit?: number;
  /** Longest backoff between attempts, ms (before jitter). Default 10 000. */
  backoffLimit?: number;
  /**
   * Longest wait a server may ask for with `Retry-After` (seconds or an HTTP date) or a
   * rate-limit reset header, ms. A longer request ends the call at once with the
   * answer (a `RateLimitError` from the client, that carries the wait asked for).
   * Default 60 000; `Infinity` waits whatever the server says.
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
// The first backoff, doubled at each retry (ky's schedule: 0.3 s, 0.6 s, 1.2 s…).
const BACKOFF_BASE = 300;

/**
 * Retried only on a POST that carries an `Idempotency-Key` its server honours, and only
 * after the `Retry-After` it carries: a 409 with `Retry-After` is what a server answers
 * while a request with the same key is still in progress (the reference server's
 * `IDEMPOTENCY_KEY_IN_PROGRESS`). A 409 without it, or on any other call, is a conflict
 * that another attempt will not change. Only `Retry-After` is read on it: the
 * rate-limit reset headers some servers send on every answer say nothing of a conflict.
 */
export const KEYED_POST_RETRY_STATUS_CODES: readonly number[] = [409];

/** The one status after which any call is sent again: a 429 refuses without acting. */
export const UNAPPLIED_STATUS = 429;

const IDEMPOTENT_METHODS = ['GET', 'PUT', 'DELETE'];
const ONLY_RETRY_AFTER = ['retry-after'];

/**
 * Whether a method is idempotent (GET, PUT, DELETE): a repeat changes nothing more, so
 * it is retried after any transient failure.
 *
 * @example
 * ```ts
 * import { isIdempotentMethod } from './retry-policy.js';
 *
 * isIdempotentMethod('PUT'); // true
 * isIdempotentMethod('POST'); // false
 * ```
 */
export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.includes(method);
}

/** The retry options with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** The policy when nothing is set: the defaults above, as one piece of data. */
const DEFAULT_RETRY_POLICY: RetryPolicy = {
  limit: DEFAULT_RETRY_LIMIT,
  backoffLimit: DEFAULT_BACKOFF_LIMIT,
  maxRetryAfter: DEFAULT_MAX_RETRY_AFTER,
  statusCodes: DEFAULT_RETRY_STATUS_CODES,
  afterStatusCodes: DEFAULT_RETRY_AFTER_STATUS_CODES,
  jitter: true,
};

/**
 * Fills in the defaults of the retry options, and refuses values that could only make
 * a call wait forever or fail inside its loop (a `RangeError` when the client, call or
 * queue is made, rather than in the middle of a run).
 *
 * @example
 * ```ts
 * import { retryPolicy } from './retry-policy.js';
 *
 * retryPolicy(5).limit; // 5
 * retryPolicy(undefined).maxRetryAfter; // 60_000
 * ```
 */
export function retryPolicy(retry: RetryOptions | number | false | undefined): RetryPolicy {
  const options: RetryOptions =
    typeof retry === 'object' ? retry : { limit: retry === false ? 0 : retry };
  const policy: Record<string, unknown> = { ...DEFAULT_RETRY_POLICY };
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    // A negative, NaN or fractional limit, or a negative wait, could only make a call
    // wait forever or never: refused where the option is given.
    if (typeof value === 'number' && !(value >= 0 && (name !== 'limit' || value % 1 === 0))) {
      throw new RangeError(`retry.${name} must be a number of 0 or more, got ${value}`);
    }
    policy[name] = value;
  }
  return policy as RetryPolicy;
}

/**
 * A failed attempt, as the policy tells them apart: an answer (its status and headers),
 * `'unsent'` (the connection was refused: nothing reached the server) or `'lost'` (a
 * network error or a timeout after the request may have been sent).
 */
export type RetryFailure = { status: number; headers: Headers } | 'unsent' | 'lost';

/**
 * What the policy knows of the call: whether a repeat is safe (an idempotent method,
 * or a POST whose key its server honours) and whether it carries an `Idempotency-Key`.
 */
export interface RetryCall {
  repeatSafe: boolean;
  keyed: boolean;
}

/**
 * The policy's answer for one failure: `retry` whether to send the call again, and
 * `wait` the milliseconds the server asked for (absent: the backoff). `retry: false`
 * with a `wait` is a server asking for longer than `maxRetryAfter`: the call ends
 * with the answer (the queue, which keeps the call, sends it then).
 */
export interface RetryVerdict {
  retry: boolean;
  wait?: number;
}

/**
 * Whether a failed call may be sent again, and after how long (the limit on attempts is
 * the caller's count). The rules, in order:
 *
 * - a refused connection: again, after the backoff (nothing was sent);
 * - a network error or a timeout: again only when a repeat is safe;
 * - an answer: its status must be 429 or the repeat safe, and in `statusCodes` (or a
 *   409 on a keyed POST, and only with `Retry-After`); then the wait the server asks
 *   for (for `afterStatusCodes`), or the backoff when it names none or one that cannot
 *   be read; a wait over `maxRetryAfter` ends the call.
 *
 * @example
 * ```ts
 * import { retryPolicy, retryVerdict } from './retry-policy.js';
 *
 * const policy = retryPolicy(undefined);
 * const answer = { status: 503, headers: new Headers({ 'retry-after': '2' }) };
 * retryVerdict(policy, answer, { repeatSafe: true, keyed: true }); // { retry: true, wait: 2000 }
 * retryVerdict(policy, answer, { repeatSafe: false, keyed: true }); // { retry: false }
 * retryVerdict(policy, 'unsent', { repeatSafe: false, keyed: false }); // { retry: true }
 * ```
 */
export function retryVerdict(
  policy: RetryPolicy,
  failure: RetryFailure,
  { repeatSafe, keyed }: RetryCall,
): RetryVerdict {
  if (typeof failure === 'string') return { retry: failure === 'unsent' || repeatSafe };
  const { status } = failure;
  const inProgress = keyed && KEYED_POST_RETRY_STATUS_CODES.includes(status);
  const wait =
    inProgress || policy.afterStatusCodes.includes(status)
      ? requestedWait(failure.headers, Date.now(), inProgress ? ONLY_RETRY_AFTER : undefined)
      : undefined;
  if (
    !(status === UNAPPLIED_STATUS || repeatSafe) ||
    !(inProgress || policy.statusCodes.includes(status)) ||
    // A 409 without Retry-After is a conflict, not a request with this key in progress.
    (inProgress && wait?.kind === 'none')
  )
    return { retry: false };
  // A header that cannot be read falls back to the backoff, not to a wait of unknown length.
  return wait?.kind === 'wait'
    ? { retry: wait.ms <= policy.maxRetryAfter, wait: wait.ms }
    : { retry: true };
}

/**
 * The backoff before retry number `retry` (1 for the first), before jitter: 0.3 s
 * doubled at each retry (ky's schedule, which the transport gives ky as its `delay`).
 *
 * @example
 * ```ts
 * import { backoffSchedule } from './retry-policy.js';
 *
 * backoffSchedule(3); // 1200
 * ```
 */
export function backoffSchedule(retry: number): number {
  return BACKOFF_BASE * 2 ** (retry - 1);
}

/**
 * The backoff before retry number `retry` (1 for the first), as ky waits it: the
 * schedule with `jitter` a random time between 0 and its value, and at most
 * `backoffLimit`.
 *
 * @example
 * ```ts
 * import { backoffDelay, retryPolicy } from './retry-policy.js';
 *
 * backoffDelay({ ...retryPolicy(undefined), jitter: false }, 3); // 1200
 * ```
 */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  const delay = backoffSchedule(retry);
  return Math.min(policy.backoffLimit, policy.jitter ? Math.random() * delay : delay);
}

/**
 * The one retry policy (src/http/retry-policy.ts), as a table: for each failure and
 * each kind of call, whether it is sent again and after what wait. The three callers
 * (the transport, callHelper, the signup queue) are checked against a real server in
 * retry-decisions.test.ts; this file pins the table they all read.
 */
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  backoffSchedule,
  type RetryCall,
  type RetryFailure,
  type RetryVerdict,
  retryPolicy,
  retryVerdict,
} from '../../src/http/retry-policy.js';

const policy = retryPolicy(undefined);
const SAFE: RetryCall = { repeatSafe: true, keyed: true }; // GET, or a POST whose key is honoured
const KEYED: RetryCall = { repeatSafe: false, keyed: true }; // a POST to a server that may ignore its key
const BARE: RetryCall = { repeatSafe: false, keyed: false }; // a POST without a key, a PATCH
const GET: RetryCall = { repeatSafe: true, keyed: false };

function answer(status: number, headers: Record<string, string> = {}): RetryFailure {
  return { status, headers: new Headers(headers) };
}

const inTwoMinutes = () => new Date(Date.now() + 120_000).toUTCString();
const inAMoment = () => new Date(Date.now() + 30_000).toUTCString();

const AGAIN: RetryVerdict = { retry: true };
const NOT: RetryVerdict = { retry: false };

// `about`: a wait named by an HTTP date, which has whole seconds: within a second of it.
type Expected = RetryVerdict | { retry: boolean; about: number };

const TABLE: [string, () => RetryFailure, RetryCall, Expected][] = [
  ['a refused connection, any call', () => 'unsent', BARE, AGAIN],
  ['a lost answer, a safe call', () => 'lost', SAFE, AGAIN],
  ['a lost answer, a keyed POST whose key may be ignored', () => 'lost', KEYED, NOT],
  ['a lost answer, a bare POST', () => 'lost', BARE, NOT],
  [
    '429 with seconds, a bare POST',
    () => answer(429, { 'retry-after': '2' }),
    BARE,
    { retry: true, wait: 2000 },
  ],
  [
    '429 with seconds, a safe call',
    () => answer(429, { 'retry-after': '2' }),
    SAFE,
    { retry: true, wait: 2000 },
  ],
  ['429 without a wait, any call: the backoff', () => answer(429), BARE, AGAIN],
  [
    '429 with a rate-limit reset header',
    () => answer(429, { 'ratelimit-reset': '3' }),
    KEYED,
    { retry: true, wait: 3000 },
  ],
  [
    '429 over maxRetryAfter: ends the call, saying the wait',
    () => answer(429, { 'retry-after': '90' }),
    BARE,
    { retry: false, wait: 90_000 },
  ],
  [
    '429 with an unreadable wait: the backoff',
    () => answer(429, { 'retry-after': 'soon' }),
    BARE,
    AGAIN,
  ],
  [
    '503 with a date, a safe call',
    () => answer(503, { 'retry-after': inAMoment() }),
    SAFE,
    { retry: true, about: 30_000 },
  ],
  [
    '503 with a date two minutes on: ends the call',
    () => answer(503, { 'retry-after': inTwoMinutes() }),
    SAFE,
    { retry: false, about: 120_000 },
  ],
  [
    '503 with a date, a keyed POST whose key may be ignored',
    () => answer(503, { 'retry-after': inAMoment() }),
    KEYED,
    NOT,
  ],
  ['503 without a wait, a safe call: the backoff', () => answer(503), SAFE, AGAIN],
  [
    '500, a safe call: the backoff (its Retry-After not read)',
    () => answer(500, { 'retry-after': '5' }),
    SAFE,
    AGAIN,
  ],
  ['502, a keyed POST whose key may be ignored', () => answer(502), KEYED, NOT],
  ['408, a safe call', () => answer(408), SAFE, AGAIN],
  [
    '409 with Retry-After, a keyed POST whose key is honoured',
    () => answer(409, { 'retry-after': '1' }),
    SAFE,
    { retry: true, wait: 1000 },
  ],
  ['409 with Retry-After, a GET (no key)', () => answer(409, { 'retry-after': '1' }), GET, NOT],
  [
    '409 with Retry-After, a keyed POST whose key may be ignored',
    () => answer(409, { 'retry-after': '1' }),
    KEYED,
    NOT,
  ],
  ['409 without Retry-After: a conflict', () => answer(409), SAFE, NOT],
  [
    '409 with only a rate-limit reset header: a conflict',
    () => answer(409, { 'ratelimit-reset': '1' }),
    SAFE,
    NOT,
  ],
  ['413: the same body is too large again', () => answer(413, { 'retry-after': '0' }), SAFE, NOT],
  ['400', () => answer(400), SAFE, NOT],
  ['404', () => answer(404), SAFE, NOT],
];

describe('the retry policy', () => {
  it.each(TABLE)('%s', (_, failure, call, expected) => {
    const verdict = retryVerdict(policy, failure(), call);
    if ('about' in expected) {
      expect(verdict.retry).toBe(expected.retry);
      expect(verdict.wait).toBeGreaterThan(expected.about - 2_000);
      expect(verdict.wait).toBeLessThanOrEqual(expected.about);
    } else {
      expect(verdict).toEqual(expected);
    }
  });

  it('reads the statuses and the longest wait from the options', () => {
    const own = retryPolicy({ statusCodes: [503], afterStatusCodes: [], maxRetryAfter: 1_000 });
    expect(retryVerdict(own, answer(502), SAFE)).toEqual(NOT);
    // 503 is retried, and its Retry-After is not read: the backoff.
    expect(retryVerdict(own, answer(503, { 'retry-after': '5' }), SAFE)).toEqual(AGAIN);
    const patient = retryPolicy({ maxRetryAfter: Number.POSITIVE_INFINITY });
    expect(retryVerdict(patient, answer(429, { 'retry-after': '3600' }), BARE)).toEqual({
      retry: true,
      wait: 3_600_000,
    });
  });

  it('fills in the defaults, and takes a number or false as the limit', () => {
    expect(retryPolicy(undefined)).toEqual({
      limit: 3,
      backoffLimit: 10_000,
      maxRetryAfter: 60_000,
      statusCodes: [408, 429, 500, 502, 503, 504],
      afterStatusCodes: [429, 503],
      jitter: true,
    });
    expect(retryPolicy(5).limit).toBe(5);
    expect(retryPolicy(false).limit).toBe(0);
    expect(retryPolicy({ limit: undefined, jitter: false })).toMatchObject({
      limit: 3,
      jitter: false,
    });
  });

  it.each([
    [{ limit: -1 }, 'retry.limit'],
    [{ limit: 1.5 }, 'retry.limit'],
    [{ limit: Number.NaN }, 'retry.limit'],
    [{ backoffLimit: -5 }, 'retry.backoffLimit'],
    [{ maxRetryAfter: Number.NaN }, 'retry.maxRetryAfter'],
  ])('refuses %o with a RangeError naming the option', (options, name) => {
    expect(() => retryPolicy(options)).toThrow(RangeError);
    expect(() => retryPolicy(options)).toThrow(name);
  });

  it('backs off as ky does: 0.3 s doubled, at most backoffLimit, jitter below it', () => {
    expect([1, 2, 3, 4].map(backoffSchedule)).toEqual([300, 600, 1200, 2400]);
    const steady = retryPolicy({ jitter: false, backoffLimit: 1_000 });
    expect([1, 2, 3].map((retry) => backoffDelay(steady, retry))).toEqual([300, 600, 1000]);
    const jittered = retryPolicy(undefined);
    for (let i = 0; i < 50; i++) {
      const delay = backoffDelay(jittered, 3);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(1200);
    }
  });
});

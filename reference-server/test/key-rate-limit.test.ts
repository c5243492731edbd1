import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkKeyRate } from '../src/http/key-rate-limit.js';
import { MAX_WINDOW_CALLS, SlidingWindows } from '../src/http/rate-limit.js';
import { createApp, openStorage } from '../src/index.js';
import { errorOf, harness, OTHER, READ, WRITE } from './helpers.js';

describe('SlidingWindows', () => {
  it('allows n calls in any window of a second, never n + 1', () => {
    let now = 10_000;
    const windows = new SlidingWindows({ calls: 4, now: () => now });
    // Spaced at exactly 1000/4 ms: the fifth call is exactly a second after the first.
    for (let i = 0; i < 4; i++) {
      expect(windows.take('k').allowed, `call ${i + 1}`).toBe(true);
      now += 250;
    }
    expect(windows.take('k').allowed).toBe(true);
    // A millisecond early (jitter) is one too many: calls at 1250..2000 and this one.
    now += 249;
    expect(windows.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 1;
    expect(windows.take('k').allowed).toBe(true);
  });

  it('refuses a burst past n until the oldest call leaves the window; refusals do not count', () => {
    let now = 0;
    const windows = new SlidingWindows({ calls: 3, now: () => now });
    for (let i = 0; i < 3; i++) expect(windows.take('k').allowed).toBe(true);
    for (let i = 0; i < 20; i++) {
      now += 40;
      expect(windows.take('k').allowed, `at ${now} ms`).toBe(false);
    }
    now = 1000;
    expect(windows.take('k').allowed).toBe(true);
    expect(windows.take('k').allowed).toBe(true);
    expect(windows.take('k').allowed).toBe(true);
    expect(windows.take('k').allowed).toBe(false);
  });

  it('counts keys separately', () => {
    const now = 0;
    const windows = new SlidingWindows({ calls: 1, now: () => now });
    expect(windows.take('a').allowed).toBe(true);
    expect(windows.take('a').allowed).toBe(false);
    expect(windows.take('b').allowed).toBe(true);
  });

  it('says Retry-After in whole seconds, at least 1, for longer windows too', () => {
    let now = 0;
    const windows = new SlidingWindows({ calls: 2, perSeconds: 10, now: () => now });
    windows.take('k');
    now = 3000;
    windows.take('k');
    now = 3500;
    // The first call leaves the window at 10 000 ms: 6.5 s from now.
    expect(windows.take('k')).toEqual({ allowed: false, retryAfterSeconds: 7 });
    now = 9999.5;
    expect(windows.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('forgets keys whose window is over, and caps the keys it tracks', () => {
    let now = 0;
    const windows = new SlidingWindows({ calls: 2, maxKeys: 50, now: () => now });
    for (let i = 0; i < 50; i++) windows.take(`key-${i}`);
    expect(windows.size).toBe(50);
    windows.take('one more');
    expect(windows.size).toBeLessThanOrEqual(50);
    expect(windows.size).toBeGreaterThanOrEqual(45);
    now = 1500;
    windows.take('later');
    expect(windows.size).toBe(1);
  });

  it('refuses nonsense settings', () => {
    for (const calls of [0, -1, 1.5, Number.NaN, MAX_WINDOW_CALLS + 1]) {
      expect(() => new SlidingWindows({ calls }), String(calls)).toThrow(RangeError);
    }
    expect(() => new SlidingWindows({ calls: 1, perSeconds: 0 })).toThrow(RangeError);
    expect(() => new SlidingWindows({ calls: 1, maxKeys: 0 })).toThrow(RangeError);
  });
});

describe('keyRateLimit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the call past the limit 429 RATE_LIMITED with Retry-After, per key', async () => {
    // The windows' clock (performance.now) stands still until the test moves it: the five
    // calls fall in one second however long they take on a loaded machine.
    vi.useFakeTimers({ toFake: ['performance'] });
    const h = harness({ keyRateLimit: 4, anonymousRateLimit: false });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.call('GET', '/api/v1/people')).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const limited = await h.json('GET', '/api/v1/people');
    expect(limited.status).toBe(429);
    expect(limited.res.headers.get('retry-after')).toBe('1');
    expect(limited.res.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const [description] = errorOf(limited.body);
    expect(description?.error_code).toBe('RATE_LIMITED');
    expect(description?.description).toContain('this API key');
    // Other keys, even of the same tenant, have their own count.
    expect((await h.call('GET', '/api/v1/people', { key: READ })).status).toBe(200);
    expect((await h.call('GET', '/api/v1/people', { key: OTHER })).status).toBe(200);
    // Refused and unknown keys are not counted against anyone.
    expect((await h.call('GET', '/api/v1/people', { key: 'not-a-key-at-all' })).status).toBe(401);

    // A second after the first four, they have left the window.
    vi.advanceTimersByTime(1000);
    expect((await h.call('GET', '/api/v1/people', { key: WRITE })).status).toBe(200);
  });

  it('leaves calls without a key alone, and is off by default', async () => {
    const h = harness({ keyRateLimit: 1, anonymousRateLimit: false });
    const petition = await h.json('POST', '/api/v1/petitions', { body: { title: 'Trees' } });
    const helper = petition.body._links['std:record_signature_helper'].href as string;
    for (let i = 0; i < 5; i++) {
      const res = await h.call('POST', helper, {
        key: null,
        body: {
          person: { given_name: 'Ana', email_addresses: [{ address: `a${i}@example.org` }] },
        },
      });
      expect(res.status, `anonymous call ${i + 1}`).toBe(200);
    }
    const unlimited = harness();
    for (let i = 0; i < 30; i++) {
      expect((await unlimited.call('GET', '/api/v1/')).status).toBe(200);
    }
  });

  it('refuses a rate that is not a whole number of calls', async () => {
    const storage = openStorage(':memory:');
    for (const rate of [0, -4, 2.5, Number.POSITIVE_INFINITY]) {
      expect(() => createApp({ storage, keyRateLimit: rate }), String(rate)).toThrow(
        /^keyRateLimit must be an integer from 1 to 10000, got .* \(false for no limit\)$/,
      );
    }
    await storage.close();
  });

  it('is one check for the option and for --key-rate, which gives the digits', async () => {
    const cli = { name: '--key-rate', unlimited: 'leave it out' };
    expect(checkKeyRate(4)).toBe(4);
    expect(checkKeyRate('4', cli)).toBe(4);
    expect(checkKeyRate(String(MAX_WINDOW_CALLS), cli)).toBe(MAX_WINDOW_CALLS);
    for (const raw of ['0', String(MAX_WINDOW_CALLS + 1), 'four', '4.0', ' 4', '', '-1', '1e3']) {
      expect(() => checkKeyRate(raw, cli), raw).toThrow(RangeError);
    }
    // The same sentence either way, naming the option as its caller wrote it.
    expect(() => checkKeyRate('0', cli)).toThrow(
      '--key-rate must be an integer from 1 to 10000, got "0" (leave it out for no limit)',
    );
    const storage = openStorage(':memory:');
    expect(() => createApp({ storage, keyRateLimit: 0 })).toThrow(
      'keyRateLimit must be an integer from 1 to 10000, got 0 (false for no limit)',
    );
    await storage.close();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../src/http/rate-limiter.js';
import { createTransport } from '../../src/http/transport.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RateLimiter', () => {
  it('lets the first caller start at once and spaces the rest by 1/rate', async () => {
    const limiter = new RateLimiter(4);
    const started: number[] = [];
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) {
      void limiter.acquire().then(() => started.push(Date.now() - t0));
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([0]);
    await vi.advanceTimersByTimeAsync(249);
    expect(started).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([0, 250]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toEqual([0, 250, 500, 750, 1_000]);
  });

  it('does not delay a caller who comes after a quiet period', async () => {
    const limiter = new RateLimiter(2);
    await limiter.acquire();
    await vi.advanceTimersByTimeAsync(5_000);
    let started = false;
    void limiter.acquire().then(() => {
      started = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toBe(true);
  });

  it('rejects a waiter whose signal aborts, with its reason, and gives its turn away', async () => {
    const limiter = new RateLimiter(1);
    const controller = new AbortController();
    const order: string[] = [];
    await limiter.acquire();
    const aborted = limiter.acquire(controller.signal).catch((reason) => {
      order.push('aborted');
      return reason;
    });
    void limiter.acquire().then(() => order.push('next'));
    controller.abort();
    expect(await aborted).toBe(controller.signal.reason);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(order).toEqual(['aborted', 'next']);
  });

  it('rejects at once for an already aborted signal', async () => {
    const limiter = new RateLimiter(1);
    const reason = new Error('gone');
    await expect(limiter.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('refuses a rate that is not a positive number', () => {
    expect(() => new RateLimiter(0)).toThrow(RangeError);
    expect(() => new RateLimiter(Number.NaN)).toThrow(RangeError);
  });
});

describe('transport rateLimit', () => {
  it('spaces request starts of concurrent callers, retries included', async () => {
    const starts: number[] = [];
    const t0 = Date.now();
    let calls = 0;
    const transport = createTransport({
      rateLimit: 4,
      retry: { limit: 1, backoffLimit: 1 },
      fetch: async () => {
        starts.push(Date.now() - t0);
        // The first call fails once, so its retry has to queue behind the others too.
        return ++calls === 1 ? Response.json({}, { status: 503 }) : Response.json({});
      },
    });
    const pending = Array.from({ length: 4 }, (_, i) =>
      transport.request({ method: 'GET', url: `https://api.example.org/${i}` }),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all(pending);

    expect(starts).toHaveLength(5);
    const gaps = starts.slice(1).map((start, i) => start - starts[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(250);
    // No window of one second ever holds more than 4 starts.
    for (const start of starts) {
      expect(starts.filter((s) => s >= start && s < start + 1_000).length).toBeLessThanOrEqual(4);
    }
  });

  it('rejects a call waiting for its turn with the abort reason', async () => {
    let calls = 0;
    const transport = createTransport({
      rateLimit: 1,
      fetch: async () => {
        calls++;
        return Response.json({});
      },
    });
    await transport.request({ method: 'GET', url: 'https://api.example.org/a' });
    const controller = new AbortController();
    const waiting = transport
      .request({ method: 'GET', url: 'https://api.example.org/b', signal: controller.signal })
      .catch((e) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect(await waiting).toBe(controller.signal.reason);
    expect(calls).toBe(1);
  });
});

import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  isHTTPError,
  isNetworkError,
  isRateLimitError,
  isTimeoutError,
} from '../../src/errors/index.js';
import { createTransport, type RetryEvent } from '../../src/http/transport.js';

const URL = 'https://api.example.org/api/v1/people';
// Tiny backoff so real-timer tests stay fast; the timing itself is tested with fake timers.
const FAST = { limit: 3, backoffLimit: 5 };

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** A handler answering with the given statuses in turn, then 200. */
function sequence(method: 'get' | 'post' | 'put', statuses: number[], headers = {}) {
  const calls = { count: 0 };
  server.use(
    http[method](URL, () => {
      const status = statuses[calls.count++];
      return status === undefined
        ? HttpResponse.json({ ok: true })
        : HttpResponse.json({ error: `status ${status}` }, { status, headers });
    }),
  );
  return calls;
}

describe('retries', () => {
  it('retries a GET answered 503 and then succeeds', async () => {
    const calls = sequence('get', [503]);
    const response = await createTransport({ retry: FAST }).request({ method: 'GET', url: URL });
    expect(response.body).toEqual({ ok: true });
    expect(calls.count).toBe(2);
  });

  it.each([408, 429, 500, 502, 504])('retries a GET answered %i', async (status) => {
    const calls = sequence('get', [status]);
    await createTransport({ retry: FAST }).request({ method: 'GET', url: URL });
    expect(calls.count).toBe(2);
  });

  it('retries a PUT (idempotent)', async () => {
    const calls = sequence('put', [502, 502]);
    await createTransport({ retry: FAST }).request({ method: 'PUT', url: URL, body: { a: 1 } });
    expect(calls.count).toBe(3);
  });

  it('never retries a POST without an Idempotency-Key', async () => {
    const calls = sequence('post', [503]);
    const failure = await createTransport({ retry: FAST })
      .request({ method: 'POST', url: URL, body: {}, idempotencyKey: false })
      .catch((e) => e);
    expect(isHTTPError(failure)).toBe(true);
    expect(failure.status).toBe(503);
    expect(calls.count).toBe(1);
  });

  it('does not retry 413', async () => {
    const calls = sequence('put', [413], { 'retry-after': '0' });
    const failure = await createTransport({ retry: FAST })
      .request({ method: 'PUT', url: URL, body: {} })
      .catch((e) => e);
    expect(failure.status).toBe(413);
    expect(calls.count).toBe(1);
  });

  it('does not retry a 404', async () => {
    const calls = sequence('get', [404]);
    await expect(
      createTransport({ retry: FAST }).request({ method: 'GET', url: URL }),
    ).rejects.toMatchObject({ code: 'HTTP_ERROR', status: 404 });
    expect(calls.count).toBe(1);
  });

  it('stops after the limit and reports the last HTTP error', async () => {
    const calls = sequence('get', [503, 503, 503]);
    const failure = await createTransport({ retry: { limit: 2, backoffLimit: 5 } })
      .request({ method: 'GET', url: URL })
      .catch((e) => e);
    expect(failure.status).toBe(503);
    expect(calls.count).toBe(3);
  });

  it('does not retry at all with retry: false', async () => {
    const calls = sequence('get', [503]);
    await expect(
      createTransport({ retry: false }).request({ method: 'GET', url: URL }),
    ).rejects.toMatchObject({ status: 503 });
    expect(calls.count).toBe(1);
  });

  it('retries a GET after a network error, then reports a NetworkError naming method and URL', async () => {
    let calls = 0;
    server.use(
      http.get(URL, () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    const failure = await createTransport({ retry: { limit: 1, backoffLimit: 5 } })
      .request({ method: 'GET', url: URL })
      .catch((e) => e);
    expect(isNetworkError(failure)).toBe(true);
    expect(failure.message).toContain(`GET ${URL}`);
    expect(failure.method).toBe('GET');
    expect(failure.url).toBe(URL);
    expect(failure.cause).toBeInstanceOf(TypeError);
    expect(calls).toBe(2);
  });

  it('retries a timed-out GET, then reports a TimeoutError', async () => {
    let calls = 0;
    server.use(
      http.get(URL, async () => {
        calls++;
        await delay(1_000);
        return HttpResponse.json({});
      }),
    );
    const failure = await createTransport({ timeout: 20, retry: { limit: 1, backoffLimit: 5 } })
      .request({ method: 'GET', url: URL })
      .catch((e) => e);
    expect(isTimeoutError(failure)).toBe(true);
    expect(failure.timeout).toBe(20);
    expect(failure.message).toBe(`Request timed out after 20 ms: GET ${URL}`);
    expect(calls).toBe(2);
  });

  it('does not retry a timed-out POST without a key, and the per-call timeout wins', async () => {
    let calls = 0;
    server.use(
      http.post(URL, async () => {
        calls++;
        await delay(1_000);
        return HttpResponse.json({});
      }),
    );
    const failure = await createTransport({ timeout: 10_000, retry: FAST, idempotencyKeys: false })
      .request({ method: 'POST', url: URL, body: {}, timeout: 20 })
      .catch((e) => e);
    expect(isTimeoutError(failure)).toBe(true);
    expect(failure.timeout).toBe(20);
    expect(calls).toBe(1);
  });
});

describe('Retry-After (fake timers)', () => {
  function scripted(first: Response) {
    const starts: number[] = [];
    const fetch = async () => {
      starts.push(Date.now());
      return starts.length === 1 ? first : Response.json({ ok: true });
    };
    return { starts, fetch };
  }

  it('waits the Retry-After seconds of a 429 before the retry', async () => {
    vi.useFakeTimers();
    const { starts, fetch } = scripted(
      Response.json({}, { status: 429, headers: { 'Retry-After': '1' } }),
    );
    const transport = createTransport({ fetch, retry: { limit: 2, backoffLimit: 5 } });
    const pending = transport.request({ method: 'GET', url: URL });

    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toHaveLength(2);
    await expect(pending).resolves.toMatchObject({ status: 200, body: { ok: true } });
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(1_000);
  });

  it('honours an HTTP-date Retry-After on a 503', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z') });
    const { starts, fetch } = scripted(
      Response.json(
        {},
        { status: 503, headers: { 'Retry-After': 'Sun, 01 Mar 2026 12:00:02 GMT' } },
      ),
    );
    const pending = createTransport({ fetch }).request({ method: 'GET', url: URL });

    await vi.advanceTimersByTimeAsync(1_990);
    expect(starts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(starts).toHaveLength(2);
    await expect(pending).resolves.toMatchObject({ status: 200 });
  });

  it('fails at once with a RateLimitError when the server asks for more than maxRetryAfter', async () => {
    vi.useFakeTimers();
    const { starts, fetch } = scripted(
      Response.json({}, { status: 429, headers: { 'Retry-After': '3600' } }),
    );
    const failure = await createTransport({ fetch, retry: { maxRetryAfter: 500 } })
      .request({ method: 'GET', url: URL })
      .catch((error: unknown) => error);
    expect(isRateLimitError(failure)).toBe(true);
    expect(failure).toMatchObject({ status: 429, retryAfter: 3_600_000, maxRetryAfter: 500 });
    expect(starts).toHaveLength(1);
  });

  it('waits a Retry-After within maxRetryAfter', async () => {
    vi.useFakeTimers();
    const { starts, fetch } = scripted(
      Response.json({}, { status: 429, headers: { 'Retry-After': '2' } }),
    );
    const pending = createTransport({ fetch, retry: { maxRetryAfter: 2_000 } }).request({
      method: 'GET',
      url: URL,
    });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(starts).toHaveLength(2);
    await expect(pending).resolves.toMatchObject({ status: 200 });
  });

  it('backs off exponentially with jitter bounded by the computed delay', async () => {
    vi.useFakeTimers();
    const starts: number[] = [];
    const fetch = async () => {
      starts.push(Date.now());
      return starts.length < 4 ? Response.json({}, { status: 500 }) : Response.json({});
    };
    const pending = createTransport({ fetch }).request({ method: 'GET', url: URL });
    await vi.advanceTimersByTimeAsync(300 + 600 + 1_200);
    await expect(pending).resolves.toMatchObject({ status: 200 });
    const gaps = starts.slice(1).map((start, i) => start - starts[i]!);
    // ky: 300 ms * 2^(n-1); full jitter picks anywhere in [0, that].
    expect(gaps).toHaveLength(3);
    gaps.forEach((gap, i) => {
      expect(gap).toBeLessThanOrEqual(300 * 2 ** i);
    });
  });
});

describe('hooks', () => {
  it('reports each attempt, response and retry', async () => {
    sequence('get', [503]);
    const events: string[] = [];
    const retries: RetryEvent[] = [];
    const transport = createTransport({
      apiKey: 'k',
      trustedOrigins: [URL],
      retry: FAST,
      hooks: {
        beforeRequest: ({ method, url, attempt, authenticated }) => {
          events.push(`request ${method} ${url} #${attempt} key=${authenticated}`);
        },
        afterResponse: ({ status, attempt, durationMs }) => {
          expect(durationMs).toBeGreaterThanOrEqual(0);
          events.push(`response ${status} #${attempt}`);
        },
        beforeRetry: (event) => {
          retries.push(event);
          events.push(`retry #${event.attempt}`);
        },
      },
    });
    await transport.request({ method: 'GET', url: URL });

    expect(events).toEqual([
      `request GET ${URL} #1 key=true`,
      'response 503 #1',
      'retry #2',
      `request GET ${URL} #2 key=true`,
      'response 200 #2',
    ]);
    expect(isHTTPError(retries[0]?.error)).toBe(true);
    expect(retries[0]?.error).toMatchObject({ status: 503, body: { error: 'status 503' } });
  });

  it('fails the request, without retrying, when a hook throws', async () => {
    const calls = sequence('get', []);
    const transport = createTransport({
      retry: FAST,
      hooks: {
        afterResponse: () => {
          throw new Error('logger broke');
        },
      },
    });
    await expect(transport.request({ method: 'GET', url: URL })).rejects.toThrow('logger broke');
    expect(calls.count).toBe(1);
  });
});

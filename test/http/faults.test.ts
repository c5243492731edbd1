// The transport against a real HTTP server that misbehaves the way real servers and
// networks do. Each test asserts the typed error (or the recovery) and how long it took:
// the error contract says every call settles, typed, within a time the options bound.
// A wait the transport must make is asserted from below (it cannot end early on any
// machine); from above only by HANG, a bound on a hang that a loaded machine stays under.
import { afterEach, describe, expect, it } from 'vitest';
import {
  isAdisError,
  isHTTPError,
  isNetworkError,
  isRateLimitError,
  isRedirectError,
  isResponseFormatError,
  isTimeoutError,
} from '../../src/errors/index.js';
import {
  createTransport,
  type RetryEvent,
  type TransportOptions,
} from '../../src/http/transport.js';
import {
  type FaultServer,
  faultServer,
  json,
  redirect,
  resetBeforeHeaders,
  resetMidBody,
  type Script,
  shortBody,
  stallBody,
  status,
  text,
  trickle,
  wrongEncoding,
} from '../fixtures/fault-server.js';

// Small backoffs so that the retries are quick. The idle timeout stays at its default
// (10 s) except where a test is about it: a short one could fire first on a loaded
// machine, before a reset or a slow answer that the test is about.
const FAST: TransportOptions = { retry: { limit: 2, backoffLimit: 20 } };
const IDLE = 200;
// A bound on a hang, not a speed target: far above what these calls take on a loaded
// machine (a few seconds at most), below the waits a broken transport would make (the
// 30 s and 3600 s Retry-Afters, the default 30 s timeout) and the 60 s test timeout.
const HANG = 15_000;
const OK = json({ _links: { self: { href: '/p' } }, given_name: 'Ana' });

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: Script, path = '/p'): Promise<string> {
  server = await faultServer({ [path]: script });
  return server.url(path);
}

/** Runs a request and returns how it settled and how long it took. */
async function timed<T>(call: () => Promise<T>) {
  const start = performance.now();
  try {
    const value = await call();
    return { value, error: undefined as unknown, ms: performance.now() - start };
  } catch (error) {
    return { value: undefined, error, ms: performance.now() - start };
  }
}

describe('waits the server asks for are bounded', () => {
  it('fails at once with a RateLimitError when Retry-After is an hour (default cap 60 s)', async () => {
    const url = await serve(status(429, { 'retry-after': '3600' }));
    const { error, ms } = await timed(() => createTransport().request({ method: 'GET', url }));
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryAfter: 3_600_000, maxRetryAfter: 60_000 });
    expect(ms).toBeLessThan(HANG);
    expect(server?.hits('/p')).toBe(1);
  });

  it('reads a far rate-limit reset timestamp as a wait too', async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 7_200);
    const url = await serve(status(429, { 'x-ratelimit-reset': reset }));
    const { error, ms } = await timed(() => createTransport().request({ method: 'GET', url }));
    expect(isRateLimitError(error)).toBe(true);
    expect((error as { retryAfter: number }).retryAfter).toBeGreaterThan(7_000_000);
    expect(ms).toBeLessThan(HANG);
  });

  it.each([
    ['retry-after', 'soon'],
    ['retry-after', 'Infinity'],
    ['x-ratelimit-reset', 'tomorrow-ish'],
  ])('falls back to the normal backoff when %s is unreadable (%s)', async (header, value) => {
    const url = await serve(status(429, { [header]: value }));
    const { error, ms } = await timed(() => createTransport(FAST).request({ method: 'GET', url }));
    expect(isHTTPError(error)).toBe(true);
    expect(isRateLimitError(error)).toBe(false);
    expect(server?.hits('/p')).toBe(3);
    // Read as a wait, each of these would be the 60 s cap (ky's reading of the header).
    expect(ms).toBeLessThan(HANG);
  });

  it('waits a Retry-After in seconds on a 503, then succeeds', async () => {
    const url = await serve([status(503, { 'retry-after': '1' }), OK]);
    const { value, ms } = await timed(() => createTransport().request({ method: 'GET', url }));
    expect(value?.body).toMatchObject({ given_name: 'Ana' });
    expect(ms).toBeGreaterThanOrEqual(990);
    expect(ms).toBeLessThan(HANG);
  });

  it('waits a Retry-After given as an HTTP date, then succeeds', async () => {
    const url = await serve([
      (request, response, fault) =>
        status(429, { 'retry-after': new Date(Date.now() + 2_000).toUTCString() })(
          request,
          response,
          fault,
        ),
      OK,
    ]);
    const { value, ms } = await timed(() => createTransport().request({ method: 'GET', url }));
    expect(value?.status).toBe(200);
    // HTTP dates have whole seconds: the wait is between 1 and 2 s.
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(HANG);
  });

  it('rejects with the caller’s reason when aborted during a Retry-After wait', async () => {
    const url = await serve(status(503, { 'retry-after': '30' }));
    const reason = new Error('stop');
    const controller = new AbortController();
    // Aborted once the 503 is in (so during the 30 s wait), not at a time that a loaded
    // machine could reach before the request was even sent.
    const transport = createTransport({
      hooks: { afterResponse: () => void setTimeout(() => controller.abort(reason), 100) },
    });
    const { error, ms } = await timed(() =>
      transport.request({ method: 'GET', url, signal: controller.signal }),
    );
    expect(error).toBe(reason);
    expect(server?.hits('/p')).toBe(1);
    expect(ms).toBeLessThan(HANG);
  });
});

describe('a body that stalls is timed out, and retried when the method allows', () => {
  it('times out a body that stops arriving (idle timeout), on every attempt', async () => {
    const url = await serve(stallBody());
    const { error, ms } = await timed(() =>
      createTransport({ ...FAST, idleTimeout: IDLE }).request({ method: 'GET', url }),
    );
    expect(isTimeoutError(error)).toBe(true);
    expect(error).toMatchObject({ phase: 'idle', timeout: IDLE });
    expect(server?.hits('/p')).toBe(3);
    // 3 attempts of at least 200 ms each (minus a timer's millisecond of rounding).
    expect(ms).toBeGreaterThanOrEqual(3 * IDLE - 10);
    expect(ms).toBeLessThan(HANG);
  });

  it('times out a body that trickles forever (the attempt timeout covers the body)', async () => {
    const url = await serve(trickle(50));
    // No idle timeout: only the attempt timeout can end this body, however late the
    // trickle's chunks come on a loaded machine. The attempt timeout runs from the start:
    // long enough for the headers to get through on a loaded machine, so that what it
    // cuts is the body.
    const timeout = 2_000;
    const statuses: number[] = [];
    const transport = createTransport({
      ...FAST,
      timeout,
      idleTimeout: false,
      retry: false,
      hooks: { afterResponse: ({ status: code }) => void statuses.push(code) },
    });
    const { error, ms } = await timed(() => transport.request({ method: 'GET', url }));
    expect(isTimeoutError(error)).toBe(true);
    expect(error).toMatchObject({ phase: 'attempt', timeout });
    expect(statuses).toEqual([200]);
    expect(ms).toBeGreaterThanOrEqual(timeout - 10);
    expect(ms).toBeLessThan(HANG);
  });

  it('recovers when the stalled attempt is followed by a good one', async () => {
    const url = await serve([stallBody(), OK]);
    const { value } = await timed(() =>
      createTransport({ ...FAST, idleTimeout: IDLE }).request({ method: 'GET', url }),
    );
    expect(value?.body).toMatchObject({ given_name: 'Ana' });
    expect(server?.hits('/p')).toBe(2);
  });
});

describe('failures while reading a body are network errors', () => {
  it('retries a GET whose connection is reset mid-body, and reports it to the hooks', async () => {
    const url = await serve([resetMidBody(), OK]);
    const retries: RetryEvent[] = [];
    const statuses: number[] = [];
    const transport = createTransport({
      ...FAST,
      hooks: {
        beforeRetry: (event) => {
          retries.push(event);
        },
        afterResponse: ({ status: code }) => {
          statuses.push(code);
        },
      },
    });
    const response = await transport.request({ method: 'GET', url });
    expect(response.body).toMatchObject({ given_name: 'Ana' });
    expect(server?.hits('/p')).toBe(2);
    expect(retries).toHaveLength(1);
    expect(isNetworkError(retries[0]?.error)).toBe(true);
    // Both attempts got headers: the first failed in its body.
    expect(statuses).toEqual([200, 200]);
  });

  it('gives a NetworkError when every attempt is reset mid-body', async () => {
    const url = await serve(resetMidBody());
    const { error } = await timed(() => createTransport(FAST).request({ method: 'GET', url }));
    expect(isNetworkError(error)).toBe(true);
    expect((error as Error).message).toContain(`GET ${url}`);
    expect(server?.hits('/p')).toBe(3);
  });

  it('never retries a POST without a key reset mid-body: it may have been applied', async () => {
    const url = await serve(resetMidBody());
    const { error } = await timed(() =>
      createTransport(FAST).request({
        method: 'POST',
        url,
        body: { given_name: 'Ana' },
        idempotencyKey: false,
      }),
    );
    expect(isNetworkError(error)).toBe(true);
    expect(server?.hits('/p')).toBe(1);
  });

  it.each([
    ['a body shorter than its Content-Length', shortBody()],
    ['a body whose Content-Encoding is wrong', wrongEncoding()],
  ])('gives a NetworkError for %s', async (_name, fault) => {
    const url = await serve(fault);
    const { error } = await timed(() =>
      createTransport({ ...FAST, retry: false }).request({ method: 'GET', url }),
    );
    expect(isNetworkError(error)).toBe(true);
  });
});

describe('faults that already passed keep passing', () => {
  it('retries a reset before the headers, then succeeds', async () => {
    const url = await serve([resetBeforeHeaders(), OK]);
    const response = await createTransport(FAST).request({ method: 'GET', url });
    expect(response.status).toBe(200);
    expect(server?.hits('/p')).toBe(2);
  });

  it('gives a NetworkError when every attempt is reset before the headers', async () => {
    const url = await serve(resetBeforeHeaders());
    const { error, ms } = await timed(() => createTransport(FAST).request({ method: 'GET', url }));
    expect(isNetworkError(error)).toBe(true);
    expect(server?.hits('/p')).toBe(3);
    expect(ms).toBeLessThan(HANG);
  });

  it('never retries a POST without a key answered 503', async () => {
    const url = await serve(status(503));
    const { error } = await timed(() =>
      createTransport({ ...FAST, idempotencyKeys: false }).request({
        method: 'POST',
        url,
        body: {},
      }),
    );
    expect(isHTTPError(error)).toBe(true);
    expect(server?.hits('/p')).toBe(1);
  });

  it('keeps an HTML error page as the HTTPError body', async () => {
    const url = await serve(text('<html><body>Bad gateway</body></html>', 502));
    const { error } = await timed(() => createTransport(FAST).request({ method: 'GET', url }));
    expect(isHTTPError(error)).toBe(true);
    expect(error).toMatchObject({ status: 502, body: expect.stringContaining('Bad gateway') });
  });

  it('refuses an HTML page answered 200 with a ResponseFormatError', async () => {
    const url = await serve(
      text('<!doctype html><title>Log in</title>', 200, { 'content-type': 'text/html' }),
    );
    const { error } = await timed(() => createTransport(FAST).request({ method: 'GET', url }));
    expect(isResponseFormatError(error)).toBe(true);
    expect(error).toMatchObject({ status: 200, contentType: 'text/html' });
  });

  it('stops a redirect loop on a request with the key (RedirectError)', async () => {
    server = await faultServer({ '/a': redirect('/b'), '/b': redirect('/a') });
    const transport = createTransport({ ...FAST, apiKey: 'k' });
    transport.trustOrigin(server.url('/'));
    const { error, ms } = await timed(() =>
      transport.request({ method: 'GET', url: server!.url('/a') }),
    );
    expect(isRedirectError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'too-many-redirects' });
    expect(ms).toBeLessThan(HANG);
  });

  it('stops a redirect loop without the key (fetch follows, gives up typed)', async () => {
    server = await faultServer({ '/a': redirect('/b'), '/b': redirect('/a') });
    const { error } = await timed(() =>
      createTransport({ ...FAST, retry: false }).request({ method: 'GET', url: server!.url('/a') }),
    );
    expect(isAdisError(error)).toBe(true);
  });

  it('refuses a redirect without a Location on a request with the key', async () => {
    const url = await serve(status(302));
    const transport = createTransport({ ...FAST, apiKey: 'k' });
    transport.trustOrigin(url);
    const { error } = await timed(() => transport.request({ method: 'GET', url }));
    expect(isRedirectError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'missing-location' });
  });
});

// The transport's Idempotency-Key: every POST carries one (a new key per call, the same
// on each of its retries). Sending it is harmless; retrying on it is safe only where the
// server honours it, so a POST is retried like a GET only there (the caller says so, or
// the server shows it), and elsewhere, like a PATCH, only after a failure that applied
// nothing: a 429, or a refused connection. Against msw for what is sent, and against a
// real server for connections that break.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  isHTTPError,
  isInvalidIdempotencyKeyError,
  isNetworkError,
  isRateLimitError,
  isTimeoutError,
} from '../../src/errors/index.js';
import { IDEMPOTENCY_KEY_HONOURED_HEADER } from '../../src/http/honoured-keys.js';
import {
  createTransport,
  type HttpMethod,
  type TransportOptions,
} from '../../src/http/transport.js';
import {
  type Fault,
  type FaultServer,
  faultServer,
  json,
  resetBeforeHeaders,
  resetMidBody,
  stallBody,
  status,
} from '../fixtures/fault-server.js';

const URL = 'https://api.example.org/api/v1/people';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FAST: TransportOptions = { retry: { limit: 3, backoffLimit: 5 } };
const HONOURED: TransportOptions = { ...FAST, idempotencyKeys: 'honoured' };

const msw = setupServer();
beforeAll(() =>
  msw.listen({
    // The fault server's requests (127.0.0.1) go through to it.
    onUnhandledRequest: (request, print) => {
      if (new globalThis.URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  }),
);
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

let server: FaultServer | undefined;
let other: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  await other?.close();
  server = undefined;
  other = undefined;
});

/** Answers a status whose headers echo the request's Idempotency-Key (or `echo` when given). */
function echoing(statusCode: number, echo?: string): Fault {
  return (request, response) => {
    const key = echo ?? String(request.headers['idempotency-key']);
    response.writeHead(statusCode, { 'content-type': 'application/json', 'idempotency-key': key });
    response.end('{}');
  };
}

/** The keys of the POSTs a path of the fault server received, in order. */
const keysOf = (path: string) =>
  (server?.headers(path) ?? []).map((headers) => headers['idempotency-key']);

/** Answers every request on URL with the statuses in turn (then 201), recording each key. */
function answering(statuses: number[] = [], headers: Record<string, string> = {}) {
  const keys: (string | null)[] = [];
  const handler = ({ request }: { request: Request }) => {
    const status = statuses[keys.length];
    keys.push(request.headers.get('idempotency-key'));
    return status === undefined
      ? HttpResponse.json({ ok: true }, { status: 201 })
      : HttpResponse.json({ error: `status ${status}` }, { status, headers });
  };
  msw.use(http.all(URL, handler));
  return keys;
}

async function settle(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the Idempotency-Key header', () => {
  it('is sent on a POST: a version 4 UUID', async () => {
    const keys = answering();
    await createTransport().request({ method: 'POST', url: URL, body: {} });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(UUID_V4);
  });

  it('is a new key for each call', async () => {
    const keys = answering();
    const transport = createTransport();
    await transport.request({ method: 'POST', url: URL, body: {} });
    await transport.request({ method: 'POST', url: URL, body: {} });
    expect(keys[0]).not.toBe(keys[1]);
  });

  it.each<HttpMethod>(['GET', 'PUT', 'PATCH', 'DELETE'])('is not sent on a %s', async (method) => {
    const keys = answering();
    await createTransport().request({
      method,
      url: URL,
      idempotencyKey: 'ignored-here',
      ...(method === 'PUT' || method === 'PATCH' ? { body: {} } : {}),
    });
    expect(keys).toEqual([null]);
  });

  it('is the caller’s own key when given, sent exactly', async () => {
    const keys = answering([429], { 'retry-after': '0' });
    await createTransport(FAST).request({
      method: 'POST',
      url: URL,
      body: {},
      idempotencyKey: 'job-42:attempt~"all"',
    });
    expect(keys).toEqual(['job-42:attempt~"all"', 'job-42:attempt~"all"']);
  });

  it('replaces an Idempotency-Key given among the extra headers', async () => {
    const keys = answering();
    await createTransport({ headers: { 'Idempotency-Key': 'same-for-all' } }).request({
      method: 'POST',
      url: URL,
      body: {},
    });
    expect(keys[0]).toMatch(UUID_V4);
  });

  it.each([
    ['empty', ''],
    ['with a space', 'two words'],
    ['with a control character', 'a\nb'],
    ['not ASCII', 'clé'],
    ['256 characters long', 'k'.repeat(256)],
    ['not a string', 42 as unknown as string],
  ])(
    'refuses an own key %s with an InvalidIdempotencyKeyError, before any request',
    async (_name, key) => {
      const keys = answering();
      const error = await settle(
        createTransport().request({ method: 'POST', url: URL, body: {}, idempotencyKey: key }),
      );
      expect(isInvalidIdempotencyKeyError(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'INVALID_IDEMPOTENCY_KEY',
        method: 'POST',
        url: URL,
        key,
      });
      expect((error as Error).message).toContain(`POST ${URL}`);
      expect(keys).toEqual([]);
    },
  );

  it('accepts an own key of 255 visible characters', async () => {
    const keys = answering();
    const key = `${'!~'.repeat(127)}x`;
    await createTransport().request({ method: 'POST', url: URL, body: {}, idempotencyKey: key });
    expect(keys).toEqual([key]);
  });

  it('stays on a 307 redirect, and is dropped when a 303 turns the POST into a GET', async () => {
    const seen: [string, string | null][] = [];
    const record = (request: Request) =>
      seen.push([request.method, request.headers.get('idempotency-key')]);
    msw.use(
      http.post(URL, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 307, headers: { location: `${URL}/moved` } });
      }),
      http.post(`${URL}/moved`, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 303, headers: { location: `${URL}/done` } });
      }),
      http.get(`${URL}/done`, ({ request }) => {
        record(request);
        return HttpResponse.json({});
      }),
    );
    // Redirects are followed by hand only for calls that carry the API key.
    const transport = createTransport({ apiKey: 'k', trustedOrigins: [URL] });
    await transport.request({ method: 'POST', url: URL, body: {} });
    expect(seen.map(([method]) => method)).toEqual(['POST', 'POST', 'GET']);
    expect(seen[0]?.[1]).toMatch(UUID_V4);
    expect(seen[1]?.[1]).toBe(seen[0]?.[1]);
    expect(seen[2]?.[1]).toBeNull();
  });
});

describe('retries of a POST with a key the server honours (idempotencyKeys: honoured)', () => {
  it('sends the same key on each retry: reset mid-request, 503, 429, then success', async () => {
    server = await faultServer({
      '/p': [resetBeforeHeaders(), status(503), status(429, { 'retry-after': '0' }), json({}, 201)],
    });
    const response = await createTransport(HONOURED).request({
      method: 'POST',
      url: server.url('/p'),
      body: { given_name: 'Ana' },
    });
    expect(response.status).toBe(201);
    const keys = server.headers('/p').map((headers) => headers['idempotency-key']);
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(1);
    // The same body each time, so the server can tell a repeat from a reuse.
    expect(new Set(server.bodies('/p'))).toEqual(new Set(['{"given_name":"Ana"}']));
  });

  it('retries a POST whose answer broke off mid-body, with the same key', async () => {
    server = await faultServer({ '/p': [resetMidBody(), json({ ok: true }, 201)] });
    // The default idle timeout: a short one could fire before the reset on a loaded machine.
    const response = await createTransport(HONOURED).request({
      method: 'POST',
      url: server.url('/p'),
      body: {},
    });
    expect(response.body).toEqual({ ok: true });
    const [first, second] = server.headers('/p').map((headers) => headers['idempotency-key']);
    expect(first).toMatch(UUID_V4);
    expect(second).toBe(first);
  });

  it('retries after a timeout, with the same key', async () => {
    server = await faultServer({ '/p': [stallBody(), json({ ok: true }, 201)] });
    const response = await createTransport({ ...HONOURED, idleTimeout: 100 }).request({
      method: 'POST',
      url: server.url('/p'),
      body: {},
    });
    expect(response.status).toBe(201);
    expect(server.hits('/p')).toBe(2);
    expect(new Set(keysOf('/p')).size).toBe(1);
  });

  it('retries a 409 (same key in progress), after its Retry-After, within the retry limit', async () => {
    const keys = answering([409, 409, 409, 409], { 'retry-after': '0' });
    const error = await settle(
      createTransport(HONOURED).request({ method: 'POST', url: URL, body: {} }),
    );
    expect(isHTTPError(error)).toBe(true);
    expect(error).toMatchObject({ status: 409 });
    // The first attempt and 3 retries: the 409s count against the limit.
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
  });

  it('does not retry a 409 without Retry-After (a conflict, not a request in progress)', async () => {
    const keys = answering([409, 409]);
    const error = await settle(
      createTransport(HONOURED).request({ method: 'POST', url: URL, body: {} }),
    );
    expect(error).toMatchObject({ status: 409 });
    expect(keys).toHaveLength(1);
  });

  it('reads only Retry-After on a 409: a rate-limit reset header does not make it a wait', async () => {
    const soon = String(Math.floor(Date.now() / 1000) + 3600);
    const keys = answering([409, 409], { 'x-ratelimit-reset': soon, 'ratelimit-reset': '2' });
    const error = await settle(
      createTransport(HONOURED).request({ method: 'POST', url: URL, body: {} }),
    );
    expect(isHTTPError(error)).toBe(true);
    expect(isRateLimitError(error)).toBe(false);
    expect(error).toMatchObject({ status: 409 });
    expect(keys).toHaveLength(1);
  });

  it('succeeds once the request in progress has finished', async () => {
    const keys = answering([409], { 'retry-after': '0' });
    const response = await createTransport(HONOURED).request({
      method: 'POST',
      url: URL,
      body: {},
    });
    expect(response.status).toBe(201);
    expect(keys).toHaveLength(2);
  });

  it('fails with a RateLimitError when a 409 asks for a longer wait than allowed', async () => {
    const keys = answering([409], { 'retry-after': '120' });
    const error = await settle(
      createTransport({
        retry: { limit: 3, maxRetryAfter: 1_000 },
        idempotencyKeys: 'honoured',
      }).request({
        method: 'POST',
        url: URL,
        body: {},
      }),
    );
    expect(isRateLimitError(error)).toBe(true);
    expect(error).toMatchObject({ status: 409, retryAfter: 120_000 });
    expect(keys).toHaveLength(1);
  });

  it('does not retry a 422 (the key reused with another body)', async () => {
    const keys = answering([422]);
    const error = await settle(
      createTransport(HONOURED).request({ method: 'POST', url: URL, body: {} }),
    );
    expect(error).toMatchObject({ status: 422 });
    expect(keys).toHaveLength(1);
  });
});

describe('a POST to a server not known to honour the key', () => {
  // A short idle timeout only where the body stalls: elsewhere it could fire first on a
  // loaded machine, before the reset the case is about.
  it.each<[string, Fault, (error: unknown) => boolean, number | undefined]>([
    ['a 503', status(503), isHTTPError, undefined],
    ['a 500 with Retry-After', status(500, { 'retry-after': '0' }), isHTTPError, undefined],
    ['a reset before the answer', resetBeforeHeaders(), isNetworkError, undefined],
    ['an answer broken off mid-body', resetMidBody(), isNetworkError, undefined],
    ['a body that stalls (timeout)', stallBody(), isTimeoutError, 100],
  ])(
    'is sent once, with its key, after %s: the server may have acted',
    async (_name, fault, guard, idleTimeout) => {
      server = await faultServer({ '/p': [fault, json({}, 201)] });
      const error = await settle(
        createTransport({ ...FAST, ...(idleTimeout ? { idleTimeout } : {}) }).request({
          method: 'POST',
          url: server.url('/p'),
          body: { given_name: 'Ana' },
        }),
      );
      expect(guard(error)).toBe(true);
      expect(server.hits('/p')).toBe(1);
      expect(keysOf('/p')[0]).toMatch(UUID_V4);
    },
  );

  it('is not retried on a 409 with Retry-After either', async () => {
    server = await faultServer({ '/p': [status(409, { 'retry-after': '0' }), json({}, 201)] });
    const error = await settle(
      createTransport(FAST).request({ method: 'POST', url: server.url('/p'), body: {} }),
    );
    expect(error).toMatchObject({ status: 409 });
    expect(server.hits('/p')).toBe(1);
  });

  it('is retried after a 429, which applied nothing, waiting its Retry-After, with the same key', async () => {
    server = await faultServer({
      '/p': [
        status(429, { 'retry-after': '1' }),
        status(429, { 'retry-after': '0' }),
        json({}, 201),
      ],
    });
    const start = performance.now();
    const response = await createTransport(FAST).request({
      method: 'POST',
      url: server.url('/p'),
      body: {},
    });
    expect(response.status).toBe(201);
    expect(performance.now() - start).toBeGreaterThanOrEqual(950);
    expect(server.hits('/p')).toBe(3);
    expect(new Set(keysOf('/p')).size).toBe(1);
  });

  it.each<[string, HttpMethod, string | false | undefined]>([
    ['a POST without a key', 'POST', false],
    ['a PATCH', 'PATCH', undefined],
  ])('is retried after a 429 as %s is', async (_name, method, idempotencyKey) => {
    server = await faultServer({ '/p': [status(429, { 'retry-after': '0' }), json({}, 200)] });
    const response = await createTransport(FAST).request({
      method,
      url: server.url('/p'),
      body: {},
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    expect(response.status).toBe(200);
    expect(server.hits('/p')).toBe(2);
  });

  it('fails with a RateLimitError when its 429 asks for a longer wait than allowed', async () => {
    server = await faultServer({ '/p': [status(429, { 'retry-after': '120' }), json({}, 201)] });
    const error = await settle(
      createTransport({ retry: { limit: 3, maxRetryAfter: 1_000 } }).request({
        method: 'POST',
        url: server.url('/p'),
        body: {},
      }),
    );
    expect(isRateLimitError(error)).toBe(true);
    expect(server.hits('/p')).toBe(1);
  });

  it('is retried when the connection is refused: nothing was sent', async () => {
    // A port nobody listens on: every attempt is refused before a byte is sent.
    const closed = await faultServer({});
    const url = closed.url('/p');
    await closed.close();
    let attempts = 0;
    const error = await settle(
      createTransport({
        ...FAST,
        hooks: { beforeRequest: () => void attempts++ },
      }).request({ method: 'POST', url, body: {} }),
    );
    expect(isNetworkError(error)).toBe(true);
    expect(attempts).toBe(4);
  });

  it('is retried after a refused connection, then answered by the server once', async () => {
    server = await faultServer({ '/p': json({ ok: true }, 201) });
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    let calls = 0;
    const response = await createTransport({
      ...FAST,
      fetch: (input, init) => (calls++ === 0 ? Promise.reject(refused) : fetch(input, init)),
    }).request({ method: 'POST', url: server.url('/p'), body: {} });
    expect(response.body).toEqual({ ok: true });
    expect(calls).toBe(2);
    expect(server.hits('/p')).toBe(1);
  });

  it('is not retried after a bare "Failed to fetch", which proves nothing (browsers)', async () => {
    let calls = 0;
    const error = await settle(
      createTransport({
        ...FAST,
        fetch: () => {
          calls++;
          return Promise.reject(new TypeError('Failed to fetch'));
        },
      }).request({ method: 'POST', url: URL, body: {} }),
    );
    expect(isNetworkError(error)).toBe(true);
    expect(calls).toBe(1);
  });

  it('reads are retried as before', async () => {
    server = await faultServer({ '/r': [status(503), resetBeforeHeaders(), json({ ok: 1 })] });
    const response = await createTransport(FAST).request({ method: 'GET', url: server.url('/r') });
    expect(response.body).toEqual({ ok: 1 });
    expect(server.hits('/r')).toBe(3);
  });
});

describe('learning that a server honours the key', () => {
  const advertised = { [IDEMPOTENCY_KEY_HONOURED_HEADER]: 'true' };

  it(`from ${IDEMPOTENCY_KEY_HONOURED_HEADER}: true on an earlier answer of its origin (the entry point)`, async () => {
    server = await faultServer({
      '/api/': json({ _links: {} }, 200, advertised),
      '/api/people': [status(503), resetBeforeHeaders(), json({}, 201)],
    });
    const transport = createTransport(FAST);
    await transport.request({ method: 'GET', url: server.url('/api/') });
    const response = await transport.request({
      method: 'POST',
      url: server.url('/api/people'),
      body: {},
    });
    expect(response.status).toBe(201);
    expect(server.hits('/api/people')).toBe(3);
    expect(new Set(keysOf('/api/people')).size).toBe(1);
  });

  it('from the failed answer itself, when it carries the header', async () => {
    server = await faultServer({ '/p': [status(503, advertised), json({}, 201)] });
    await createTransport(FAST).request({ method: 'POST', url: server.url('/p'), body: {} });
    expect(server.hits('/p')).toBe(2);
  });

  it('from an answer that echoes the key sent (as Stripe does), the 503 itself included', async () => {
    server = await faultServer({ '/p': [echoing(503), resetBeforeHeaders(), json({}, 201)] });
    await createTransport(FAST).request({ method: 'POST', url: server.url('/p'), body: {} });
    expect(server.hits('/p')).toBe(3);
  });

  it.each<[string, Fault]>([
    ['echoes another key', echoing(503, 'someone-else')],
    [
      `sends ${IDEMPOTENCY_KEY_HONOURED_HEADER}: false`,
      status(503, { [IDEMPOTENCY_KEY_HONOURED_HEADER]: 'false' }),
    ],
  ])('not from an answer that %s', async (_name, fault) => {
    server = await faultServer({ '/p': [fault, json({}, 201)] });
    const error = await settle(
      createTransport(FAST).request({ method: 'POST', url: server.url('/p'), body: {} }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(server.hits('/p')).toBe(1);
  });

  it('per origin: what one server says is not taken for another', async () => {
    server = await faultServer({ '/': json({}, 200, advertised) });
    other = await faultServer({ '/p': [status(503), json({}, 201)] });
    const transport = createTransport(FAST);
    await transport.request({ method: 'GET', url: server.url('/') });
    const error = await settle(
      transport.request({ method: 'POST', url: other.url('/p'), body: {} }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(other.hits('/p')).toBe(1);
  });

  it('per transport: a new transport starts knowing nothing', async () => {
    server = await faultServer({ '/': json({}, 200, advertised), '/p': [status(503), json({})] });
    await createTransport(FAST).request({ method: 'GET', url: server.url('/') });
    const error = await settle(
      createTransport(FAST).request({ method: 'POST', url: server.url('/p'), body: {} }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(server.hits('/p')).toBe(1);
  });

  it('with keys turned off, a call’s own key is retried once the server has shown it', async () => {
    server = await faultServer({ '/p': [echoing(502), json({}, 201)] });
    await createTransport({ ...FAST, idempotencyKeys: false }).request({
      method: 'POST',
      url: server.url('/p'),
      body: {},
      idempotencyKey: 'mine',
    });
    expect(keysOf('/p')).toEqual(['mine', 'mine']);
  });
});

describe('calls that are never retried', () => {
  it.each<[string, TransportOptions, string | false | undefined]>([
    ['keys turned off for the transport', { idempotencyKeys: false }, undefined],
    ['keys turned off for the call', {}, false],
  ])('a POST with %s: no header, no retry', async (_name, options, idempotencyKey) => {
    const keys = answering([503]);
    const error = await settle(
      createTransport({ ...FAST, ...options }).request({
        method: 'POST',
        url: URL,
        body: {},
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(keys).toEqual([null]);
  });

  it('a POST without a key that loses its connection', async () => {
    server = await faultServer({ '/p': [resetBeforeHeaders(), json({}, 201)] });
    const error = await settle(
      createTransport(FAST).request({
        method: 'POST',
        url: server.url('/p'),
        body: {},
        idempotencyKey: false,
      }),
    );
    expect(isNetworkError(error)).toBe(true);
    expect(server.hits('/p')).toBe(1);
    expect(server.headers('/p')[0]?.['idempotency-key']).toBeUndefined();
  });

  it('a PATCH after a 5xx, whatever it is given, on a server that honours keys too', async () => {
    const keys = answering([503]);
    const error = await settle(
      createTransport(HONOURED).request({
        method: 'PATCH',
        url: URL,
        body: {},
        idempotencyKey: 'k',
      }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(keys).toEqual([null]);
  });

  it.each<HttpMethod>(['GET', 'PUT'])('a 409 on a %s', async (method) => {
    const keys = answering([409], { 'retry-after': '0' });
    const error = await settle(
      createTransport(FAST).request({
        method,
        url: URL,
        ...(method === 'PUT' ? { body: {} } : {}),
      }),
    );
    expect(error).toMatchObject({ status: 409 });
    expect(keys).toHaveLength(1);
  });

  it('a 409 on a POST without a key', async () => {
    const keys = answering([409], { 'retry-after': '0' });
    const error = await settle(
      createTransport(HONOURED).request({
        method: 'POST',
        url: URL,
        body: {},
        idempotencyKey: false,
      }),
    );
    expect(error).toMatchObject({ status: 409 });
    expect(keys).toHaveLength(1);
  });
});

// The light entry's Idempotency-Key: a helper call carries one (a new key per call, the
// same on each retry). It knows nothing of the server, so by default it retries only a
// 429 (which applied nothing); told that the server honours the key
// (`idempotencyKeysHonoured`), also a broken connection, 408, 409 and 5xx, within its one
// deadline. With the key turned off only a 429 is retried.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  callHelper,
  isHTTPError,
  isInvalidIdempotencyKeyError,
  isNetworkError,
  isTimeoutError,
  newIdempotencyKey,
  recordSignature,
} from '../../src/helpers/index.js';
import {
  type FaultServer,
  faultServer,
  json,
  resetBeforeHeaders,
  resetMidBody,
  stallBody,
  status,
} from '../fixtures/fault-server.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
// A bound on a hang, not a speed target: far above what these calls take on a loaded
// machine, below the 10 s and 30 s waits a broken call would make.
const HANG = 8_000;
const input = { person: { given_name: 'Ana' } };
const honoured = { idempotencyKeysHonoured: true };

let server: FaultServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

async function settle(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const keysOf = (path: string) =>
  (server?.headers(path) ?? []).map((headers) => headers['idempotency-key']);

describe('a helper call to a server not known to honour the key (the default)', () => {
  it.each([
    ['a 503', status(503), isHTTPError],
    ['a 502 with Retry-After', status(502, { 'retry-after': '0' }), isHTTPError],
    ['a reset before the answer', resetBeforeHeaders(), isNetworkError],
    ['an answer broken off mid-body', resetMidBody(), isNetworkError],
  ])('is sent once, with its key, after %s', async (_name, fault, guard) => {
    server = await faultServer({ '/h': [fault, json({}, 200)] });
    const error = await settle(recordSignature(server.url('/h'), input));
    expect(guard(error)).toBe(true);
    expect(server.hits('/h')).toBe(1);
    expect(keysOf('/h')[0]).toMatch(UUID_V4);
  });

  it('is not retried on a 409 with Retry-After', async () => {
    server = await faultServer({ '/h': [status(409, { 'retry-after': '0' }), json({}, 200)] });
    expect(await settle(recordSignature(server.url('/h'), input))).toMatchObject({ status: 409 });
    expect(server.hits('/h')).toBe(1);
  });

  it('is retried after a 429, with the same key, up to 3 times', async () => {
    server = await faultServer({ '/h': status(429, { 'retry-after': '0' }) });
    const error = await settle(recordSignature(server.url('/h'), input));
    expect(error).toMatchObject({ status: 429 });
    expect(server.hits('/h')).toBe(4);
    expect(new Set(keysOf('/h')).size).toBe(1);
  });

  it('is retried after a 429 and then answered', async () => {
    server = await faultServer({
      '/h': [status(429, { 'retry-after': '0' }), json({ comments: 'hi' }, 201)],
    });
    const result = await recordSignature(server.url('/h'), input, { apiKey: 'k' });
    expect(result).toMatchObject({ status: 201, record: { comments: 'hi' } });
    expect(server.hits('/h')).toBe(2);
  });
});

describe('Idempotency-Key on the light entry', () => {
  it('is sent on a helper call, and is a new key for each call', async () => {
    server = await faultServer({ '/h': json({}) });
    await recordSignature(server.url('/h'), input);
    await recordSignature(server.url('/h'), input);
    const [first, second] = keysOf('/h');
    expect(first).toMatch(UUID_V4);
    expect(second).toMatch(UUID_V4);
    expect(second).not.toBe(first);
  });

  it('is the same on each retry (server honours keys): reset mid-request, 503, 429, then success', async () => {
    server = await faultServer({
      '/h': [
        resetBeforeHeaders(),
        status(503),
        status(429, { 'retry-after': '0' }),
        json({ comments: 'hi' }, 201),
      ],
    });
    const result = await recordSignature(server.url('/h'), input, { apiKey: 'k', ...honoured });
    expect(result).toMatchObject({ accepted: false, status: 201, record: { comments: 'hi' } });
    const keys = keysOf('/h');
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(server.bodies('/h'))).toEqual(new Set([JSON.stringify(input)]));
  });

  it('retries an answer that broke off mid-body (server honours keys)', async () => {
    server = await faultServer({ '/h': [resetMidBody(), json({}, 200)] });
    const result = await recordSignature(server.url('/h'), input, honoured);
    expect(result).toMatchObject({ status: 200, complete: true, record: undefined });
    expect(server.hits('/h')).toBe(2);
  });

  it('retries a 409 (the same key in progress), waiting its Retry-After (server honours keys)', async () => {
    server = await faultServer({ '/h': [status(409, { 'retry-after': '1' }), json({}, 200)] });
    const start = performance.now();
    await recordSignature(server.url('/h'), input, honoured);
    expect(performance.now() - start).toBeGreaterThanOrEqual(950);
    expect(server.hits('/h')).toBe(2);
  });

  it('does not retry a 409 without Retry-After (a conflict, such as a message already sent)', async () => {
    server = await faultServer({ '/h': [status(409), json({}, 200)] });
    const error = await settle(recordSignature(server.url('/h'), input, honoured));
    expect(error).toMatchObject({ status: 409 });
    expect(server.hits('/h')).toBe(1);
  });

  it('gives up after 3 retries, with the last answer (server honours keys)', async () => {
    server = await faultServer({ '/h': status(502) });
    const error = await settle(recordSignature(server.url('/h'), input, honoured));
    expect(isHTTPError(error)).toBe(true);
    expect(error).toMatchObject({ status: 502 });
    expect(server.hits('/h')).toBe(4);
  });

  it('answers at once when the server asks for a wait longer than maxRetryAfter', async () => {
    server = await faultServer({ '/h': status(429, { 'retry-after': '90' }) });
    const start = performance.now();
    const error = await settle(recordSignature(server.url('/h'), input));
    expect(error).toMatchObject({ status: 429 });
    expect((error as { headers: Headers }).headers.get('retry-after')).toBe('90');
    expect(performance.now() - start).toBeLessThan(HANG);
    expect(server.hits('/h')).toBe(1);
  });

  it.each([400, 404, 422])('does not retry a %i (server honours keys)', async (code) => {
    server = await faultServer({ '/h': status(code) });
    expect(await settle(recordSignature(server.url('/h'), input, honoured))).toMatchObject({
      status: code,
    });
    expect(server.hits('/h')).toBe(1);
  });

  it('answers at once when the wait asked for would pass its timeout', async () => {
    server = await faultServer({ '/h': status(503, { 'retry-after': '10' }) });
    const start = performance.now();
    const error = await settle(
      recordSignature(server.url('/h'), input, { timeout: 5_000, ...honoured }),
    );
    expect(error).toMatchObject({ status: 503 });
    expect(performance.now() - start).toBeLessThan(HANG);
    expect(server.hits('/h')).toBe(1);
  });

  it('keeps its retries inside the timeout: a TimeoutError, never a hang', async () => {
    // The retry after a 1 s Retry-After stalls its body: the deadline must cut it.
    server = await faultServer({ '/h': [status(503, { 'retry-after': '1' }), stallBody()] });
    const timeout = 2_000;
    const statuses: number[] = [];
    const fetch: typeof globalThis.fetch = async (request, init) => {
      const response = await globalThis.fetch(request, init);
      statuses.push(response.status);
      return response;
    };
    const start = performance.now();
    const error = await settle(
      recordSignature(server.url('/h'), input, { timeout, fetch, ...honoured }),
    );
    expect(isTimeoutError(error)).toBe(true);
    expect(error).toMatchObject({ timeout });
    expect(statuses).toEqual([503, 200]);
    // Not before the deadline (less a timer's rounding), and never a hang.
    expect(performance.now() - start).toBeGreaterThanOrEqual(timeout - 10);
    expect(performance.now() - start).toBeLessThan(HANG);
  });

  it('rejects with the caller’s reason when aborted between two attempts', async () => {
    server = await faultServer({ '/h': status(429, { 'retry-after': '10' }) });
    const controller = new AbortController();
    const reason = new Error('page closed');
    // Aborted once the 429 is in (so during the wait before the retry), not at a time
    // that a loaded machine could reach before the first request was even sent.
    const fetch: typeof globalThis.fetch = async (request, init) => {
      const response = await globalThis.fetch(request, init);
      setTimeout(() => controller.abort(reason), 100);
      return response;
    };
    const start = performance.now();
    const error = await settle(
      recordSignature(server.url('/h'), input, { signal: controller.signal, fetch }),
    );
    expect(error).toBe(reason);
    expect(performance.now() - start).toBeLessThan(HANG);
    expect(server.hits('/h')).toBe(1);
  });

  it('sends the caller’s own key as given, on every attempt', async () => {
    server = await faultServer({ '/h': [status(429, { 'retry-after': '0' }), json({})] });
    const idempotencyKey = newIdempotencyKey();
    await recordSignature(server.url('/h'), input, { idempotencyKey });
    expect(keysOf('/h')).toEqual([idempotencyKey, idempotencyKey]);
  });

  it('with the key off: no header, and no retry after a failure, even on a server that honours keys', async () => {
    server = await faultServer({ '/h': [resetBeforeHeaders(), json({})] });
    const error = await settle(
      recordSignature(server.url('/h'), input, { idempotencyKey: false, ...honoured }),
    );
    expect(isNetworkError(error)).toBe(true);
    expect(server.hits('/h')).toBe(1);
    expect(keysOf('/h')).toEqual([undefined]);
  });

  it('with the key off: a 429 is still retried (it applied nothing)', async () => {
    server = await faultServer({ '/h': [status(429, { 'retry-after': '0' }), json({})] });
    await recordSignature(server.url('/h'), input, { idempotencyKey: false });
    expect(server.hits('/h')).toBe(2);
    expect(keysOf('/h')).toEqual([undefined, undefined]);
  });

  it.each(['', 'with space', 'ü', 'x'.repeat(256)])(
    'refuses the own key %j with an InvalidIdempotencyKeyError, without a request',
    async (idempotencyKey) => {
      const fetch = vi.fn<typeof globalThis.fetch>();
      const error = await settle(
        callHelper('https://api.example.org/h', {}, { idempotencyKey, fetch }),
      );
      expect(isInvalidIdempotencyKeyError(error)).toBe(true);
      expect(error).toMatchObject({ method: 'POST', url: 'https://api.example.org/h' });
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it('makes keys without crypto.randomUUID (a page served over plain http)', () => {
    vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
      throw new TypeError('crypto.randomUUID is not available outside secure contexts');
    });
    expect(newIdempotencyKey()).toMatch(UUID_V4);
  });
});

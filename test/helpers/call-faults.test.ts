// The light entry's callHelper against a real server that misbehaves: it has no
// transport of its own, so its timeout must cover the body, and its answers must be
// typed like the full SDK's.
import { afterEach, describe, expect, it } from 'vitest';
import {
  callHelper,
  isInvalidLinkError,
  isNetworkError,
  isResponseFormatError,
  isTimeoutError,
} from '../../src/helpers/index.js';
import {
  type FaultServer,
  faultServer,
  json,
  resetMidBody,
  stallBody,
} from '../fixtures/fault-server.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function settle(call: () => Promise<unknown>): Promise<unknown> {
  return call().then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('callHelper against faults', () => {
  it('times out a body that stalls, within its timeout', async () => {
    server = await faultServer({ '/h': stallBody() });
    // The deadline runs from the call: long enough for the request and the answer's
    // headers to get through on a loaded machine, so that what it cuts is the body.
    const timeout = 5_000;
    let headersIn = false;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      headersIn = true;
      return response;
    };
    const start = performance.now();
    const error = await settle(() => callHelper(server!.url('/h'), {}, { timeout, fetch }));
    expect(isTimeoutError(error)).toBe(true);
    expect(error).toMatchObject({ timeout, method: 'POST' });
    expect(headersIn).toBe(true);
    // Not before the deadline (less a timer's rounding); the upper bound is a bound on a
    // hang (the stalled body never ends), not a speed target.
    expect(performance.now() - start).toBeGreaterThanOrEqual(timeout - 10);
    expect(performance.now() - start).toBeLessThan(timeout + 15_000);
    expect(server.hits('/h')).toBe(1);
  });

  it('gives a NetworkError for a connection reset mid-body, and does not retry without a key', async () => {
    server = await faultServer({ '/h': resetMidBody() });
    const error = await settle(() => callHelper(server!.url('/h'), {}, { idempotencyKey: false }));
    expect(isNetworkError(error)).toBe(true);
    expect(server.hits('/h')).toBe(1);
  });

  it.each([[[]], [null], ['ok'], [3]])(
    'refuses a 2xx answer of %j (not a JSON object)',
    async (body) => {
      server = await faultServer({ '/h': json(body) });
      const error = await settle(() => callHelper(server!.url('/h'), {}));
      expect(isResponseFormatError(error)).toBe(true);
      expect(error).toMatchObject({ status: 200 });
    },
  );

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'http://[::1'])(
    'refuses to call %s (InvalidLinkError), without a request',
    async (href) => {
      const error = await settle(() => callHelper(href, {}));
      expect(isInvalidLinkError(error)).toBe(true);
      expect(error).toMatchObject({ href });
    },
  );
});

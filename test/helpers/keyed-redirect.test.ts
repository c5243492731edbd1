// A keyed helper call never lets its API key follow a redirect. It asks fetch for
// `redirect: 'manual'` and rejects the 3xx it gets back, rather than asking for
// `redirect: 'error'`, which Cloudflare Workers refuse outright (the keyed call runs
// there in test/examples/worker-signup.test.ts). Without a key, redirects are followed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHelper, isHTTPError } from '../../src/helpers/index.js';
import { type FaultServer, faultServer, json, redirect } from '../fixtures/fault-server.js';

let server: FaultServer;
beforeAll(async () => {
  server = await faultServer({
    '/keyed': redirect('/moved', 307),
    '/anonymous': redirect('/moved', 307),
    '/moved': json({}),
  });
});
afterAll(() => server.close());

describe('callHelper and redirects', () => {
  it('with a key: rejects with an HTTPError of the 3xx, not retried, the key sent nowhere else', async () => {
    const error = await callHelper(
      server.url('/keyed'),
      {},
      { apiKey: 'k', idempotencyKeysHonoured: true },
    ).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(isHTTPError(error) && error.status).toBe(307);
    expect(server.hits('/keyed')).toBe(1);
    expect(server.hits('/moved')).toBe(0);
  });

  it('without a key: follows it', async () => {
    await expect(callHelper(server.url('/anonymous'), {})).resolves.toMatchObject({
      status: 200,
    });
    expect(server.hits('/moved')).toBe(1);
  });
});

/**
 * The offline queue where nothing can be kept (no IndexedDB: Node here, a private mode
 * in a browser): it says so, sends directly, and tells the page what became of each
 * call, a refusal as `refused`, a failure that could have been retried as `unsaved`, and
 * one the retry policy may not send again (the server is not known to honour keys) as
 * `unconfirmed`.
 * The queue with IndexedDB is tested in Chromium (test/browser/offline-queue.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createSignupQueue, type QueueEvent } from '../../src/helpers/index.js';

const HREF = 'https://api.example.org/api/v1/petitions/p1/record_signature_helper';

function queueWith(answer: () => Response | Promise<Response>, idempotencyKeysHonoured = false) {
  const keys: (string | null)[] = [];
  const events: QueueEvent[] = [];
  const queue = createSignupQueue({
    indexedDB: null,
    idempotencyKeysHonoured,
    retry: { backoffLimit: 1 },
    fetch: async (_input, init) => {
      keys.push(new Headers(init?.headers).get('idempotency-key'));
      return answer();
    },
  });
  queue.on((event) => events.push(event));
  return { queue, keys, events };
}

describe('the signup queue without IndexedDB', () => {
  it('says it keeps nothing, and sends a call directly, with an Idempotency-Key', async () => {
    const { queue, keys, events } = queueWith(() => Response.json({}));
    expect(await queue.ready).toEqual({
      persistent: false,
      reason: 'IndexedDB is not available here',
    });
    const outcome = await queue.submit(
      HREF,
      { person: { given_name: 'Ana' } },
      { record: 'signature' },
    );
    expect(outcome).toMatchObject({ state: 'sent', result: { status: 200 } });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^\S{16,}$/);
    expect(events.map((event) => event.type)).toEqual(['sent']);
    expect(await queue.pending()).toBe(0);
    queue.close();
  });

  it('tells a refusal as refused', async () => {
    const { queue, events } = queueWith(() =>
      Response.json(
        { 'std:error': { request_type: 'atomic', response_code: 400, resource_status: [] } },
        { status: 400 },
      ),
    );
    const outcome = await queue.submit(HREF, { person: {} });
    expect(outcome).toMatchObject({
      state: 'failed',
      reason: 'refused',
      error: { code: 'HTTP_ERROR', status: 400 },
    });
    expect(events).toMatchObject([{ type: 'failed', reason: 'refused' }]);
  });

  it('tells a call it could not send, and could not keep, as unsaved (server honours keys)', async () => {
    const { queue, events, keys } = queueWith(() => {
      throw new TypeError('fetch failed');
    }, true);
    const outcome = await queue.submit(HREF, { person: {} });
    expect(outcome).toMatchObject({
      state: 'failed',
      reason: 'unsaved',
      error: { code: 'NETWORK' },
    });
    expect(events).toMatchObject([{ type: 'failed', reason: 'unsaved' }]);
    // The call's own retries, as the policy allows them with an honoured key: 1 + 3.
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
  });

  it.each([
    ['a lost answer', () => Promise.reject(new TypeError('fetch failed'))],
    ['a 503', () => new Response('{}', { status: 503 })],
  ])(
    'tells %s on a server not known to honour keys as unconfirmed, sent once',
    async (_, answer) => {
      const { queue, events, keys } = queueWith(answer);
      const outcome = await queue.submit(HREF, { person: {} });
      expect(outcome).toMatchObject({ state: 'failed', reason: 'unconfirmed' });
      expect(events).toMatchObject([{ type: 'failed', reason: 'unconfirmed' }]);
      expect(keys).toHaveLength(1);
    },
  );
});

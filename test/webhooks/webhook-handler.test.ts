import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  memorySeenStore,
  type SeenStore,
  signWebhookBody,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  webhookHandler,
} from '../../src/webhooks/index.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');

const NOW_MS = 1_764_165_600_000;
const now = () => NOW_MS;
const SECRET = 'whsec_test';

function post(body: string, headers: Record<string, string> = {}): Request {
  return new Request('https://receiver.example/hooks/adis', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

async function signed(body: string, secrets = [SECRET], atMs = NOW_MS): Promise<Request> {
  const header = await signWebhookBody(secrets, body, atMs / 1000);
  return post(body, { [WEBHOOK_SIGNATURE_HEADER]: header });
}

/** A handler that records the events it ran, by `type:key`. */
function recording(options: Partial<Parameters<typeof webhookHandler>[0]> = {}) {
  const ran: string[] = [];
  const note = (event: WebhookEvent) => {
    ran.push(`${event.type}:${event.idempotencyKey ?? '-'}`);
  };
  const handler = webhookHandler({
    on: { signature: note, donation: note, outreach: note, unknown: note },
    now,
    ...options,
  });
  return { handler, ran };
}

describe('webhookHandler', () => {
  it('runs each event of a delivery in order and answers 200 with counts', async () => {
    const { handler, ran } = recording();
    const response = await handler(post(fixture('batch')));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ received: 5, handled: 5, duplicates: 0 });
    expect(ran).toEqual([
      'signature:c1d2e3f4a5b60718293a4b5c6d7e8f90',
      'donation:0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'outreach:11111111aaaa2222bbbb3333cccc4444',
      'outreach:55555555dddd6666eeee7777ffff8888',
      'unknown:deadbeefdeadbeefdeadbeefdeadbeef',
    ]);
  });

  it('runs the type handler, then `event`, and acknowledges types with no handler', async () => {
    const calls: string[] = [];
    const handler = webhookHandler({
      on: {
        signature: async (event) => {
          await Promise.resolve();
          calls.push(`signature ${event.record.comments?.slice(0, 3)}`);
        },
        event: (event) => {
          calls.push(`event ${event.type}`);
        },
      },
    });
    const response = await handler(post(fixture('batch')));
    expect(response.status).toBe(200);
    expect(calls).toEqual([
      'signature The',
      'event signature',
      'event donation',
      'event outreach',
      'event outreach',
      'event unknown',
    ]);
  });

  it('skips events whose idempotency key it has handled: a delivery sent again', async () => {
    const { handler, ran } = recording();
    await handler(post(fixture('signature')));
    const again = await handler(post(fixture('signature')));
    expect(await again.json()).toEqual({ received: 1, handled: 0, duplicates: 1 });
    expect(ran).toEqual(['signature:c1d2e3f4a5b60718293a4b5c6d7e8f90']);
  });

  it('skips a key repeated within one delivery, and always runs events with no key', async () => {
    const { handler, ran } = recording();
    const element = { 'osdi:signature': {}, idempotency_key: 'same' };
    const keyless = { 'osdi:signature': {} };
    const body = JSON.stringify([element, element, keyless]);
    expect(await (await handler(post(body))).json()).toEqual({
      received: 3,
      handled: 2,
      duplicates: 1,
    });
    await handler(post(body));
    expect(ran).toEqual(['signature:same', 'signature:-', 'signature:-']);
  });

  it('with seen: false, runs every event every time', async () => {
    const { handler, ran } = recording({ seen: false });
    await handler(post(fixture('signature')));
    await handler(post(fixture('signature')));
    expect(ran).toHaveLength(2);
  });

  it('answers 500 when a handler throws, and the retry runs that event again', async () => {
    const onError = vi.fn();
    let failures = 1;
    const ran: string[] = [];
    const handler = webhookHandler({
      onError,
      on: {
        signature: (event) => {
          ran.push(`signature ${event.idempotencyKey}`);
        },
        donation: (event) => {
          ran.push(`donation ${event.idempotencyKey}`);
          if (failures-- > 0) throw new Error('database down');
        },
        outreach: (event) => {
          ran.push(`outreach ${event.idempotencyKey}`);
        },
      },
    });
    const first = await handler(post(fixture('batch')));
    expect(first.status).toBe(500);
    const answer = await first.json();
    expect(answer).toMatchObject({ error: 'HANDLER_FAILED', index: 1 });
    expect(JSON.stringify(answer)).not.toContain('database down');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toEqual(new Error('database down'));
    expect(onError.mock.calls[0]?.[1]).toMatchObject({ type: 'donation', index: 1 });

    const retry = await handler(post(fixture('batch')));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ received: 5, handled: 4, duplicates: 1 });
    expect(ran).toEqual([
      'signature c1d2e3f4a5b60718293a4b5c6d7e8f90',
      'donation 0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      // The retry: the signature was handled, the donation and what follows run now.
      'donation 0f1e2d3c4b5a69788796a5b4c3d2e1f0',
      'outreach 11111111aaaa2222bbbb3333cccc4444',
      'outreach 55555555dddd6666eeee7777ffff8888',
    ]);
  });

  it('answers 500 when the seen store fails, so the sender retries', async () => {
    const broken: SeenStore = {
      has: async () => {
        throw new Error('redis unreachable');
      },
      add: async () => undefined,
    };
    const { handler, ran } = recording({ seen: broken, onError: () => undefined });
    expect((await handler(post(fixture('signature')))).status).toBe(500);
    expect(ran).toEqual([]);
  });

  it('takes an async seen store', async () => {
    const keys = new Set<string>();
    const store: SeenStore = {
      has: async (key) => keys.has(key),
      add: async (key) => {
        keys.add(key);
      },
    };
    const { handler } = recording({ seen: store });
    await handler(post(fixture('outreach')));
    expect([...keys]).toEqual([
      '11111111aaaa2222bbbb3333cccc4444',
      '55555555dddd6666eeee7777ffff8888',
    ]);
  });

  it('answers 400 with a small JSON error for a malformed body, running nothing', async () => {
    const { handler, ran } = recording();
    const response = await handler(post('[{"osdi:signature":{}}, 3]'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'WEBHOOK_PAYLOAD',
      problem: 'element-not-an-object',
      index: 1,
      message: expect.stringMatching(/^Invalid webhook payload: element 1: /),
    });
    expect((await handler(post('not json'))).status).toBe(400);
    expect(ran).toEqual([]);
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const { handler } = recording();
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await handler(new Request('https://receiver.example/', { method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('answers 413 to a body over maxBodyBytes, declared or streamed', async () => {
    const { handler, ran } = recording({ maxBodyBytes: 100 });
    const big = JSON.stringify([{ 'osdi:signature': { comments: 'x'.repeat(200) } }]);
    const declared = await handler(post(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: 'BODY_TOO_LARGE', maxBodyBytes: 100 });
    // No Content-Length: the stream is cut as it passes the cap.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 32) controller.enqueue(bytes.slice(i, i + 32));
        controller.close();
      },
    });
    const streamed = await handler(
      new Request('https://receiver.example/', {
        method: 'POST',
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(ran).toEqual([]);
    expect(handler.maxBodyBytes).toBe(100);
  });

  describe('with a secret', () => {
    it('runs a delivery signed with it', async () => {
      const { handler, ran } = recording({ secret: SECRET });
      const response = await handler(await signed(fixture('signature')));
      expect(response.status).toBe(200);
      expect(ran).toHaveLength(1);
    });

    it.each([
      ['missing', async () => post(fixture('signature'))],
      [
        'malformed',
        async () => post(fixture('signature'), { [WEBHOOK_SIGNATURE_HEADER]: 'v1=00' }),
      ],
      ['mismatch', async () => signed(fixture('signature'), ['another secret'])],
      ['expired', async () => signed(fixture('signature'), [SECRET], NOW_MS - 301_000)],
    ] as const)('answers 401 when the signature is %s, running nothing', async (reason, make) => {
      const { handler, ran } = recording({ secret: SECRET });
      const response = await handler(await make());
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'WEBHOOK_SIGNATURE', reason });
      expect(ran).toEqual([]);
    });

    it('answers 401 to a body changed after signing', async () => {
      const { handler } = recording({ secret: SECRET });
      const header = await signWebhookBody([SECRET], fixture('signature'), NOW_MS / 1000);
      const forged = fixture('signature').replace('Marisol', 'Mallory');
      const response = await handler(post(forged, { [WEBHOOK_SIGNATURE_HEADER]: header }));
      expect(response.status).toBe(401);
    });

    it('checks the signature before the body: a forged malformed body is 401, not 400', async () => {
      const { handler } = recording({ secret: SECRET });
      expect((await handler(post('garbage'))).status).toBe(401);
    });

    it('takes several secrets while one is rotated', async () => {
      const { handler, ran } = recording({ secret: ['new', 'old'] });
      expect((await handler(await signed(fixture('signature'), ['old']))).status).toBe(200);
      expect((await handler(await signed(fixture('donation'), ['new']))).status).toBe(200);
      expect((await handler(await signed(fixture('action'), ['neither']))).status).toBe(401);
      expect(ran).toHaveLength(2);
    });

    it('honours toleranceSeconds', async () => {
      const { handler } = recording({ secret: SECRET, toleranceSeconds: 10 });
      const late = await signed(fixture('signature'), [SECRET], NOW_MS - 11_000);
      expect((await handler(late)).status).toBe(401);
    });
  });

  it('passes validate to parseWebhook: a record that does not match is 400', async () => {
    const { signatureKind } = await import('../../src/schema/kinds/signature.js');
    const { handler } = recording({ validate: { signature: signatureKind } });
    const response = await handler(post(JSON.stringify([{ 'osdi:signature': { comments: 1 } }])));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ problem: 'invalid-record', index: 0 });
  });
});

describe('memorySeenStore', () => {
  it('forgets keys older than ttlMs', () => {
    let clock = 0;
    const store = memorySeenStore({ ttlMs: 1000, now: () => clock });
    store.add('a');
    clock = 999;
    expect(store.has('a')).toBe(true);
    clock = 1000;
    expect(store.has('a')).toBe(false);
  });

  it('keeps at most maxKeys, forgetting the oldest first', () => {
    const store = memorySeenStore({ maxKeys: 3, now: () => 0 });
    for (const key of ['a', 'b', 'c', 'd']) store.add(key);
    expect(['a', 'b', 'c', 'd'].map((key) => store.has(key))).toEqual([false, true, true, true]);
    // Added again, a key is young again.
    store.add('b');
    store.add('e');
    expect(['b', 'c', 'd', 'e'].map((key) => store.has(key))).toEqual([true, false, true, true]);
  });

  it('defaults to 10 000 keys', () => {
    const store = memorySeenStore();
    for (let i = 0; i <= 10_000; i += 1) store.add(String(i));
    expect(store.has('0')).toBe(false);
    expect(store.has('1')).toBe(true);
    expect(store.has('10000')).toBe(true);
  });
});

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  signWebhookBody,
  toNodeListener,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookHandlerOptions,
  webhookHandler,
} from '../../src/webhooks/index.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

/** A real node:http server on a free loopback port, running the handler. */
async function serve(options: Partial<WebhookHandlerOptions> = {}) {
  const ran: string[] = [];
  const handler = webhookHandler({
    on: { event: (event) => void ran.push(`${event.type}:${event.idempotencyKey}`) },
    ...options,
  });
  const server = createServer(toNodeListener(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/adis`, ran };
}

describe('toNodeListener over a real node:http server', () => {
  it('reads the raw body, checks the signature over it, runs the events and answers', async () => {
    const { url, ran } = await serve({ secret: 's3cret' });
    const body = fixture('batch');
    const header = await signWebhookBody(['s3cret'], body, Date.now() / 1000);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: header },
      body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ received: 5, handled: 5, duplicates: 0 });
    expect(ran.map((line) => line.split(':')[0])).toEqual([
      'signature',
      'donation',
      'outreach',
      'outreach',
      'unknown',
    ]);
    // Sent again (its answer lost, say): every event skipped.
    const again = await fetch(url, {
      method: 'POST',
      headers: { [WEBHOOK_SIGNATURE_HEADER]: header },
      body,
    });
    expect(await again.json()).toEqual({ received: 5, handled: 0, duplicates: 5 });
  });

  it('answers 401 to a forged signature and 400 to a malformed body', async () => {
    const signedServer = await serve({ secret: 's3cret' });
    const forged = await fetch(signedServer.url, {
      method: 'POST',
      headers: { [WEBHOOK_SIGNATURE_HEADER]: `t=${Math.floor(Date.now() / 1000)},v1=00ff` },
      body: fixture('signature'),
    });
    expect(forged.status).toBe(401);
    const open = await serve();
    const malformed = await fetch(open.url, { method: 'POST', body: '{"not":"an array"}' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ problem: 'not-an-array' });
    expect([...signedServer.ran, ...open.ran]).toEqual([]);
  });

  it('answers 405 to GET and 413 to a body over the cap, declared or chunked', async () => {
    const { url, ran } = await serve({ maxBodyBytes: 1024 });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = JSON.stringify([{ 'osdi:signature': { comments: 'x'.repeat(5000) } }]);
    const declared = await fetch(url, { method: 'POST', body: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: 'BODY_TOO_LARGE', maxBodyBytes: 1024 });
    const bytes = new TextEncoder().encode(big);
    const chunked = await fetch(url, {
      method: 'POST',
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 512) controller.enqueue(bytes.slice(i, i + 512));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(ran).toEqual([]);
  });

  it('answers 500 when a handler throws, so the sender retries', async () => {
    const { url } = await serve({
      on: {
        signature: () => {
          throw new Error('boom');
        },
      },
      onError: () => undefined,
    });
    const response = await fetch(url, { method: 'POST', body: fixture('signature') });
    expect(response.status).toBe(500);
  });

  it("uses Express's raw body (express.raw) and refuses one already parsed to JSON", async () => {
    const handler = webhookHandler({ on: {}, seen: false });
    const listener = toNodeListener(handler);
    const written: { status?: number; body?: string } = {};
    const response = {
      statusCode: 0,
      setHeader: () => undefined,
      end(body: Uint8Array) {
        written.status = this.statusCode;
        written.body = new TextDecoder().decode(body);
      },
    };
    const base = {
      method: 'POST',
      url: '/hooks',
      headers: { host: 'receiver.example' },
      readableEnded: true,
      async *[Symbol.asyncIterator]() {},
    };
    await listener({ ...base, body: Buffer.from(fixture('signature')) }, response);
    expect(written.status).toBe(200);
    await listener({ ...base, body: JSON.parse(fixture('signature')) }, response);
    expect(written.status).toBe(500);
    expect(JSON.parse(written.body ?? '')).toMatchObject({ error: 'BODY_ALREADY_PARSED' });
  });
});

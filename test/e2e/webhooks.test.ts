/**
 * Webhooks end to end, both halves of this repository together: writes made with the
 * SDK against the reference server come out of its outbox as signed deliveries over a
 * real loopback socket, into a receiver built with `adis-sdk/webhooks` (`webhookHandler`
 * behind `toNodeListener`): typed events, in order, each run once; the same delivery
 * sent again is skipped; a replayed or forged one is refused 401.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../reference-server/src/testing.js';
import { connect } from '../../src/index.js';
import {
  toNodeListener,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  webhookHandler,
} from '../../src/webhooks/index.js';

const SECRET = 'whsec_end_to_end_secret';
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A receiver on a free loopback port: the events it ran, in order. */
async function startReceiver(): Promise<{ url: string; ran: WebhookEvent[] }> {
  const ran: WebhookEvent[] = [];
  const handler = webhookHandler({
    secret: SECRET,
    on: { event: (event) => void ran.push(event) },
  });
  const server: Server = createServer(toNodeListener(handler));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(() => new Promise((done) => server.close(() => done())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, ran };
}

function kit(): TestServer {
  const server = createTestServer();
  closers.push(() => server.close());
  return server;
}

describe('reference server to adis-sdk/webhooks', () => {
  it('delivers SDK writes to an SDK receiver as typed, signed events, once each', async () => {
    const server = kit();
    const receiver = await startReceiver();
    await server.webhooks.subscribe({ url: receiver.url, secret: SECRET });
    const client = await connect(server.entryPoint, {
      apiKey: server.keys.write,
      fetch: server.fetch,
    });

    const petition = await client.petitions.create({ title: 'Light the towpath' });
    await petition.recordSignature({
      person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
      comments: 'Dark at five',
      add_tags: ['towpath'],
    });
    await client.people.create({
      given_name: 'Bo',
      email_addresses: [{ address: 'bo@example.org' }],
    });
    await server.webhooks.deliver();

    expect(receiver.ran.map((event) => event.type)).toEqual(['signature', 'signup']);
    const [signature, signup] = receiver.ran;
    if (signature?.type !== 'signature' || signup?.type !== 'signup') throw new Error('types');
    expect(signature.record.comments).toBe('Dark at five');
    expect(signature.person?.given_name).toBe('Ana');
    expect(signature.addTags).toEqual(['towpath']);
    expect(signature.links.action).toBe(petition.url);
    expect(signup.record.given_name).toBe('Bo');
    expect(signature.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    // The same delivery again (a retry after a lost answer): acknowledged, run no more.
    const [first] = server.webhooks.deliveries;
    if (!first) throw new Error('no delivery recorded');
    expect(first.status).toBe(200);
    const again = await fetch(receiver.url, {
      method: 'POST',
      headers: first.headers,
      body: first.body,
    });
    expect(again.status).toBe(200);
    expect(receiver.ran).toHaveLength(2);
  });

  it('refuses a forged body and a replay past the tolerance with 401', async () => {
    const server = kit();
    const ran: WebhookEvent[] = [];
    const captured = await server.webhooks.subscribe({ secret: SECRET });
    const client = await connect(server.entryPoint, {
      apiKey: server.keys.write,
      fetch: server.fetch,
    });
    await client.people.create({ given_name: 'Cy' });
    await server.webhooks.deliver();
    const [delivery] = server.webhooks.deliveries;
    if (!delivery) throw new Error('no delivery recorded');
    const signature = delivery.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] ?? '';
    const post = (body: string, now: number) =>
      webhookHandler({ secret: SECRET, now: () => now, on: { event: (e) => void ran.push(e) } })(
        new Request(captured.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
          body,
        }),
      );

    const forged = await post(delivery.body.replace('Cy', 'Mallory'), Date.now());
    expect(forged.status).toBe(401);
    const replayed = await post(delivery.body, Date.now() + 10 * 60 * 1000);
    expect(replayed.status).toBe(401);
    expect(ran).toEqual([]);
    // The genuine one, on time, still runs.
    expect((await post(delivery.body, Date.now())).status).toBe(200);
    expect(ran.map((event) => event.type)).toEqual(['signup']);
  });
});

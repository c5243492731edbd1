/**
 * The testing kit's webhooks: a subscription's deliveries go to a Fetch handler in the
 * test (here the SDK's own `webhookHandler`, so both sides are checked together), every
 * delivery is recorded, `deliver()` is deterministic, and `reset()` forgets it all.
 */

import { checkWebhookSignature } from 'adis-sdk/server-kit';
import {
  type KnownWebhookEvent,
  WEBHOOK_EVENT_TYPES as SDK_EVENT_TYPES,
  webhookHandler,
} from 'adis-sdk/webhooks';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../src/domain/webhook-subscriptions.js';
import { createTestServer, type TestServer } from '../src/testing.js';

const kits: TestServer[] = [];

afterEach(async () => {
  await Promise.all(kits.splice(0).map((kit) => kit.close()));
});

function kit(): TestServer {
  const made = createTestServer();
  kits.push(made);
  return made;
}

/** Signs a new petition of `server` through its helper, as a client would. */
async function signPetition(server: TestServer, given: string): Promise<void> {
  const headers = { 'STD-API-Token': server.keys.write, 'Content-Type': 'application/json' };
  const created = await server.fetch(`${server.entryPoint}petitions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: `Petition of ${given}` }),
  });
  expect(created.status).toBe(201);
  const petition = (await created.json()) as { _links: Record<string, { href: string }> };
  const helper = petition._links['std:record_signature_helper']?.href ?? '';
  const signed = await server.fetch(helper, {
    method: 'POST',
    headers,
    body: JSON.stringify({ comments: `${given} signs`, person: { given_name: given } }),
  });
  expect(signed.status).toBeLessThan(300);
}

/** The idempotency keys of a delivery's elements, in order. */
function idempotencyKeys(events: readonly unknown[] | undefined): unknown[] {
  return (events ?? []).map(
    (element) => (element as { idempotency_key?: unknown }).idempotency_key,
  );
}

describe('the event types', () => {
  it("are all types the SDK names, so that no event of this server reads as 'unknown'", () => {
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !SDK_EVENT_TYPES.includes(type as never))).toEqual(
      [],
    );
    expect(WEBHOOK_EVENT_TYPES.length).toBeGreaterThan(5);
  });
});

describe('kit.webhooks', () => {
  it("drives the SDK's webhook handler directly, signed, and records the delivery", async () => {
    const server = kit();
    const signatures: KnownWebhookEvent<'signature'>[] = [];
    const { url, secret } = await server.webhooks.subscribe({
      secret: 'whsec_kit',
      handler: webhookHandler({
        secret: 'whsec_kit',
        on: { signature: (event) => void signatures.push(event) },
      }),
    });
    await signPetition(server, 'Ana');
    expect(server.webhooks.deliveries).toHaveLength(0);

    await server.webhooks.deliver();

    expect(signatures.map((event) => event.record.comments)).toEqual(['Ana signs']);
    expect(signatures[0]?.person?.given_name).toBe('Ana');
    expect(signatures[0]?.links.self).toMatch(/^http:\/\/adis\.test\/api\/v1\/signatures\//);
    const [delivery] = server.webhooks.deliveries;
    expect(delivery?.url).toBe(url);
    expect(delivery?.status).toBe(200);
    expect(delivery?.events).toHaveLength(1);
    expect(Object.keys(delivery?.events[0] as object)).toEqual([
      'std:signature',
      'idempotency_key',
    ]);
    expect(
      await checkWebhookSignature(
        delivery?.headers['adis-webhook-signature'],
        delivery?.body ?? '',
        secret,
      ),
    ).toBe('ok');
    // Delivered: a second run sends nothing more.
    await server.webhooks.deliver();
    expect(server.webhooks.deliveries).toHaveLength(1);
  });

  it('a handler refusing is logged as failed, retried after its backoff, or at once with retry: true', async () => {
    // The worker's clock (Date; only it, timers stay real) stands still: the retry, due
    // at least 1 ms after the failure whatever the jitter, cannot come due between two
    // deliver() calls, however slow the machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const server = kit();
    const statuses = [503];
    await server.webhooks.subscribe({
      handler: async () => new Response(null, { status: statuses.shift() ?? 204 }),
    });
    await signPetition(server, 'Bo');
    await server.webhooks.deliver();
    expect(server.webhooks.deliveries.map((d) => d.status)).toEqual([503]);
    // Not due yet: the backoff holds the retry.
    const [attempt] = await server.storage.webhooks.listAttempts('test-webhook-1', 1);
    expect(attempt?.outcome).toBe('failed');
    expect(attempt?.nextAttemptMs).toBeGreaterThan(attempt?.atMs ?? 0);
    await server.webhooks.deliver();
    expect(server.webhooks.deliveries).toHaveLength(1);

    // retry: true makes it due now; the same event goes again, and is delivered.
    await server.webhooks.deliver({ retry: true });
    const [failed, retried] = server.webhooks.deliveries;
    expect(retried?.status).toBe(204);
    expect(retried?.body).toBe(failed?.body);
    expect(idempotencyKeys(retried?.events)).toEqual(idempotencyKeys(failed?.events));
    const [delivered] = await server.storage.webhooks.listAttempts('test-webhook-1', 1);
    expect(delivered).toMatchObject({ outcome: 'delivered', attempt: 2 });
  });

  it('an event says what was written, even when its record is deleted before delivery', async () => {
    const server = kit();
    await server.webhooks.subscribe();
    await signPetition(server, 'Flo');
    const headers = { 'STD-API-Token': server.keys.write };
    const page = await server.fetch(`${server.entryPoint}signatures`, { headers });
    const signatures = (await page.json()) as {
      _links: Record<string, { href: string }[] | undefined>;
    };
    const href = signatures._links['std:signatures']?.[0]?.href ?? '';
    const deleted = await server.fetch(href, { method: 'DELETE', headers });
    expect(deleted.status).toBeLessThan(300);

    await server.webhooks.deliver();
    const [delivery] = server.webhooks.deliveries;
    expect(delivery?.status).toBe(204);
    const [element] = (delivery?.events ?? []) as {
      'std:signature'?: { comments?: string; _links?: Record<string, { href: string }> };
    }[];
    expect(element?.['std:signature']?.comments).toBe('Flo signs');
    expect(element?.['std:signature']?._links?.self?.href).toBe(href);
  });

  it('subscribes per tenant and trigger; reset() forgets deliveries and subscriptions', async () => {
    const server = kit();
    await server.webhooks.subscribe({ triggers: ['signup'] });
    await server.webhooks.subscribe({ tenant: 'other' });
    await signPetition(server, 'Cy');
    const created = await server.fetch(`${server.entryPoint}people`, {
      method: 'POST',
      headers: { 'STD-API-Token': server.keys.write, 'Content-Type': 'application/json' },
      body: JSON.stringify({ given_name: 'Eve' }),
    });
    expect(created.status).toBe(201);
    await server.webhooks.deliver();
    // demo's subscription takes signups only (a person created), not the signature;
    // other's gets nothing of demo's.
    const types = server.webhooks.deliveries.flatMap((d) =>
      d.events.map((element) => Object.keys(element as object)[0]),
    );
    expect(types).toEqual(['std:signup']);

    server.reset();
    expect(server.webhooks.deliveries).toHaveLength(0);
    await signPetition(server, 'Di');
    await server.webhooks.deliver();
    expect(server.webhooks.deliveries).toHaveLength(0);
  });
});

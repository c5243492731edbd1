/**
 * The delivery worker on its own: retry spacing (exponential, full jitter, capped, never
 * zero), delivery in the background without `idle()` (woken by a request's commit, by `notify()`, or by the poll), the
 * outbox pruned once delivered, options checked when it starts, and delivery claims (a
 * subscription another process claimed is left to it; a lane that lost its claim ends).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { appConfigOf } from '../src/http/app.js';
import type { WebhookStore } from '../src/storage/webhook-store.js';
import { retryDelayMs } from '../src/webhooks/backoff.js';
import {
  DELIVERY_CLAIM_LEASE_MS,
  startWebhookDelivery,
  type WebhookDelivery,
} from '../src/webhooks/delivery-worker.js';
import { takesEvent } from '../src/webhooks/subscription-delivery.js';
import { harness, ORIGIN } from './helpers.js';
import { type Receiver, startReceiver, waitFor } from './webhook-receiver.js';

const receivers: Receiver[] = [];
const workers: WebhookDelivery[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop(1000)));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

describe('retryDelayMs', () => {
  it('doubles its ceiling from the base, caps it, and scales it by the jitter', () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, () => 0.5))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(40, top)).toBe(3_599_996);
    expect(retryDelayMs(5000, top, { baseMs: 10, maxMs: 1000 })).toBe(999);
    expect(retryDelayMs(3, () => 0.25, { baseMs: 10, maxMs: 1000 })).toBe(10);
  });

  it('is never 0, so a retry is never due at the instant it failed', () => {
    expect(retryDelayMs(1, () => 0)).toBe(1);
  });
});

describe('takesEvent', () => {
  it('takes every type for *, else the types listed', () => {
    expect(takesEvent(['*'], 'donation')).toBe(true);
    expect(takesEvent(['signature', 'signup'], 'signup')).toBe(true);
    expect(takesEvent(['signature'], 'donation')).toBe(false);
  });
});

describe('startWebhookDelivery in the background', () => {
  /** An app with a subscription of acme's to a loopback receiver, and a worker polling every `pollMs`. */
  async function running(pollMs: number) {
    const h = harness({ anonymousRateLimit: false });
    const hook = await startReceiver();
    receivers.push(hook);
    const tenant = await h.storage.tenants.ensure('acme');
    await h.storage.webhooks.addSubscription({
      id: 'sub-bg',
      tenantId: tenant.id,
      url: hook.url,
      secret: 'whsec_background',
      triggers: ['*'],
      source: 'file',
      createdMs: Date.now(),
    });
    const worker = startWebhookDelivery({ app: h.app, rootUrl: ORIGIN, pollMs, pruneEveryMs: 1 });
    workers.push(worker);
    const delivered = () => hook.received.filter((post) => post.status === 200).length;
    return { h, hook, tenant, worker, delivered };
  }

  it('is woken by the commit of a request that made events, with no poll due', async () => {
    // The poll is further off than the wait's bound: only the commit can wake the worker.
    const { h, hook, delivered } = await running(60_000);
    const created = await h.json('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    expect(created.status).toBe(201);
    await hook.until(() => delivered() === 1, "delivery of the request's event");
  });

  it('finds events written outside requests on notify() or by its poll, and prunes them', async () => {
    const { h, hook, tenant, worker, delivered } = await running(20);
    const config = appConfigOf(h.app);
    if (!config) throw new Error('not an app of createApp');
    const { records, registry } = config;
    const person = registry.bySingular('person');
    if (!person) throw new Error('no person kind');
    // Written straight through the domain (a background job, another process): nobody
    // announces the commit.
    await records.create(tenant, person, { given_name: 'Ana' });
    worker.notify();
    await hook.until(() => delivered() === 1, 'first delivery');
    await records.create(tenant, person, { given_name: 'Bo' });
    await hook.until(() => delivered() === 2, 'second delivery, found by the poll');
    // Rows of a database: nothing to await, so polled.
    await waitFor(
      async () => (await h.storage.webhooks.eventsAfter(tenant.id, 0, 10)).length === 0,
      'the delivered events pruned',
    );
    expect(hook.received).toHaveLength(2);
  });

  it('runs one tick at a time, however often it is woken while one awaits storage', async () => {
    const h = harness();
    await h.storage.tenants.ensure('acme');
    const inner = h.storage.webhooks;
    let inFlight = 0;
    let most = 0;
    let lists = 0;
    let eightTicks = () => {};
    const eight = new Promise<void>((resolve) => {
      eightTicks = resolve;
    });
    const webhooks: WebhookStore = Object.assign(Object.create(inner) as WebhookStore, {
      async listSubscriptions(tenantId?: number) {
        inFlight++;
        most = Math.max(most, inFlight);
        // Slower than the poll: timers and notify() fire while the tick awaits.
        await new Promise((done) => setTimeout(done, 15));
        inFlight--;
        if (++lists === 8) eightTicks();
        return inner.listSubscriptions(tenantId);
      },
    });
    const storage = Object.assign(Object.create(h.storage) as typeof h.storage, { webhooks });
    const worker = startWebhookDelivery({ app: h.app, storage, rootUrl: ORIGIN, pollMs: 1 });
    workers.push(worker);
    const waking = setInterval(() => worker.notify(), 2);
    try {
      await Promise.all([worker.idle(), worker.idle()]);
      await eight;
    } finally {
      clearInterval(waking);
    }
    expect(most).toBe(1);
  });

  it('refuses to start without a root URL or with a bad option', () => {
    const h = harness();
    expect(() => startWebhookDelivery({ app: h.app })).toThrow(/rootUrl/);
    expect(() => startWebhookDelivery({ app: {}, rootUrl: ORIGIN })).toThrow(/createApp/);
    expect(() =>
      startWebhookDelivery({ app: h.app, rootUrl: ORIGIN, batchSize: 0, background: false }),
    ).toThrow(/batchSize must be a positive number/);
  });
});

describe('delivery claims (several processes on one database)', () => {
  /** acme with a subscription, `count` events, and a worker driven by `idle()` on a clock the test moves. */
  async function claimed(count: number, fetch: typeof globalThis.fetch, clock: { at: number }) {
    const h = harness();
    const tenant = await h.storage.tenants.ensure('acme');
    await h.storage.webhooks.addSubscription({
      id: 'sub-claimed',
      tenantId: tenant.id,
      url: 'http://receiver.test/hook',
      secret: 'whsec_claimed_sub',
      triggers: ['*'],
      source: 'file',
      createdMs: clock.at,
    });
    for (let n = 0; n < count; n++) {
      await h.storage.webhooks.appendEvent({
        tenantId: tenant.id,
        type: 'unknown-kind',
        idempotencyKey: `key-${n}`,
        payload: { record: { kind: 'unknown-kind', id: `r${n}`, doc: { n } } },
        createdMs: clock.at,
      });
    }
    const logs: string[] = [];
    const worker = startWebhookDelivery({
      app: h.app,
      rootUrl: ORIGIN,
      background: false,
      batchSize: 1,
      fetch,
      now: () => clock.at,
      log: (message) => logs.push(message),
    });
    workers.push(worker);
    return { store: h.storage.webhooks, worker, logs };
  }

  it('leaves a subscription another process claimed to it, and delivers it once released', async () => {
    const clock = { at: 1_700_000_000_000 };
    const posts: string[] = [];
    const fetch: typeof globalThis.fetch = async (input) => {
      posts.push(String(input));
      return new Response(null, { status: 204 });
    };
    const { store, worker, logs } = await claimed(2, fetch, clock);
    expect(await store.claimSubscription('sub-claimed', 'other', clock.at, clock.at + 60_000)).toBe(
      true,
    );
    await worker.idle();
    expect(posts).toEqual([]);
    expect(await store.listAttempts('sub-claimed', 10)).toEqual([]);

    await store.releaseSubscription('sub-claimed', 'other');
    await worker.idle();
    expect(posts).toHaveLength(2);
    expect(logs).toEqual([]);
    // The lane released its claim when it ended: another process may take it at once.
    expect(await store.claimSubscription('sub-claimed', 'other', clock.at, clock.at + 1)).toBe(
      true,
    );
  });

  it('renews its claim before each batch, and ends quietly when it lost it', async () => {
    const clock = { at: 1_700_000_000_000 };
    const posts: string[] = [];
    let store: WebhookStore | undefined;
    const fetch: typeof globalThis.fetch = async (input) => {
      posts.push(String(input));
      if (posts.length === 1 && store) {
        // The attempt outlasts the lease (a paused process); another takes the claim over.
        clock.at += DELIVERY_CLAIM_LEASE_MS * 10;
        expect(
          await store.claimSubscription('sub-claimed', 'other', clock.at, clock.at + 60_000),
        ).toBe(true);
      }
      return new Response(null, { status: 204 });
    };
    const made = await claimed(3, fetch, clock);
    store = made.store;
    await made.worker.idle();
    // The first batch was sent and logged; the second not, since the claim is the other's.
    expect(posts).toHaveLength(1);
    expect((await store.listAttempts('sub-claimed', 10)).map((a) => a.outcome)).toEqual([
      'delivered',
    ]);
    expect(made.logs).toEqual([]);

    await store.releaseSubscription('sub-claimed', 'other');
    await made.worker.idle();
    expect(posts).toHaveLength(3);
  });
});

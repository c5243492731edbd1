/**
 * The delivery worker on its own: retry spacing (exponential, full jitter, capped, never
 * zero), delivery in the background without `idle()` (woken by a request's commit, by `notify()`, or by the poll), the
 * outbox pruned once delivered, and options checked when it starts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { appConfigOf } from '../src/http/app.js';
import { retryDelayMs } from '../src/webhooks/backoff.js';
import { startWebhookDelivery, type WebhookDelivery } from '../src/webhooks/delivery-worker.js';
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
    const tenant = h.storage.ensureTenant('acme');
    h.storage.webhooks.addSubscription({
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
    const { h, delivered } = await running(60_000);
    const created = await h.json('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    expect(created.status).toBe(201);
    await waitFor(() => delivered() === 1, "the delivery of the request's event");
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
    records.create(tenant, person, { given_name: 'Ana' });
    worker.notify();
    await waitFor(() => delivered() === 1, 'the first delivery');
    records.create(tenant, person, { given_name: 'Bo' });
    await waitFor(() => delivered() === 2, 'the second, found by the poll');
    await waitFor(
      () => h.storage.webhooks.eventsAfter(tenant.id, 0, 10).length === 0,
      'the delivered events pruned',
    );
    expect(hook.received).toHaveLength(2);
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

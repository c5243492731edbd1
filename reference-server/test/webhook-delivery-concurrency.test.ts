/**
 * The delivery worker's bound on POSTs in flight: one event fanned out to many
 * subscriptions opens no more connections than the bound, one tenant holds no more than
 * its share while another tenant's delivery goes out beside it, every delivery past the
 * bound waits and is made (none dropped), and a fan-out wider than ten no longer puts a
 * listener per POST on one shared AbortSignal (Node's MaxListenersExceededWarning). A
 * stop cuts short the POSTs in flight after its grace and sends none of those waiting.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookDelivery, type WebhookDelivery } from '../src/webhooks/delivery-worker.js';
import { type Harness, harness, ORIGIN, OTHER } from './helpers.js';
import { waitFor } from './webhook-receiver.js';

const workers: WebhookDelivery[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop(1000)));
});

/**
 * A fetch standing in for many receivers: it records every POST, counts those in flight
 * (in all and by host), and holds each until released (or answers at once when not
 * holding). Like Node's fetch it listens on the signal it is given, and fails on abort.
 */
function receivers() {
  let holding = true;
  const held: (() => void)[] = [];
  const posted: string[] = [];
  const inFlightBy = new Map<string, number>();
  const mostBy = new Map<string, number>();
  let inFlight = 0;
  let most = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    posted.push(url.href);
    inFlight++;
    most = Math.max(most, inFlight);
    inFlightBy.set(url.host, (inFlightBy.get(url.host) ?? 0) + 1);
    mostBy.set(url.host, Math.max(mostBy.get(url.host) ?? 0, inFlightBy.get(url.host) ?? 0));
    try {
      await new Promise<void>((resolve, reject) => {
        const signal = init?.signal;
        const abort = () => reject(new DOMException('This operation was aborted', 'AbortError'));
        if (signal?.aborted) return abort();
        signal?.addEventListener('abort', abort, { once: true });
        const answer = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        if (holding) held.push(answer);
        else setImmediate(answer);
      });
      return new Response(null, { status: 204 });
    } finally {
      inFlight--;
      inFlightBy.set(url.host, (inFlightBy.get(url.host) ?? 1) - 1);
    }
  };
  return {
    fetch,
    posted,
    inFlight: () => inFlight,
    inFlightAt: (host: string) => inFlightBy.get(host) ?? 0,
    most: () => most,
    mostAt: (host: string) => mostBy.get(host) ?? 0,
    /** Answers those held, and every later one at once. */
    release() {
      holding = false;
      for (const answer of held.splice(0)) setImmediate(answer);
    },
  };
}

/** Subscribes `tenant` to `count` URLs on `host` (from the operator's file: no address check). */
async function subscribeMany(h: Harness, tenant: string, host: string, count: number) {
  const { id: tenantId } = await h.storage.tenants.ensure(tenant);
  for (let n = 1; n <= count; n++) {
    await h.storage.webhooks.addSubscription({
      id: `${tenant}-${n}`,
      tenantId,
      url: `https://${host}/hook/${n}`,
      secret: 'whsec_fan_out_secret',
      triggers: ['*'],
      source: 'file',
      createdMs: Date.now() + n,
    });
  }
}

/** One event for the tenant of `key`: a person created. */
async function oneEvent(h: Harness, key?: string) {
  const created = await h.json('POST', '/api/v1/people', {
    body: { given_name: 'Ana' },
    ...(key === undefined ? {} : { key }),
  });
  expect(created.status).toBe(201);
}

function worker(h: Harness, fetch: typeof globalThis.fetch, extra: { concurrency?: number } = {}) {
  const started = startWebhookDelivery({
    app: h.app,
    rootUrl: ORIGIN,
    background: false,
    fetch,
    log: () => undefined,
    ...extra,
  });
  workers.push(started);
  return started;
}

describe('the bound on webhook POSTs in flight', () => {
  it("holds one tenant's fan-out to its share, and another tenant's delivery goes out beside it", async () => {
    // The app's bound (createApp's webhookConcurrency): 4 in all, 2 per tenant.
    const h = harness({ anonymousRateLimit: false, webhookConcurrency: 4 });
    await h.ready;
    await subscribeMany(h, 'acme', 'a.example', 40);
    await subscribeMany(h, 'other', 'b.example', 1);
    await oneEvent(h);
    await oneEvent(h, OTHER);
    const hooks = receivers();
    const idle = worker(h, hooks.fetch).idle();

    // Each lane reads storage (its claim, its batch) between taking a slot and its POST,
    // so the other tenant's POST may go out before or after acme's second: wait for both.
    // None is answered yet, so b's POST went out while acme held its share.
    await waitFor(
      () => hooks.inFlightAt('b.example') === 1 && hooks.inFlightAt('a.example') === 2,
      "the other tenant's delivery beside acme's share",
    );
    expect(hooks.inFlight()).toBe(3);

    hooks.release();
    await idle;
    // Every one delivered, once, though most of them waited for a slot.
    expect(new Set(hooks.posted).size).toBe(41);
    expect(hooks.posted).toHaveLength(41);
    expect(hooks.most()).toBeLessThanOrEqual(4);
    expect(hooks.mostAt('a.example')).toBe(2);
    const [attempt] = await h.storage.webhooks.listAttempts('acme-40', 1);
    expect(attempt?.outcome).toBe('delivered');
  });

  it('is 16 by default, 8 for one tenant, with no listener per POST on a shared signal', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const h = harness({ anonymousRateLimit: false });
      await h.ready;
      await subscribeMany(h, 'acme', 'a.example', 30);
      await subscribeMany(h, 'other', 'b.example', 30);
      await oneEvent(h);
      await oneEvent(h, OTHER);
      const hooks = receivers();
      const idle = worker(h, hooks.fetch).idle();
      await waitFor(() => hooks.inFlight() >= 16, 'the first sixteen POSTs');
      expect(hooks.inFlight()).toBe(16);
      expect(hooks.inFlightAt('a.example')).toBe(8);
      expect(hooks.inFlightAt('b.example')).toBe(8);
      hooks.release();
      await idle;
      expect(hooks.posted).toHaveLength(60);
      expect(hooks.most()).toBe(16);
      // Node emits its warnings on the next tick.
      await new Promise((done) => setImmediate(done));
      expect(warnings.map((warning) => warning.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('takes the bound of the worker over the app, and a stop sends none of those waiting', async () => {
    const h = harness({ anonymousRateLimit: false, webhookConcurrency: 8 });
    await h.ready;
    await subscribeMany(h, 'acme', 'a.example', 5);
    await oneEvent(h);
    const hooks = receivers();
    const delivery = worker(h, hooks.fetch, { concurrency: 1 });
    const idle = delivery.idle();
    await waitFor(() => hooks.inFlight() >= 1, 'the first POST');
    expect(hooks.inFlight()).toBe(1);
    // Past the grace the POST in flight is cut short, unlogged; the four waiting are
    // never sent (a restart sends them all).
    await delivery.stop(20);
    await idle;
    expect(hooks.posted).toHaveLength(1);
    expect(hooks.inFlight()).toBe(0);
    for (let n = 1; n <= 5; n++) {
      expect(await h.storage.webhooks.listAttempts(`acme-${n}`, 1)).toEqual([]);
    }
  });
});

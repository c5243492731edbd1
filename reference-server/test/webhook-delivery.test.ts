/**
 * Webhook delivery to a real receiver on loopback: what arrives (Action Network's array,
 * signed, each record as a GET renders it), in order and at least once through failures,
 * what the triggers take, a subscription switched off after its retry window, and the
 * SSRF check at delivery time. The clock and the jitter are injected: no test waits on a
 * backoff.
 */
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import type { Storage } from '../src/storage/storage.js';
import type { SubscriptionSource } from '../src/storage/webhook-store.js';
import {
  startWebhookDelivery,
  type WebhookDeliveryOptions,
} from '../src/webhooks/delivery-worker.js';
import { WEBHOOK_USER_AGENT } from '../src/webhooks/post-batch.js';
import { type Harness, harness, type Json, ORIGIN, presetHarness } from './helpers.js';
import { callHelper, create, helperOf, person } from './helpers-setup.js';
import {
  type DeliveredElement,
  elementsOf,
  HANG_MS,
  type Receiver,
  signatureCheck,
  startReceiver,
} from './webhook-receiver.js';

const SECRET = 'whsec_test_secret';
const receivers: Receiver[] = [];

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

let subscriptions = 0;

/** Subscribes tenant `acme` to `url`; from the operator's file by default (loopback allowed). */
async function subscribe(
  storage: Storage,
  url: string,
  options: { triggers?: string[]; source?: SubscriptionSource; tenant?: string } = {},
): Promise<string> {
  const id = `sub-${++subscriptions}`;
  await storage.webhooks.addSubscription({
    id,
    tenantId: (await storage.tenants.ensure(options.tenant ?? 'acme')).id,
    url,
    secret: SECRET,
    triggers: options.triggers ?? ['*'],
    source: options.source ?? 'file',
    createdMs: Date.now(),
  });
  return id;
}

/** A clock the test moves. */
function clock(start = Date.now()) {
  let at = start;
  return {
    now: () => at,
    advance(ms: number) {
      at += ms;
    },
  };
}

/**
 * For a receiver the test holds: only the test's release (or a stop's grace) ends the
 * attempt, never its own timeout, however slow the machine.
 */
const HELD = { timeoutMs: 10 * 60_000 };

/** A worker driven by `idle()` only (no timers), rendering under the harness's origin. */
function delivery(h: Harness, options: Partial<WebhookDeliveryOptions> = {}) {
  const logs: string[] = [];
  const worker = startWebhookDelivery({
    app: h.app,
    rootUrl: ORIGIN,
    background: false,
    log: (message) => logs.push(message),
    ...options,
  });
  return Object.assign(worker, { logs });
}

/** Signs `petition` through its helper as a new person `name`, adding `tags` (which exist). */
async function signHelperCall(
  h: Harness,
  name: string,
  petition: Json,
  tags: string[] = [],
): Promise<Json> {
  const { status, body } = await callHelper(h, helperOf(petition, 'record_signature_helper'), {
    comments: `Signed by ${name}`,
    person: person(name, `${name.toLowerCase()}@example.org`),
    add_tags: tags,
  });
  expect(status, JSON.stringify(body)).toBeLessThan(300);
  return body;
}

describe('webhook delivery', () => {
  it('a helper call arrives as one signed event, its record as a GET renders it', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    await subscribe(h.storage, hook.url);
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    await create(h, 'tags', { name: 'volunteer' });
    const signature = await signHelperCall(h, 'Ana', petition, ['volunteer']);

    await delivery(h).idle();

    expect(hook.received).toHaveLength(1);
    const [post] = hook.received;
    if (!post) throw new Error('no delivery');
    expect(post.method).toBe('POST');
    expect(post.headers['content-type']).toBe('application/json');
    expect(post.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(await signatureCheck(post, SECRET)).toBe('ok');
    expect(await signatureCheck(post, 'another secret')).toBe('mismatch');

    const elements = elementsOf(post);
    expect(elements).toHaveLength(1);
    const element = elements[0] as DeliveredElement;
    expect(Object.keys(element)).toEqual(['std:signature', 'idempotency_key']);
    expect(element.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    const { person: sentPerson, add_tags, ...closure } = element['std:signature'];
    const got = await h.json('GET', signature._links.self.href);
    expect(closure).toEqual(got.body);
    expect(add_tags).toEqual(['volunteer']);
    expect(sentPerson.given_name).toBe('Ana');
    expect(sentPerson.email_addresses[0].address).toBe('ana@example.org');
    const personHref = closure._links['std:person'].href;
    const storedPerson = await h.json('GET', personHref);
    expect(sentPerson._links.self.href).toBe(personHref);
    expect(sentPerson.identifiers).toEqual(storedPerson.body.identifiers);
    expect(closure._links['std:petition'].href).toBe(petition._links.self.href);
  });

  it('the receiver down for a while, then back: everything arrives in order, once after dedupe', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    const time = clock();
    await subscribe(h.storage, hook.url);
    hook.answer(({ n }) => (n < 4 ? 503 : 200));
    const petition = await create(h, 'petitions', { title: 'Fix the bridge' });
    const worker = delivery(h, { now: time.now, random: () => 0.5, batchSize: 2 });
    const names = ['Ana', 'Bo', 'Cy', 'Di', 'Ed'];
    let signed = 0;
    // Writes keep coming while the receiver fails; each failure is retried later.
    for (
      let round = 0;
      round < 20 && hook.received.filter((p) => p.status === 200).length < 3;
      round++
    ) {
      if (signed < names.length) await signHelperCall(h, names[signed++] as string, petition);
      await worker.idle();
      time.advance(60 * 60 * 1000);
    }
    while (signed < names.length) await signHelperCall(h, names[signed++] as string, petition);
    await worker.idle();

    const failed = hook.received.filter((post) => post.status === 503);
    expect(failed).toHaveLength(4);
    const delivered = hook.received.filter((post) => post.status === 200);
    const seen = new Set<string>();
    const unique: string[] = [];
    for (const post of delivered) {
      for (const element of elementsOf(post)) {
        if (seen.has(element.idempotency_key)) continue;
        seen.add(element.idempotency_key);
        unique.push(element['std:signature'].person.given_name);
      }
    }
    expect(unique).toEqual(names);
    for (const post of delivered) expect(elementsOf(post).length).toBeLessThanOrEqual(2);
    // Retried as it was: a failed batch starts with the same event every time.
    const firstKeys = failed.map((post) => elementsOf(post)[0]?.idempotency_key);
    expect(new Set(firstKeys).size).toBe(1);
    const attempts = (await h.storage.webhooks.listAttempts(`sub-${subscriptions}`, 100)).reverse();
    expect(attempts.slice(0, 5).map((a) => [a.outcome, a.attempt, a.status])).toEqual([
      ['failed', 1, 503],
      ['failed', 2, 503],
      ['failed', 3, 503],
      ['failed', 4, 503],
      ['delivered', 5, 200],
    ]);
    expect(attempts[0]?.error).toBe('HTTP 503');
    // Full jitter at 0.5: half the ceiling, which doubles from 1 s.
    expect(attempts.slice(0, 3).map((a) => (a.nextAttemptMs ?? 0) - a.atMs - a.durationMs)).toEqual(
      [500, 1000, 2000],
    );
    expect(
      (await h.storage.webhooks.getSubscription(`sub-${subscriptions}`))?.failingSinceMs,
    ).toBeUndefined();
  });

  it('a subscription takes only the events its triggers name; the cursor passes the others', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    const id = await subscribe(h.storage, hook.url, { triggers: ['attendance'] });
    const petition = await create(h, 'petitions', { title: 'Plant trees' });
    const event = await create(h, 'events', {
      title: 'Tree planting',
      start_date: '2030-04-01T10:00:00Z',
    });
    await signHelperCall(h, 'Ana', petition);
    const rsvp = await callHelper(h, helperOf(event, 'record_attendance_helper'), {
      person: person('Bo', 'bo@example.org'),
    });
    expect(rsvp.status).toBeLessThan(300);
    await signHelperCall(h, 'Cy', petition);

    await delivery(h).idle();

    expect(hook.received).toHaveLength(1);
    const elements = elementsOf(hook.received[0] as (typeof hook.received)[number]);
    expect(elements.map((element) => Object.keys(element)[0])).toEqual(['std:attendance']);
    expect(elements[0]?.['std:attendance'].person.given_name).toBe('Bo');
    const tenantId = (await h.storage.tenants.ensure('acme')).id;
    const newest = (await h.storage.webhooks.eventsAfter(tenantId, 0, 100)).at(-1)?.seq;
    expect((await h.storage.webhooks.getSubscription(id))?.cursor).toBe(newest);
  });

  it('a subscription failing for its whole retry window is switched off, and says why', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    hook.answer(() => 500);
    const time = clock();
    const id = await subscribe(h.storage, hook.url);
    const petition = await create(h, 'petitions', { title: 'Save the pool' });
    await signHelperCall(h, 'Ana', petition);
    const worker = delivery(h, { now: time.now, random: () => 0.99, retryWindowMs: 10_000 });

    for (
      let round = 0;
      round < 50 && (await h.storage.webhooks.getSubscription(id))?.active;
      round++
    ) {
      await worker.idle();
      time.advance(3000);
    }

    const subscription = await h.storage.webhooks.getSubscription(id);
    expect(subscription?.active).toBe(false);
    expect(subscription?.disabledReason).toMatch(/longer than the retry window of 10 seconds/);
    expect(subscription?.disabledReason).toContain('HTTP 500');
    const [last] = await h.storage.webhooks.listAttempts(id, 1);
    expect(last?.outcome).toBe('gave_up');
    expect(worker.logs.at(-1)).toContain(`webhook subscription ${id} (${hook.url}) switched off`);
    // Switched off: nothing more is sent, whatever comes.
    const sent = hook.received.length;
    await signHelperCall(h, 'Bo', petition);
    time.advance(60_000);
    await worker.idle();
    expect(hook.received).toHaveLength(sent);
  });

  it('checks the address of an API subscription at delivery: loopback is refused unless allowed', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    const id = await subscribe(h.storage, hook.url, { source: 'api' });
    const petition = await create(h, 'petitions', { title: 'Open the library' });
    await signHelperCall(h, 'Ana', petition);

    await delivery(h).idle();
    expect(hook.received).toHaveLength(0);
    const [refused] = await h.storage.webhooks.listAttempts(id, 1);
    expect(refused?.outcome).toBe('failed');
    expect(refused?.error).toMatch(/^address refused: .*loopback/);

    const allowed = delivery(h, {
      allowPrivate: true,
      now: () => (refused?.nextAttemptMs ?? 0) + 1,
    });
    await allowed.idle();
    expect(hook.received).toHaveLength(1);
    expect((await h.storage.webhooks.listAttempts(id, 1))[0]?.outcome).toBe('delivered');
  });

  it('keys events as the preset does: osdi: types, and signups as action_network:action', async () => {
    const h = presetHarness(ACTION_NETWORK_PRESET);
    const hook = await receiver();
    await subscribe(h.storage, hook.url);
    const created = await h.json('POST', '/api/v2/people', {
      body: { person: person('Ana', 'ana@example.org'), add_tags: [] },
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);

    await delivery(h).idle();

    const elements = hook.received.flatMap(elementsOf);
    expect(elements).toHaveLength(1);
    const closure = elements[0]?.['action_network:action'];
    expect(closure?.given_name).toBe('Ana');
    expect(closure?._links.self.href).toBe(created.body._links.self.href);
    expect(closure?._links.self.href).toMatch(/^http:\/\/adis\.test\/api\/v2\/people\//);
  });

  it('one slow receiver does not hold another subscription', async () => {
    const h = harness({ anonymousRateLimit: false });
    const slow = await receiver();
    const fast = await receiver();
    let release: (status: number) => void = () => undefined;
    slow.answer(() => new Promise<number>((done) => (release = done)));
    await subscribe(h.storage, slow.url);
    await subscribe(h.storage, fast.url);
    const petition = await create(h, 'petitions', { title: 'Light the park' });
    await signHelperCall(h, 'Ana', petition);

    let finished = false;
    const running = delivery(h, HELD)
      .idle()
      .then(() => (finished = true));
    await Promise.all([
      fast.until(() => fast.received[0]?.status === 200, 'answer of the fast receiver'),
      slow.until(() => slow.received.length === 1, 'request to the slow receiver'),
    ]);
    // The slow receiver holds its request until released: the worker cannot be idle.
    expect(finished).toBe(false);
    release(200);
    await running;
    expect(slow.received[0]?.status).toBe(200);
  });

  it('a subscription deleted while its delivery is in flight: nothing recorded, nothing failing', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    let release: (status: number) => void = () => undefined;
    hook.answer(() => new Promise<number>((done) => (release = done)));
    const id = await subscribe(h.storage, hook.url);
    const petition = await create(h, 'petitions', { title: 'Open the library' });
    await signHelperCall(h, 'Ana', petition);
    const worker = delivery(h, HELD);
    const idle = worker.idle();
    await hook.until(() => hook.received.length === 1, 'delivery in flight');

    expect(
      await h.storage.webhooks.deleteSubscription((await h.storage.tenants.ensure('acme')).id, id),
    ).toBe(true);
    release(200);
    await idle;

    expect(worker.logs).toEqual([]);
    expect(await h.storage.webhooks.getSubscription(id)).toBeUndefined();
    expect(await h.storage.webhooks.listAttempts(id, 10)).toEqual([]);
    expect(hook.received).toHaveLength(1);
  });

  it('stop() waits for a delivery in flight, and it is logged as delivered', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    let release: (status: number) => void = () => undefined;
    hook.answer(() => new Promise<number>((done) => (release = done)));
    const id = await subscribe(h.storage, hook.url);
    const petition = await create(h, 'petitions', { title: 'Keep the clinic' });
    await signHelperCall(h, 'Ana', petition);
    const worker = delivery(h, HELD);
    const idle = worker.idle();
    await hook.until(() => hook.received.length === 1, 'delivery in flight');

    let stopped = false;
    // A grace longer than any stall: only the held delivery keeps stop() waiting here.
    const stopping = worker.stop(HANG_MS).then(() => (stopped = true));
    for (let turn = 0; turn < 10; turn++) await new Promise((done) => setImmediate(done));
    expect(stopped).toBe(false);
    release(200);
    await stopping;
    await idle;

    const [attempt] = await h.storage.webhooks.listAttempts(id, 1);
    expect(attempt?.outcome).toBe('delivered');
    const tenantId = (await h.storage.tenants.ensure('acme')).id;
    expect((await h.storage.webhooks.getSubscription(id))?.cursor).toBe(
      (await h.storage.webhooks.eventsAfter(tenantId, 0, 10)).at(-1)?.seq,
    );
  });

  it('stop() waits no longer than its grace: the attempt is cut short, unlogged, sent again later', async () => {
    const h = harness({ anonymousRateLimit: false });
    const hook = await receiver();
    hook.answer(() => new Promise<number>(() => undefined));
    const id = await subscribe(h.storage, hook.url);
    const cursor = (await h.storage.webhooks.getSubscription(id))?.cursor;
    const petition = await create(h, 'petitions', { title: 'Keep the bus' });
    await signHelperCall(h, 'Ana', petition);
    // The attempt's own timeout is far off: only the grace can end it within the test.
    const worker = delivery(h, HELD);
    const idle = worker.idle();
    await hook.until(() => hook.received.length === 1, 'delivery in flight');

    const started = performance.now();
    await worker.stop(100);
    await idle;
    // The log says the grace's timer cut it (so stop() waited for it); the time is only a
    // bound on a hang, generous for a loaded machine.
    expect(worker.logs).toContain('webhook deliveries still in flight after 100 ms are cut short');
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(await h.storage.webhooks.listAttempts(id, 10)).toEqual([]);
    const subscription = await h.storage.webhooks.getSubscription(id);
    expect(subscription?.cursor).toBe(cursor);
    expect(subscription?.nextAttemptMs).toBeUndefined();
  });
});

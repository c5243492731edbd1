import { describe, expect, it } from 'vitest';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { errorOf, harness, type Json, ORIGIN, OTHER, presetHarness, READ } from './helpers.js';

// A public address written as an IP literal: the SSRF check takes it without DNS.
const PUBLIC_URL = 'https://93.184.216.34/hooks/adis';
const WEBHOOKS = '/api/v1/webhooks';

function create(h: ReturnType<typeof harness>, body: Json, key?: string) {
  return h.json('POST', WEBHOOKS, { body, ...(key === undefined ? {} : { key }) });
}

describe('webhook subscriptions through the API', () => {
  it('links the collection from the entry point, under the curie prefix', async () => {
    const h = harness();
    const { body } = await h.json('GET', '/api/v1/');
    expect(body._links['std:webhooks']).toEqual({
      href: `${ORIGIN}${WEBHOOKS}`,
      title: 'Webhook subscriptions',
    });
    const an = presetHarness(ACTION_NETWORK_PRESET);
    const entry = await an.json('GET', '/api/v2/');
    expect(entry.body._links['osdi:webhooks'].href).toBe(`${ORIGIN}/api/v2/webhooks`);
    const docs = await h.call('GET', '/docs/v1/webhooks', { key: null });
    expect(docs.status).toBe(200);
  });

  it('creates a subscription with a generated secret shown once, then masked', async () => {
    const h = harness();
    const created = await create(h, { url: PUBLIC_URL });
    expect(created.status).toBe(201);
    const self = created.body._links.self.href as string;
    expect(created.res.headers.get('Location')).toBe(self);
    expect(self).toMatch(new RegExp(`^${ORIGIN}${WEBHOOKS}/[0-9a-f-]{36}$`));
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      url: PUBLIC_URL,
      triggers: ['*'],
      source: 'api',
      active: true,
    });
    expect(created.body.identifiers).toEqual([`adis:${self.split('/').pop()}`]);
    expect(Date.parse(created.body.created_date)).not.toBeNaN();
    expect(created.body._links['std:deliveries'].href).toBe(`${self}/deliveries`);
    expect(created.body._links.curies[0].name).toBe('std');

    const one = await h.json('GET', self);
    expect(one.status).toBe(200);
    expect(one.body.secret).toBe(`…${secret.slice(-4)}`);
    expect(JSON.stringify(one.body)).not.toContain(secret);
    expect(one.body.disabled_reason).toBeUndefined();

    const list = await h.json('GET', WEBHOOKS, { key: READ });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total_records: 1, total_pages: 1, page: 1 });
    expect(list.body._links['std:webhooks']).toEqual([{ href: self }]);
    const [listed] = list.body._embedded['std:webhooks'];
    expect(listed).toMatchObject({ url: PUBLIC_URL, secret: `…${secret.slice(-4)}` });
    expect(listed._links.curies).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(secret);
    // Two creations get two secrets.
    const second = await create(h, { url: PUBLIC_URL });
    expect(second.body.secret).not.toBe(secret);
  });

  it('masks credentials in a URL after the creation, as it masks the secret', async () => {
    const h = harness();
    const withCredentials = PUBLIC_URL.replace('://', '://crm:hunter2-basic@');
    const created = await create(h, { url: withCredentials });
    expect(created.status).toBe(201);
    expect(created.body.url).toBe(withCredentials);
    const one = await h.json('GET', created.body._links.self.href as string, { key: READ });
    expect(one.body.url).toBe(PUBLIC_URL.replace('://', '://…@'));
    expect(JSON.stringify(one.body)).not.toContain('hunter2');
  });

  it('takes a secret and triggers as given, without duplicates; * takes all', async () => {
    const h = harness();
    const given = await create(h, {
      url: PUBLIC_URL,
      secret: 'a-secret-of-my-own-choosing',
      triggers: ['signature', 'donation', 'signature'],
      'acme:note': 'vendor members pass',
    });
    expect(given.status).toBe(201);
    expect(given.body).toMatchObject({
      secret: 'a-secret-of-my-own-choosing',
      triggers: ['signature', 'donation'],
    });
    expect(given.body['acme:note']).toBeUndefined();
    const all = await create(h, { url: PUBLIC_URL, triggers: ['signup', '*'] });
    expect(all.body.triggers).toEqual(['*']);
    expect((await h.storage.webhooks.listSubscriptions()).map((s) => s.triggers)).toEqual([
      ['signature', 'donation'],
      ['*'],
    ]);
  });

  it('refuses bodies it cannot take, naming what is wrong', async () => {
    const h = harness();
    const unknownTrigger = await create(h, {
      url: PUBLIC_URL,
      triggers: ['signature', 'petition'],
    });
    expect(unknownTrigger.status).toBe(400);
    expect(unknownTrigger.body['std:error'].resource_status[0].resource).toBe('std:webhook');
    expect(errorOf(unknownTrigger.body)).toEqual([
      expect.objectContaining({
        error_code: 'INVALID_PROPERTY',
        properties: ['triggers[1]'],
        description:
          'triggers[1]: unknown event type "petition"; known: signup, signature, submission, donation, outreach, attendance, canvass, or * for all',
      }),
    ]);
    const cases: [Json, string, string][] = [
      [{}, 'url', 'INVALID_PROPERTY'],
      [{ url: 'ftp://93.184.216.34/x' }, 'url', 'INVALID_PROPERTY'],
      [{ url: '/relative' }, 'url', 'INVALID_PROPERTY'],
      [{ url: PUBLIC_URL, triggers: [] }, 'triggers', 'INVALID_PROPERTY'],
      [{ url: PUBLIC_URL, triggers: 'signature' }, 'triggers', 'INVALID_PROPERTY'],
      [{ url: PUBLIC_URL, secret: 'short' }, 'secret', 'INVALID_PROPERTY'],
      [{ url: PUBLIC_URL, secret: 'has spaces in the middle' }, 'secret', 'INVALID_PROPERTY'],
      [{ url: PUBLIC_URL, active: false }, 'active', 'UNKNOWN_PROPERTY'],
    ];
    for (const [body, property, code] of cases) {
      const res = await create(h, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res.body)[0]).toMatchObject({ error_code: code, properties: [property] });
    }
    expect(
      errorOf((await create(h, { url: PUBLIC_URL, secret: 'short' })).body)[0]?.description,
    ).toBe('secret: must have at least 16 characters');
    expect(await h.storage.webhooks.listSubscriptions()).toEqual([]);
  });

  it('refuses URLs of loopback, private and link-local hosts, naming the address', async () => {
    const h = harness();
    for (const [url, says] of [
      ['http://127.0.0.1:9000/hook', '127.0.0.1 is a loopback address'],
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
      ['http://[::ffff:10.0.0.1]/hook', 'is a private address'],
      ['http://10.0.0.8/hook', '10.0.0.8 is a private address'],
      ['http://localhost:9000/hook', 'localhost names this machine'],
    ]) {
      const res = await create(h, { url });
      expect(res.status, url).toBe(400);
      const [error] = errorOf(res.body);
      expect(error).toMatchObject({ error_code: 'INVALID_PROPERTY', properties: ['url'] });
      expect(error?.description).toContain(says);
      expect(error?.hint).toContain('--webhooks-allow-private');
    }
    expect(await h.storage.webhooks.listSubscriptions()).toEqual([]);

    const allowing = harness({ webhooksAllowPrivate: true });
    const local = await create(allowing, { url: 'http://127.0.0.1:9000/hook' });
    expect(local.status).toBe(201);
    expect(local.body.url).toBe('http://127.0.0.1:9000/hook');
    // Allowing private addresses does not allow other schemes.
    expect((await create(allowing, { url: 'file:///etc/passwd' })).status).toBe(400);
  });

  it("keeps each tenant's subscriptions to itself", async () => {
    const h = harness();
    const created = await create(h, { url: PUBLIC_URL });
    const self = created.body._links.self.href as string;
    const id = self.split('/').pop() ?? '';
    const list = await h.json('GET', WEBHOOKS, { key: OTHER });
    expect(list.body.total_records).toBe(0);
    expect(list.body._embedded['std:webhooks']).toEqual([]);
    for (const [method, path] of [
      ['GET', self],
      ['DELETE', self],
      ['GET', `${self}/deliveries`],
    ] as const) {
      const res = await h.json(method, path, { key: OTHER });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(errorOf(res.body)[0]?.description).toBe(`no webhook subscription ${id}`);
    }
    expect(await h.storage.webhooks.getSubscription(id)).toBeDefined();
  });

  it('lets read keys list but not create or delete', async () => {
    const h = harness();
    const refused = await create(h, { url: PUBLIC_URL }, READ);
    expect(refused.status).toBe(403);
    expect(errorOf(refused.body)[0]?.error_code).toBe('FORBIDDEN');
    const self = (await create(h, { url: PUBLIC_URL })).body._links.self.href as string;
    expect((await h.json('DELETE', self, { key: READ })).status).toBe(403);
    expect((await h.json('GET', self, { key: READ })).status).toBe(200);
    expect((await h.json('GET', `${self}/deliveries`, { key: READ })).status).toBe(200);
  });

  it('deletes a subscription of the API; other methods get 405', async () => {
    const h = harness();
    const self = (await create(h, { url: PUBLIC_URL })).body._links.self.href as string;
    expect((await h.json('PUT', self, { body: { url: PUBLIC_URL } })).status).toBe(405);
    expect((await h.json('PATCH', WEBHOOKS, { body: {} })).res.headers.get('Allow')).toBe(
      'GET, POST',
    );
    const deleted = await h.call('DELETE', self);
    expect(deleted.status).toBe(204);
    expect((await h.json('GET', self)).status).toBe(404);
    expect((await h.json('DELETE', self)).status).toBe(404);
    expect((await h.json('GET', WEBHOOKS)).body.total_records).toBe(0);

    const an = presetHarness(ACTION_NETWORK_PRESET);
    const made = await an.json('POST', '/api/v2/webhooks', { body: { url: PUBLIC_URL } });
    expect(made.status).toBe(201);
    expect(made.body._links['osdi:deliveries']).toBeDefined();
    const gone = await an.json('DELETE', made.body._links.self.href);
    expect(gone.body).toEqual({ notice: 'This webhook subscription was successfully deleted.' });
  });

  it("lists the operator's file subscriptions, which the API cannot delete", async () => {
    const h = harness();
    await h.ready;
    const tenant = await h.storage.tenants.ensure('acme');
    await h.storage.webhooks.replaceFileSubscriptions([
      {
        id: '6f1c2b3a-0000-5000-8000-000000000001',
        tenantId: tenant.id,
        url: 'http://10.0.0.5/operator-hook',
        secret: 'the-operators-own-secret',
        triggers: ['*'],
        source: 'file',
        createdMs: Date.parse('2025-01-02T03:04:05Z'),
      },
    ]);
    const list = await h.json('GET', WEBHOOKS, { key: READ });
    const [listed] = list.body._embedded['std:webhooks'];
    expect(listed).toMatchObject({
      url: 'http://10.0.0.5/operator-hook',
      source: 'file',
      secret: '…cret',
      created_date: '2025-01-02T03:04:05.000Z',
    });
    const refused = await h.json('DELETE', listed._links.self.href);
    expect(refused.status).toBe(403);
    expect(errorOf(refused.body)[0]).toMatchObject({
      error_code: 'FORBIDDEN',
      description:
        "webhook subscription 6f1c2b3a-0000-5000-8000-000000000001 comes from the operator's --webhooks file and cannot be deleted through the API",
    });
    expect(await h.storage.webhooks.listSubscriptions(tenant.id)).toHaveLength(1);
  });

  it('shows the delivery log newest first, and the failure state on the subscription', async () => {
    const h = harness();
    const created = await create(h, { url: PUBLIC_URL });
    const self = created.body._links.self.href as string;
    const id = self.split('/').pop() ?? '';
    const t0 = Date.parse('2025-03-01T12:00:00Z');
    const store = h.storage.webhooks;
    const batch = { subscriptionId: id, firstSeq: 1, lastSeq: 3, eventCount: 3 };
    await store.recordAttempt(
      {
        ...batch,
        attempt: 1,
        atMs: t0,
        outcome: 'failed',
        status: 503,
        error: 'HTTP 503',
        nextAttemptMs: t0 + 30_000,
        durationMs: 41,
      },
      {},
    );
    await store.recordAttempt(
      {
        ...batch,
        attempt: 2,
        atMs: t0 + 30_000,
        outcome: 'failed',
        error: 'connection refused',
        nextAttemptMs: t0 + 90_000,
        durationMs: 3,
      },
      {},
    );
    const failing = await h.json('GET', self);
    expect(failing.body).toMatchObject({
      active: true,
      failing_since: '2025-03-01T12:00:00.000Z',
      next_attempt_date: '2025-03-01T12:01:30.000Z',
    });

    await store.recordAttempt(
      {
        ...batch,
        attempt: 3,
        atMs: t0 + 90_000,
        outcome: 'delivered',
        status: 204,
        durationMs: 12,
      },
      { advanceTo: 3 },
    );
    const log = await h.json('GET', created.body._links['std:deliveries'].href);
    expect(log.status).toBe(200);
    expect(log.body).toMatchObject({ total_records: 3, page: 1 });
    expect(log.body._links.self.href).toBe(`${self}/deliveries?page=1&per_page=100`);
    expect(log.body._embedded['std:deliveries']).toEqual([
      {
        attempt: 3,
        attempted_date: '2025-03-01T12:01:30.000Z',
        outcome: 'delivered',
        status: 204,
        duration_ms: 12,
        event_count: 3,
      },
      {
        attempt: 2,
        attempted_date: '2025-03-01T12:00:30.000Z',
        outcome: 'failed',
        error: 'connection refused',
        next_attempt_date: '2025-03-01T12:01:30.000Z',
        duration_ms: 3,
        event_count: 3,
      },
      {
        attempt: 1,
        attempted_date: '2025-03-01T12:00:00.000Z',
        outcome: 'failed',
        status: 503,
        error: 'HTTP 503',
        next_attempt_date: '2025-03-01T12:00:30.000Z',
        duration_ms: 41,
        event_count: 3,
      },
    ]);
    const recovered = await h.json('GET', self);
    expect(recovered.body.failing_since).toBeUndefined();
    expect(recovered.body.next_attempt_date).toBeUndefined();

    const paged = await h.json('GET', `${self}/deliveries?per_page=2&page=2`);
    expect(paged.body._embedded['std:deliveries'].map((a: Json) => a.attempt)).toEqual([1]);
    expect(paged.body._links.previous.href).toBe(`${self}/deliveries?page=1&per_page=2`);
    expect(paged.body._links.next).toBeUndefined();

    await store.recordAttempt(
      {
        ...batch,
        attempt: 1,
        atMs: t0 + 200_000,
        outcome: 'gave_up',
        error: 'HTTP 500',
        durationMs: 5,
      },
      { disabledReason: 'failing since 2025-03-01T12:00:00Z, for the whole retry window' },
    );
    const off = await h.json('GET', self);
    expect(off.body).toMatchObject({
      active: false,
      disabled_reason: 'failing since 2025-03-01T12:00:00Z, for the whole retry window',
    });
  });
});

/**
 * The transactional outbox: every write that makes an event appends it in its own
 * transaction, only for tenants with a subscription; a write that fails or rolls back
 * appends nothing, and a failed commit loses the record and its event together.
 */
import { describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../src/domain/catalog.js';
import type { WebhookEventPayload } from '../src/domain/webhook-events.js';
import { createApp, openStorage, type Storage, seedActivity, seedPeople } from '../src/index.js';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { adaptKind } from '../src/presets/adapt-kind.js';
import type { WebhookEvent } from '../src/storage/webhook-store.js';
import { type Harness, harness, type Json, sqliteHarness, WRITE } from './helpers.js';
import { callHelper, create, helperOf, person } from './helpers-setup.js';

const API = '/api/v1';

async function subscribe(storage: Storage, tenant: string, id = `sub-${tenant}`): Promise<void> {
  const tenantId = (await storage.tenants.ensure(tenant)).id;
  await storage.webhooks.addSubscription({
    id,
    tenantId,
    url: 'https://receiver.example.org/hook',
    secret: 'shh',
    triggers: ['*'],
    source: 'api',
    createdMs: Date.now(),
  });
}

/** A server whose tenant `acme` (the WRITE key's) has a subscription. */
async function subscribed(): Promise<Harness> {
  const h = harness({ anonymousRateLimit: false });
  await subscribe(h.storage, 'acme');
  return h;
}

async function eventsOf(storage: Storage, tenant = 'acme'): Promise<WebhookEvent[]> {
  const tenantId = (await storage.tenants.get(tenant))?.id;
  return tenantId === undefined ? [] : await storage.webhooks.eventsAfter(tenantId, 0, 1000);
}

function payloadOf(event: WebhookEvent | undefined): WebhookEventPayload {
  expect(event).toBeDefined();
  return event?.payload as WebhookEventPayload;
}

const idOf = (record: Json): string => String(record._links.self.href).split('/').at(-1) ?? '';

describe('helper calls', () => {
  it('a signature helper call appends one event carrying the person and the tags added', async () => {
    const h = await subscribed();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    await create(h, 'tags', { name: 'volunteer' });
    const before = Date.now();
    const { status, body } = await callHelper(h, helperOf(petition, 'record_signature_helper'), {
      comments: 'Yes!',
      person: person('Ana', 'ana@example.org'),
      add_tags: ['volunteer'],
    });
    expect(status, JSON.stringify(body)).toBe(201);

    const events = await eventsOf(h.storage);
    // The person created for the signature makes no signup event of its own.
    expect(events.map((event) => event.type)).toEqual(['signature']);
    const [event] = events;
    expect(event?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(event?.createdMs).toBeGreaterThanOrEqual(before);
    const payload = payloadOf(event);
    expect(payload.record).toMatchObject({ kind: 'signature', id: idOf(body) });
    expect(payload.record.doc.comments).toBe('Yes!');
    expect(payload.person?.kind).toBe('person');
    expect(payload.person?.doc).toMatchObject({
      given_name: 'Ana',
      email_addresses: [{ address: 'ana@example.org' }],
    });
    expect(payload.addTags).toEqual(['volunteer']);
  });

  it('signing again updates the signature: no new event', async () => {
    const h = await subscribed();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    const ana = { person: person('Ana', 'ana@example.org') };
    expect((await callHelper(h, href, ana)).status).toBe(201);
    expect((await callHelper(h, href, { ...ana, comments: 'Again' })).status).toBe(200);
    expect((await eventsOf(h.storage)).map((event) => event.type)).toEqual(['signature']);
  });

  it('a call without a key: the event carries the person as stored and only the open tags asked for', async () => {
    const h = harness({ anonymousRateLimit: false, keylessOpen: { tags: ['volunteer'] } });
    await subscribe(h.storage, 'acme');
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    for (const name of ['volunteer', 'staff']) await create(h, 'tags', { name });
    await create(h, 'people', person('Ana', 'ana@example.org'));
    const { status } = await callHelper(
      h,
      helperOf(petition, 'record_signature_helper'),
      {
        person: {
          given_name: 'Mallory',
          email_addresses: [{ address: 'ana@example.org' }, { address: 'mallory@example.net' }],
          phone_numbers: [{ number: '447700900999' }],
        },
        add_tags: ['volunteer', 'staff'],
      },
      null,
    );
    expect(status).toBe(400); // the closed tag's part failed; the signature is recorded
    const signatures = (await eventsOf(h.storage)).filter((event) => event.type === 'signature');
    expect(signatures).toHaveLength(1);
    const payload = payloadOf(signatures[0]);
    // Nothing the stranger sent beside Ana's address reaches the receivers.
    expect(payload.person?.doc).toMatchObject({
      given_name: 'Ana',
      email_addresses: [{ address: 'ana@example.org' }],
    });
    expect(payload.person?.doc.phone_numbers).toBeUndefined();
    expect(payload.addTags).toEqual(['volunteer']);
  });

  it('the person signup helper makes a signup event for a new and for a known person', async () => {
    const h = await subscribed();
    const helper = `${API}/people/person_signup_helper`;
    const ana = { person: person('Ana', 'ana@example.org') };
    expect((await callHelper(h, helper, ana)).status).toBe(201);
    expect((await callHelper(h, helper, { ...ana, add_tags: [] })).status).toBe(200);
    const events = await eventsOf(h.storage);
    expect(events.map((event) => event.type)).toEqual(['signup', 'signup']);
    const payload = payloadOf(events[1]);
    expect(payload.record.kind).toBe('person');
    expect(payload.record.doc.given_name).toBe('Ana');
    // The person is the record: not repeated, and no tags were asked for.
    expect(payload.person).toBeUndefined();
    expect(payload.addTags).toBeUndefined();
    expect(events[0]?.idempotencyKey).not.toBe(events[1]?.idempotencyKey);
  });

  it('a canvass carries its target as the person; the canvasser makes no event', async () => {
    const h = await subscribed();
    const target = await create(h, 'people', person('Tia'));
    const { status, body } = await callHelper(h, helperOf(target, 'record_canvass_helper'), {
      canvass: { contact_type: 'door', canvasser: person('Cal', 'cal@example.org') },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    const events = await eventsOf(h.storage);
    expect(events.map((event) => event.type)).toEqual(['signup', 'canvass']);
    expect(payloadOf(events[1]).person).toMatchObject({ id: idOf(target) });
  });

  it('a helper call whose atomic part fails appends nothing', async () => {
    const h = await subscribed();
    const target = await create(h, 'people', person('Tia'));
    const before = (await eventsOf(h.storage)).length;
    // The answer belongs to the canvass: a missing question rolls the canvass back.
    const { status } = await callHelper(h, helperOf(target, 'record_canvass_helper'), {
      canvass: {
        contact_type: 'door',
        question_response: { question: `${API}/questions/nope`, responses: ['yes'] },
      },
    });
    expect(status).toBe(400);
    expect(await eventsOf(h.storage)).toHaveLength(before);
  });
});

describe('creates through collections', () => {
  it('a POST of a signature appends one event; a POST of a person a signup', async () => {
    const h = await subscribed();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const ana = await create(h, 'people', person('Ana', 'ana@example.org'));
    const signatures = petition._links['std:signatures'].href;
    const signed = await h.json('POST', signatures, {
      body: { comments: 'Yes!', _links: { 'std:person': { href: ana._links.self.href } } },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    const events = await eventsOf(h.storage);
    expect(events.map((event) => event.type)).toEqual(['signup', 'signature']);
    const payload = payloadOf(events[1]);
    expect(payload.record.id).toBe(idOf(signed.body));
    expect(payload.person).toMatchObject({ kind: 'person', id: idOf(ana) });
    // Kinds that are no act make none.
    expect(events.some((event) => event.type === 'petition')).toBe(false);
  });

  it('a write refused (invalid, duplicate identifier) appends nothing', async () => {
    const h = await subscribed();
    await create(h, 'people', { ...person('Ana'), identifiers: ['crm:1'] });
    const before = (await eventsOf(h.storage)).length;
    const duplicate = await h.json('POST', `${API}/people`, {
      body: { ...person('Ben'), identifiers: ['crm:1'] },
    });
    expect(duplicate.status).toBe(400);
    const invalid = await h.json('POST', `${API}/people`, { body: { given_name: 42 } });
    expect(invalid.status).toBe(400);
    expect(await eventsOf(h.storage)).toHaveLength(before);
  });

  it('a repeat with the same Idempotency-Key appends nothing more', async () => {
    const h = await subscribed();
    const post = () =>
      h.json('POST', `${API}/people`, {
        body: person('Ana', 'ana@example.org'),
        headers: { 'Idempotency-Key': 'signup-ana-1' },
      });
    const first = await post();
    const repeat = await post();
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await eventsOf(h.storage)).toHaveLength(1);
  });
});

describe('subscribers', () => {
  it('a tenant without subscriptions appends nothing; another tenant’s subscription gets none', async () => {
    // SQLite: the test counts the outbox's rows in the file.
    const h = sqliteHarness({ anonymousRateLimit: false });
    await subscribe(h.storage, 'other');
    await create(h, 'people', person('Ana'));
    expect(await eventsOf(h.storage, 'acme')).toEqual([]);
    expect(await eventsOf(h.storage, 'other')).toEqual([]);
    // The outbox is empty: nothing was written for acme at all.
    const rows = h.storage.database.prepare('SELECT count(*) AS n FROM webhook_events').get() as {
      n: number;
    };
    expect(rows.n).toBe(0);
  });

  it('seeding demo activity is no act: a subscribed tenant gets no events from it', async () => {
    const storage = openStorage(':memory:');
    try {
      await subscribe(storage, 'demo');
      await seedPeople(storage, { tenant: 'demo', count: 20, seed: 1 });
      const counts = await seedActivity(storage, { tenant: 'demo', seed: 1 });
      expect(counts.signature).toBeGreaterThan(0);
      expect(await eventsOf(storage, 'demo')).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it('starts appending as soon as the tenant subscribes', async () => {
    const h = harness({ anonymousRateLimit: false });
    await create(h, 'people', person('Ana'));
    await subscribe(h.storage, 'acme');
    await create(h, 'people', person('Ben'));
    const events = await eventsOf(h.storage);
    expect(events.map((event) => payloadOf(event).record.doc.given_name)).toEqual(['Ben']);
  });
});

describe('one commit', () => {
  it('a failed group commit loses the record and its event together', async () => {
    const storage = openStorage(':memory:', { groupCommit: true });
    try {
      await storage.tenants.putApiKey(WRITE, 'acme', 'write');
      await subscribe(storage, 'acme');
      await storage.flush();
      const app = createApp({ storage, logError: () => {} });
      const post = app.fetch(
        new Request(`http://adis.test${API}/people`, {
          method: 'POST',
          headers: { 'STD-API-Token': WRITE, 'Content-Type': 'application/json' },
          body: JSON.stringify(person('Ana')),
        }),
      );
      // A write in the same batch that breaks its COMMIT (a dangling foreign key).
      await storage.transaction(() => {
        storage.database.pragma('defer_foreign_keys = ON');
        storage.database
          .prepare('INSERT INTO identifiers (tenant_id, kind, identifier, seq) VALUES (?, ?, ?, ?)')
          .run(1, 'nothing', 'dangling', 999_999_999);
      });
      expect((await post).status).toBe(500);
      const tenantId = (await storage.tenants.get('acme'))?.id ?? 0;
      expect(await storage.records.count({ tenantId, kind: 'person' })).toBe(0);
      expect(await storage.webhooks.eventsAfter(tenantId, 0, 10)).toEqual([]);
      // The next write commits with its event.
      const next = await app.fetch(
        new Request(`http://adis.test${API}/people`, {
          method: 'POST',
          headers: { 'STD-API-Token': WRITE, 'Content-Type': 'application/json' },
          body: JSON.stringify(person('Ben')),
        }),
      );
      expect(next.status).toBe(201);
      expect(await storage.webhooks.eventsAfter(tenantId, 0, 10)).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });
});

describe('event data on kinds', () => {
  it('every act makes the event of its name, and the Action Network preset keeps it', () => {
    const expected: Record<string, string> = {
      signature: 'signature',
      attendance: 'attendance',
      submission: 'submission',
      donation: 'donation',
      outreach: 'outreach',
      canvass: 'canvass',
      person: 'signup',
    };
    const made = (kinds: typeof ALL_KINDS) =>
      Object.fromEntries(
        kinds.filter((kind) => kind.event).map((kind) => [kind.singular, kind.event?.type]),
      );
    expect(made(ALL_KINDS)).toEqual(expected);
    expect(made(ALL_KINDS.map((kind) => adaptKind(kind, ACTION_NETWORK_PRESET)))).toEqual(expected);
  });
});

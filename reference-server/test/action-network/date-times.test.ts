/**
 * Date-times as Action Network writes them: in UTC, to the whole second
 * (`2013-01-01T00:00:00Z` in its documentation's samples), in every record, page, helper
 * answer, webhook payload, the webhook API and the custom fields document, under its
 * preset; the plain server keeps `toISOString`'s milliseconds. Storage keeps the
 * milliseconds under both, so filters still compare to the millisecond and find what
 * they found before (reference-server/src/domain/date-times.ts). The clock is held at a
 * moment with milliseconds (`Date` alone is faked: timers and I/O stay real); data
 * invented for the tests.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appConfigOf, createApp } from '../../src/http/app.js';
import { ACTION_NETWORK_PRESET } from '../../src/presets/index.js';
import { WebhookBodies } from '../../src/webhooks/webhook-body.js';
import { harness } from '../helpers.js';
import {
  type ActionNetworkServer,
  actionNetworkServer,
  GROUP,
  type Json,
  nativeId,
  ORIGIN,
  personHash,
  read,
  written,
} from './an-server.js';

/** A date-time as Action Network writes it. */
const WHOLE_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
/** The moment the clock is held at: 400 ms into a second. */
const NOW = '2026-05-01T09:00:00.400Z';

/** Every `…_date` member of a document, at any depth but inside custom fields, as `path = value`. */
function dateMembers(value: unknown, path = ''): string[] {
  if (Array.isArray(value))
    return value.flatMap((element, i) => dateMembers(element, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, member]) => {
    if (name === 'custom_fields') return [];
    const at = path ? `${path}.${name}` : name;
    return typeof member === 'string'
      ? name.endsWith('_date')
        ? [`${at} = ${member}`]
        : []
      : dateMembers(member, at);
  });
}

/** Checks that every date-time member of `document` is written to the second, in UTC. */
function expectWholeSeconds(document: Json, what: string): void {
  const dates = dateMembers(document);
  expect(dates.length, `${what} has no dates`).toBeGreaterThan(0);
  for (const date of dates) {
    const value = date.slice(date.indexOf(' = ') + 3);
    // A calendar date (an event's all_day_date) has no time to write.
    if (/^\d{4}-\d\d-\d\d$/.test(value)) continue;
    expect(value, `${what}: ${date}`).toMatch(WHOLE_SECONDS);
  }
}

/** The id of the group's tenant, to look into storage. */
async function groupId(an: ActionNetworkServer): Promise<number> {
  const tenant = await an.storage.tenants.get(GROUP);
  if (!tenant) throw new Error(`no tenant ${GROUP}`);
  return tenant.id;
}

/** Sets the clock the server reads to `iso`. */
function at(iso: string): void {
  vi.setSystemTime(Date.parse(iso));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(NOW) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('date-times under the Action Network preset', () => {
  it('records, pages and helper answers write every date-time in UTC, to the second', async () => {
    const an = actionNetworkServer();
    const person = written(
      await an.post('people', {
        person: {
          ...personHash('Maren', 'Holt', 'maren.holt@example.org'),
          postal_addresses: [
            {
              postal_code: '97211',
              country: 'US',
              last_verified_date: '2026-04-30T12:00:00.250+02:00',
            },
          ],
          // A client's own text: not the server's to respell, even named …_date.
          custom_fields: { renewal_date: '2026-06-01T00:00:00.500Z' },
        },
      }),
    );
    expect(person.created_date).toBe('2026-05-01T09:00:00Z');
    expect(person.modified_date).toBe('2026-05-01T09:00:00Z');
    // Another offset is the same instant in UTC; the fraction is dropped, never rounded.
    expect(person.postal_addresses[0].last_verified_date).toBe('2026-04-30T10:00:00Z');
    expect(person.custom_fields.renewal_date).toBe('2026-06-01T00:00:00.500Z');

    const event = written(
      await an.post('events', {
        title: 'Ferry rally',
        start_date: '2026-09-01 18:00:00.999',
        end_date: '2026-09-01T21:30:00-04:00',
        all_day_date: '2026-09-01',
      }),
    );
    expect(event.start_date).toBe('2026-09-01T18:00:00Z');
    expect(event.end_date).toBe('2026-09-02T01:30:00Z');
    expect(event.all_day_date).toBe('2026-09-01');

    const petition = written(await an.post('petitions', { title: 'Keep the ferry running' }));
    const signature = written(
      await an.post(`petitions/${nativeId(petition)}/signatures`, {
        person: personHash('Ivo', 'Brandt', 'ivo.brandt@example.org'),
        action_date: '2026-04-30T08:15:30.75Z',
      }),
    );
    expect(signature.action_date).toBe('2026-04-30T08:15:30Z');

    const page = written(await an.post('fundraising_pages', { title: 'Ferry fund' }));
    const donation = written(
      await an.post(`fundraising_pages/${nativeId(page)}/donations`, {
        created_date: '2024-03-09 16:45:00.250',
        recipients: [{ display_name: 'Ferry fund', amount: '12.00' }],
        person: personHash('Ivo', 'Brandt', 'ivo.brandt@example.org'),
      }),
    );
    expect(donation.created_date).toBe('2024-03-09T16:45:00Z');

    for (const [what, document] of Object.entries({ person, event, signature, donation })) {
      expectWholeSeconds(document, what);
    }
    expectWholeSeconds(read(await an.get(`people/${nativeId(person)}`)), 'the person read');
    expectWholeSeconds(read(await an.get(`events/${nativeId(event)}`)), 'the event read');
    for (const path of ['people', 'events', 'signatures', 'donations']) {
      const listed = read(await an.get(path));
      expectWholeSeconds(listed._embedded, `the page of ${path}`);
    }

    // What is stored keeps its milliseconds: filters and orders compare them.
    const stored = await an.storage.records.get(await groupId(an), 'person', nativeId(person));
    expect(stored?.modified_date).toBe(NOW);
    expect(stored?.doc.created_date).toBe(NOW);
  });

  it('a message writes its schedule and sending dates, and its notice, to the second', async () => {
    const an = actionNetworkServer({ seedPeople: 4 });
    const list = read(await an.get('lists'))._embedded['osdi:lists'][0];
    const message = written(
      await an.post('messages', {
        name: 'Hearing alert',
        subject: 'Come to the hearing',
        body: 'Thursday at six',
        type: 'email',
        _links: { 'osdi:list': { href: list._links.self.href } },
      }),
    );
    const scheduled = await an.call('POST', message._links['osdi:schedule_helper'].href, {
      scheduled_start_date: '2026-05-01T10:00:00.600+01:00',
      scheduled_stop_date: '2026-05-01T12:00:00.100Z',
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    expect(scheduled.body.notice).toMatch(
      /^Scheduled to start at 2026-05-01T09:00:00Z and stop at 2026-05-01T12:00:00Z: /,
    );
    const shown = read(await an.get(message._links.self.href));
    expect(shown.scheduled_start_date).toBe('2026-05-01T09:00:00Z');
    expectWholeSeconds(shown, 'the scheduled message');

    const sent = await an.call('POST', message._links['osdi:send_helper'].href, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    at('2026-05-01T09:00:05.300Z');
    const sending = read(await an.get(message._links.self.href));
    expect(sending.sent_start_date).toBe('2026-05-01T09:00:00Z');
    expectWholeSeconds(sending, 'the message being sent');
  });

  it("filters still find what they found: a record modified in the filter's second", async () => {
    const an = actionNetworkServer();
    // Three petitions, at 09:00:00.400, 09:00:00.900 and 09:00:01.100.
    const first = written(await an.post('petitions', { title: 'First' }));
    at('2026-05-01T09:00:00.900Z');
    const second = written(await an.post('petitions', { title: 'Second' }));
    at('2026-05-01T09:00:01.100Z');
    const third = written(await an.post('petitions', { title: 'Third' }));
    // The first two show the same second.
    expect([first.modified_date, second.modified_date, third.modified_date]).toEqual([
      '2026-05-01T09:00:00Z',
      '2026-05-01T09:00:00Z',
      '2026-05-01T09:00:01Z',
    ]);
    const titles = async (filter: string) =>
      read(await an.get(`petitions?filter=${encodeURIComponent(filter)}`))._embedded[
        'osdi:petitions'
      ].map((petition: Json) => petition.title);

    // A sync that asks for what changed after the date it last read misses nothing of
    // that second: the value names its first millisecond, records keep theirs.
    expect(await titles(`modified_date gt '${first.modified_date}'`)).toEqual([
      'First',
      'Second',
      'Third',
    ]);
    expect(await titles(`modified_date ge '${third.modified_date}'`)).toEqual(['Third']);
    expect(await titles(`modified_date lt '${third.modified_date}'`)).toEqual(['First', 'Second']);
    // A value with milliseconds still draws the line inside the second.
    expect(await titles("modified_date gt '2026-05-01T09:00:00.400Z'")).toEqual([
      'Second',
      'Third',
    ]);
    expect(await titles("created_date le '2026-05-01T09:00:00.900Z'")).toEqual(['First', 'Second']);
    // The whole of one second: from it, before the next.
    expect(
      await titles(
        "modified_date ge '2026-05-01T09:00:00Z' and modified_date lt '2026-05-01T09:00:01Z'",
      ),
    ).toEqual(['First', 'Second']);

    // Paging cursors are record seqs, not dates: every record once, page after page.
    const walked: string[] = [];
    let next: string | undefined = `petitions?per_page=1`;
    while (next) {
      const page = read(await an.get(next));
      walked.push(...page._embedded['osdi:petitions'].map((petition: Json) => petition.title));
      next = page._links.next?.href;
    }
    expect(walked).toEqual(['First', 'Second', 'Third']);
  });

  it('a donation read and written back whole keeps its created_date; another is refused', async () => {
    const an = actionNetworkServer();
    const page = written(await an.post('fundraising_pages', { title: 'Ferry fund' }));
    // Dated by the server at 09:00:00.400, written 09:00:00Z.
    const donation = written(
      await an.post(`fundraising_pages/${nativeId(page)}/donations`, {
        recipients: [{ display_name: 'Ferry fund', amount: '8.00' }],
        person: personHash('Ivo', 'Brandt', 'ivo.brandt@example.org'),
      }),
    );
    expect(donation.created_date).toBe('2026-05-01T09:00:00Z');
    at('2026-05-01T09:00:02.000Z');
    const { _links: _l, ...back } = read(await an.get(`donations/${nativeId(donation)}`));
    const taken = written(await an.put(`donations/${nativeId(donation)}`, back));
    expect(taken.created_date).toBe('2026-05-01T09:00:00Z');
    const stored = await an.storage.records.get(await groupId(an), 'donation', nativeId(donation));
    expect(stored?.created_date).toBe(NOW);

    const moved = await an.put(`donations/${nativeId(donation)}`, {
      created_date: '2026-05-01T09:00:01Z',
    });
    expect(moved.status).toBe(400);
    // The error names the stored date as the client saw it.
    expect(JSON.stringify(moved.body)).toContain('stored 2026-05-01T09:00:00Z');
  });

  it('webhook payloads, the webhook API and the custom fields document write them alike', async () => {
    const an = actionNetworkServer({ app: { webhooksAllowPrivate: true } });
    const subscription = await an.post('webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(subscription.status, JSON.stringify(subscription.body)).toBe(201);
    expect(subscription.body.created_date).toBe('2026-05-01T09:00:00Z');
    const id = subscription.body.identifiers[0].split(':')[1];

    const petition = written(await an.post('petitions', { title: 'Keep the ferry running' }));
    written(
      await an.post(`petitions/${nativeId(petition)}/signatures`, {
        person: {
          ...personHash('Ivo', 'Brandt', 'ivo.brandt@example.org'),
          custom_fields: { member_since: '2019' },
        },
      }),
    );
    // The body the delivery worker POSTs, rendered by the server's own renderer.
    const config = appConfigOf(createApp({ storage: an.storage, preset: ACTION_NETWORK_PRESET }));
    if (!config) throw new Error('no app config');
    const bodies = new WebhookBodies(config, ORIGIN);
    const events = await an.storage.webhooks.eventsAfter(await groupId(an), 0, 10);
    expect(events.map((event) => event.type)).toContain('signature');
    const elements: Json[] = JSON.parse(await bodies.body(events));
    const closure = elements.map((element) => element['osdi:signature']).find(Boolean);
    expect(closure.created_date).toBe('2026-05-01T09:00:00Z');
    expect(closure.person.created_date).toBe('2026-05-01T09:00:00Z');
    expectWholeSeconds(elements, 'the webhook payload');

    // A failed attempt, logged with milliseconds, shown to the second.
    await an.storage.webhooks.recordAttempt(
      {
        subscriptionId: id,
        firstSeq: 1,
        lastSeq: 1,
        eventCount: 1,
        attempt: 1,
        atMs: Date.parse('2026-05-01T09:00:03.250Z'),
        outcome: 'failed',
        error: 'connection refused',
        nextAttemptMs: Date.parse('2026-05-01T09:00:13.750Z'),
        durationMs: 4,
      },
      { failingSinceMs: Date.parse('2026-05-01T09:00:03.250Z') },
    );
    const shown = read(await an.get(`webhooks/${id}`));
    expect(shown).toMatchObject({
      created_date: '2026-05-01T09:00:00Z',
      next_attempt_date: '2026-05-01T09:00:13Z',
      failing_since: '2026-05-01T09:00:03Z',
    });
    const [attempt] = read(await an.get(`webhooks/${id}/deliveries`))._embedded['osdi:deliveries'];
    expect(attempt).toMatchObject({
      attempted_date: '2026-05-01T09:00:03Z',
      next_attempt_date: '2026-05-01T09:00:13Z',
    });

    const fields = read(await an.get('metadata/custom_fields'));
    expect(fields['action_network:custom_fields']).toEqual([
      expect.objectContaining({
        name: 'member_since',
        created_date: '2026-05-01T09:00:00Z',
        modified_date: '2026-05-01T09:00:00Z',
      }),
    ]);
  });
});

describe('date-times on the plain server', () => {
  it("keep toISOString's milliseconds, and a client's date as it sent it", async () => {
    const h = harness();
    const petition = await h.json('POST', '/api/v1/petitions', { body: { title: 'Open late' } });
    expect(petition.status).toBe(201);
    expect(petition.body.created_date).toBe(NOW);
    expect(petition.body.modified_date).toBe(NOW);
    const event = await h.json('POST', '/api/v1/events', {
      body: { title: 'Ferry rally', start_date: '2026-09-01T18:00:00.750-04:00' },
    });
    expect(event.status).toBe(201);
    expect(event.body.start_date).toBe('2026-09-01T18:00:00.750-04:00');
  });
});

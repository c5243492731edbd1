/**
 * Whatever the SDK read from an Action Network-shaped server it can write back to it
 * (issue 20). The server (test/fixtures/action-network-server.ts) answers documents
 * written from Action Network's API v2 documentation with invented data; the client
 * connects with the `actionNetwork` preset over real HTTP on loopback. Every collection
 * and record is read and must keep each member as sent (money strings, email and
 * phone statuses, vendor members); each record is then written back with
 * `update(record.data)`, and with `create(record.data)` where Action Network allows a
 * create, and the body that reaches the server must be, byte for byte, the record's
 * data less the members the server owns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ActionNetworkServer,
  connectToFixture,
  type JsonObject,
  type RecordedRequest,
  startActionNetworkServer,
} from '../fixtures/action-network-server.js';

let server: ActionNetworkServer;
let client: Awaited<ReturnType<typeof connectToFixture>>;

beforeAll(async () => {
  server = await startActionNetworkServer();
  client = await connectToFixture(server.entryPoint, server.key);
});

afterAll(async () => {
  await server.close();
});

/** A document's members without the HAL ones: what a record's `data` should hold. */
function propertiesOf(document: JsonObject | undefined): JsonObject {
  if (document === undefined) throw new Error('no fixture document at that address');
  const { _links: _l, _embedded: _e, ...properties } = document;
  return properties;
}

/** What a record read should send back: its data less the members the server owns. */
function writable(record: { data: object; kind: { readOnly: readonly string[] } }): JsonObject {
  const body: JsonObject = {};
  for (const [member, value] of Object.entries(record.data)) {
    if (!record.kind.readOnly.includes(member)) body[member] = value;
  }
  return body;
}

/** The one write (anything but GET) that `call` sent; the reads around it are left out. */
async function writeOf(call: () => Promise<unknown>): Promise<RecordedRequest> {
  const mark = server.requests.length;
  await call();
  const writes = server.requests.slice(mark).filter((request) => request.method !== 'GET');
  expect(writes).toHaveLength(1);
  return writes[0] as RecordedRequest;
}

/** The request reached `url` with `method`, the key, JSON, and exactly `body`'s bytes. */
function expectSent(request: RecordedRequest, method: string, url: string, body: JsonObject) {
  expect(`${request.method} ${request.url}`).toBe(`${method} ${new URL(url).pathname}`);
  expect(request.headers['osdi-api-token']).toBe(server.key);
  expect(request.headers['content-type']).toMatch(/^application\/json\b/);
  expect(request.body.toString('utf8')).toBe(JSON.stringify(body));
}

/** Reads as a record what the fixture serves at its URL, member for member. */
function expectReadAsSent(record: { url: string; data: object }) {
  expect(record.data).toStrictEqual(propertiesOf(server.document(record.url)));
}

describe('reading an Action Network-shaped server with the preset', () => {
  it('reads the entry point: osdi_version, the key in OSDI-API-Token on every request', async () => {
    expect(client.version).toBe('1.1.1');
    expect(client.entryPoint.namespace).toBe('action_network');
    await client.people.toArray();
    expect(server.requests.length).toBeGreaterThan(1);
    for (const request of server.requests) {
      expect(request.headers['osdi-api-token']).toBe(server.key);
    }
  });

  it('reads people over pages without totals to the empty page, each member as sent', async () => {
    const mark = server.requests.length;
    const people = await client.people.toArray();
    expect(server.requests.slice(mark).map((request) => request.url)).toEqual([
      '/api/v2/people',
      '/api/v2/people?page=2',
      '/api/v2/people?page=3',
    ]);
    expect(people.map((person) => person.data.given_name)).toEqual([
      'Maren',
      'Teodor',
      'Ayesha',
      'Jun',
    ]);
    for (const person of people) expectReadAsSent(person);
    // Action Network's email statuses beside the specification's, and phone statuses.
    expect(people.map((person) => person.data.email_addresses?.[0]?.status)).toEqual([
      'subscribed',
      'previous bounce',
      'spam complaint',
      'previous spam complaint',
    ]);
    expect(people.map((person) => person.data.phone_numbers?.[0]?.status)).toEqual([
      'subscribed',
      'unsubscribed',
      undefined,
      'previous bounce',
    ]);
  });

  it('reads a person alone as the page holds it', async () => {
    const [first] = await client.people.toArray({ limit: 1 });
    const alone = await client.people.get(
      server.url('people/b1869e15-5efa-4ba3-bfa3-a7bc44c267c1'),
    );
    expectReadAsSent(alone);
    expect(alone.data).toStrictEqual(first?.data);
    expect(alone.identifiers).toEqual([
      'action_network:b1869e15-5efa-4ba3-bfa3-a7bc44c267c1',
      'crm:40219',
    ]);
  });

  it('reads petitions, their signatures and their vendor members as sent', async () => {
    const [petition] = await client.petitions.toArray();
    if (petition === undefined) throw new Error('no petition');
    expectReadAsSent(petition);
    expect(petition.data['action_network:hidden']).toBe(false);
    const signatures = await petition.signatures().toArray();
    expect(signatures).toHaveLength(2);
    for (const signature of signatures) expectReadAsSent(signature);
    expect(signatures[0]?.data['action_network:referrer_data']).toEqual({
      source: 'spring-newsletter',
      referrer: 'group-alder-neighbors',
      website: 'alderneighbors.example.org',
      url: 'https://alderneighbors.example.org/library',
    });
  });

  it('reads money as given: "20.00" stays "20.00"', async () => {
    const [page] = await client.fundraisingPages.toArray();
    if (page === undefined) throw new Error('no fundraising page');
    expectReadAsSent(page);
    expect(page.data.total_amount).toBe('45.00');
    const [monthly, split] = await page.donations().toArray();
    if (monthly === undefined || split === undefined) throw new Error('no donations');
    expectReadAsSent(monthly);
    expectReadAsSent(split);
    expect(monthly.data.amount).toBe('20.00');
    expect(monthly.data.recipients?.[0]?.amount).toBe('20.00');
    expect(monthly.data['action_network:recurrence']).toEqual({
      recurring: true,
      period: 'Monthly',
    });
    expect(split.data.recipients?.map((recipient) => recipient.amount)).toEqual(['15.00', '10.00']);
  });

  it('reads events, hidden or not, as sent', async () => {
    const events = await client.events.toArray();
    expect(events.map((event) => event.data['action_network:hidden'])).toEqual([true, false]);
    for (const event of events) expectReadAsSent(event);
  });

  it('reads messages with their targets as sent', async () => {
    const [message] = await client.messages.toArray();
    if (message === undefined) throw new Error('no message');
    expectReadAsSent(message);
    expect(message.data.targets).toEqual([
      { href: server.url('queries/7a0f7c99-0141-4f03-9f82-b0552f7c97d4') },
    ]);
  });

  it('reads event campaigns and their events through typed collections', async () => {
    const [campaign] = await client.eventCampaigns.toArray();
    if (campaign === undefined) throw new Error('no event campaign');
    expectReadAsSent(campaign);
    expect(campaign.data.title).toBe('Read-in week');
    const events = await campaign.events().toArray();
    expect(events.map((event) => event.data['action_network:event_campaign_id'])).toEqual([
      '720c6cf1-bfd1-4b3e-ba31-633fce5b56d3',
    ]);
    for (const event of events) expectReadAsSent(event);
  });

  it('reads campaigns and unique ID lists through typed collections', async () => {
    const [campaign] = await client.campaigns.toArray();
    if (campaign === undefined) throw new Error('no campaign');
    expectReadAsSent(campaign);
    const [list] = await client.uniqueIdLists.toArray();
    if (list === undefined) throw new Error('no unique ID list');
    expectReadAsSent(list);
    expect(list.data.name).toBe('Door-knock follow-up, September');
  });

  it('reads the custom fields metadata through client.metadata()', async () => {
    const metadata = await client.metadata();
    const customFields = await metadata.customFields();
    expect(customFields.map((field) => field.name)).toEqual(['volunteer_shift', 't_shirt_size']);
    expect(customFields[0]).toStrictEqual(
      (
        server.document(server.url('metadata/custom_fields'))?.['action_network:custom_fields'] as
          | JsonObject[]
          | undefined
      )?.[0],
    );
  });
});

describe('writing back what was read, byte for byte', () => {
  it('people: update(person.data) for everyone, whatever their email and phone status', async () => {
    for (const person of await client.people.toArray()) {
      const body = writable(person);
      expect(body).not.toHaveProperty('created_date');
      expect(body).toHaveProperty('phone_numbers');
      expectSent(await writeOf(() => person.update(person.data)), 'PUT', person.url, body);
    }
  });

  it('petitions: update and create, action_network:hidden unchanged', async () => {
    for (const petition of await client.petitions.toArray()) {
      const body = writable(petition);
      expect(body['action_network:hidden']).toBe(false);
      expect(body).not.toHaveProperty('total_signatures');
      expectSent(await writeOf(() => petition.update(petition.data)), 'PUT', petition.url, body);
      expectSent(
        await writeOf(() => client.petitions.create(petition.data)),
        'POST',
        server.url('petitions'),
        body,
      );
    }
  });

  it('signatures: update and create on the petition, action_network:referrer_data unchanged', async () => {
    const [petition] = await client.petitions.toArray();
    if (petition === undefined) throw new Error('no petition');
    for (const signature of await petition.signatures().toArray()) {
      const body = writable(signature);
      expect(body).toHaveProperty(['action_network:referrer_data', 'source']);
      expect(body).toHaveProperty('action_network:person_id');
      expectSent(await writeOf(() => signature.update(signature.data)), 'PUT', signature.url, body);
      expectSent(
        await writeOf(() => petition.signatures().create(signature.data)),
        'POST',
        server.url('petitions/80d13549-58eb-4682-99c8-4a46350ca8d6/signatures'),
        body,
      );
    }
  });

  it('fundraising pages: update and create, money strings unchanged', async () => {
    for (const page of await client.fundraisingPages.toArray()) {
      const body = writable(page);
      expect(body['action_network:hidden']).toBe(false);
      expectSent(await writeOf(() => page.update(page.data)), 'PUT', page.url, body);
      expectSent(
        await writeOf(() => client.fundraisingPages.create(page.data)),
        'POST',
        server.url('fundraising_pages'),
        body,
      );
    }
  });

  it('donations: update and create, amounts as the decimal strings read', async () => {
    const [page] = await client.fundraisingPages.toArray();
    if (page === undefined) throw new Error('no fundraising page');
    for (const donation of await page.donations().toArray()) {
      const body = writable(donation);
      expect(body).toHaveProperty('action_network:recurrence');
      // A donation's created_date is its own date (an import keeps it): sent back as read.
      expect(donation.data.created_date).toEqual(expect.any(String));
      expect(body).toHaveProperty('created_date', donation.data.created_date);
      expect(body).not.toHaveProperty('modified_date');
      expectSent(await writeOf(() => donation.update(donation.data)), 'PUT', donation.url, body);
      expectSent(
        await writeOf(() => page.donations().create(donation.data)),
        'POST',
        server.url('fundraising_pages/573be04e-4fb5-48fd-a15b-69b405d2f465/donations'),
        body,
      );
    }
    const sent = server.requests.filter((request) => request.url.includes('/donations'));
    expect(sent.at(-1)?.body.toString('utf8')).toContain('"amount":"15.00"');
  });

  it('events: update and create, action_network:hidden unchanged', async () => {
    for (const event of await client.events.toArray()) {
      const body = writable(event);
      expect(body).toHaveProperty('action_network:hidden');
      expectSent(await writeOf(() => event.update(event.data)), 'PUT', event.url, body);
      expectSent(
        await writeOf(() => client.events.create(event.data)),
        'POST',
        server.url('events'),
        body,
      );
    }
  });

  it('messages: update and create, targets unchanged', async () => {
    for (const message of await client.messages.toArray()) {
      const body = writable(message);
      expect(body).toHaveProperty('targets');
      expectSent(await writeOf(() => message.update(message.data)), 'PUT', message.url, body);
      expectSent(
        await writeOf(() => client.messages.create(message.data)),
        'POST',
        server.url('messages'),
        body,
      );
    }
  });

  it('event campaigns: update and create, and their events created in the campaign', async () => {
    for (const campaign of await client.eventCampaigns.toArray()) {
      const body = writable(campaign);
      expect(body).toHaveProperty('action_network:sponsor');
      expectSent(await writeOf(() => campaign.update(campaign.data)), 'PUT', campaign.url, body);
      expectSent(
        await writeOf(() => client.eventCampaigns.create(campaign.data)),
        'POST',
        server.url('event_campaigns'),
        body,
      );
      for (const event of await campaign.events().toArray()) {
        expectSent(
          await writeOf(() => campaign.events().create(event.data)),
          'POST',
          server.url('event_campaigns/720c6cf1-bfd1-4b3e-ba31-633fce5b56d3/events'),
          writable(event),
        );
      }
    }
  });

  it('unique ID lists: update and create', async () => {
    for (const list of await client.uniqueIdLists.toArray()) {
      const body = writable(list);
      expect(body.name).toBe('Door-knock follow-up, September');
      expectSent(await writeOf(() => list.update(list.data)), 'PUT', list.url, body);
      expectSent(
        await writeOf(() => client.uniqueIdLists.create(list.data)),
        'POST',
        server.url('unique_id_lists'),
        body,
      );
    }
  });
});

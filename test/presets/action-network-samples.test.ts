/**
 * Action Network's documented request samples (rewritten with our own data in
 * test/fixtures/action-network/requests/), each sent through the SDK call that matches
 * its scenario, with the `actionNetwork` preset, to a server shaped like Action
 * Network's on loopback. What reaches the server must be the sample, byte for byte:
 * vendor members (`action_network:referrer_data`, `action_network:recurrence`),
 * `remove_tags`, phone and email statuses, money as decimal strings and message
 * `targets` sent as written (issue 20).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DonationInput,
  MessageInput,
  PersonSignupInput,
  RecordDonationInput,
  RecordSignatureInput,
  SignatureInput,
} from '../../src/index.js';
import {
  type ActionNetworkServer,
  connectToFixture,
  type RecordedRequest,
  startActionNetworkServer,
} from '../fixtures/action-network-server.js';

let server: ActionNetworkServer;
let client: Awaited<ReturnType<typeof connectToFixture>>;

const PETITION = '80d13549-58eb-4682-99c8-4a46350ca8d6';
const FUNDRAISING_PAGE = '573be04e-4fb5-48fd-a15b-69b405d2f465';

beforeAll(async () => {
  server = await startActionNetworkServer();
  client = await connectToFixture(server.entryPoint, server.key);
});

afterAll(async () => {
  await server.close();
});

/** The one write (anything but GET) that `call` sent, and what the call resolved with. */
async function writeOf<T>(call: () => Promise<T>): Promise<[RecordedRequest, T]> {
  const mark = server.requests.length;
  const result = await call();
  const writes = server.requests.slice(mark).filter((request) => request.method !== 'GET');
  expect(writes).toHaveLength(1);
  return [writes[0] as RecordedRequest, result];
}

/** The request was a POST of exactly the sample's bytes to `path`, with the key. */
function expectPosted(request: RecordedRequest, path: string, sample: object) {
  expect(`${request.method} ${request.url}`).toBe(`POST /api/v2/${path}`);
  expect(request.headers['osdi-api-token']).toBe(server.key);
  expect(request.headers['content-type']).toMatch(/^application\/json\b/);
  expect(request.body.toString('utf8')).toBe(JSON.stringify(sample));
}

async function petition() {
  const [found] = await client.petitions.toArray();
  if (found === undefined) throw new Error('no petition');
  return found;
}

async function fundraisingPage() {
  const [found] = await client.fundraisingPages.toArray();
  if (found === undefined) throw new Error('no fundraising page');
  return found;
}

// A helper body's type (an interface, with a required `person`) does not overlap a
// JSON object's for `as`: the samples are cast through unknown.
describe("Action Network's documented request samples, sent as written", () => {
  it('people: a new person is the signup helper POSTed to the collection', async () => {
    const sample = server.sample('person-create') as unknown as PersonSignupInput;
    const [sent, result] = await writeOf(() => client.signup(sample));
    expectPosted(sent, 'people', sample);
    expect(result.status).toBe(200);
    expect(result.record?.data.given_name).toBe('Maren');
  });

  it('person signup helper: phone status, custom fields, add_tags and remove_tags', async () => {
    const sample = server.sample('person-signup-helper') as unknown as PersonSignupInput;
    const [sent] = await writeOf(() => client.signup(sample));
    expectPosted(sent, 'people', sample);
    expect(JSON.parse(sent.body.toString('utf8'))).toHaveProperty('remove_tags', [
      'lapsed-volunteer',
    ]);
  });

  it('record signature helper: action_network:referrer_data, remove_tags, a phone with status', async () => {
    const sample = server.sample('record-signature-helper') as unknown as RecordSignatureInput;
    const target = await petition();
    const [sent, result] = await writeOf(() => target.recordSignature(sample));
    expectPosted(sent, `petitions/${PETITION}/signatures`, sample);
    expect(result.complete).toBe(true);
    expect(result.record?.url).toBe(
      server.url(`petitions/${PETITION}/signatures/d1450da0-25e3-4797-8b34-38019e996a9f`),
    );
  });

  it('signatures: a new signature linking its signer with osdi:person', async () => {
    const sample = server.sample('signature-create') as SignatureInput;
    const target = await petition();
    const [sent] = await writeOf(() => target.signatures().create(sample));
    expectPosted(sent, `petitions/${PETITION}/signatures`, sample);
  });

  it('record donation helper: recipients amounts as strings, action_network:recurrence', async () => {
    const sample = server.sample('record-donation-helper') as unknown as RecordDonationInput;
    const page = await fundraisingPage();
    const [sent, result] = await writeOf(() => page.recordDonation(sample));
    expectPosted(sent, `fundraising_pages/${FUNDRAISING_PAGE}/donations`, sample);
    expect(sent.body.toString('utf8')).toContain('"amount":"3.00"');
    expect(result.record?.data.amount).toBe('20.00');
  });

  it('donations: a new donation linking its donor, with its own created_date (an import)', async () => {
    const sample = server.sample('donation-create') as DonationInput;
    const page = await fundraisingPage();
    const [sent] = await writeOf(() => page.donations().create(sample));
    expectPosted(sent, `fundraising_pages/${FUNDRAISING_PAGE}/donations`, sample);
    expect(sent.body.toString('utf8')).toContain('"created_date":"2024-12-14T17:20:00Z"');
  });

  it('messages: a new email with targets and its wrapper', async () => {
    const sample = server.sample('message-create') as MessageInput;
    const [sent, created] = await writeOf(() => client.messages.create(sample));
    expectPosted(sent, 'messages', sample);
    expect(created.data.targets).toEqual(sample.targets);
  });

  it('event campaigns: a new event campaign', async () => {
    const sample = server.sample('event-campaign-create');
    const [sent] = await writeOf(() => client.eventCampaigns.create(sample));
    expectPosted(sent, 'event_campaigns', sample);
  });

  it('unique ID lists: a new list of unique IDs', async () => {
    const sample = server.sample('unique-id-list-create');
    const [sent] = await writeOf(() => client.uniqueIdLists.create(sample));
    expectPosted(sent, 'unique_id_lists', sample);
  });
});

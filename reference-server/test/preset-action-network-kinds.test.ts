/**
 * Action Network's own collections under its preset: event campaigns with their events,
 * read-only campaigns, unique ID lists, the custom fields metadata document and the
 * embed codes below actions; each tenant's alone; none of them on the plain server.
 */
import { describe, expect, it } from 'vitest';
import { createApp, defaultRegistry, openStorage, seedActivity, seedPeople } from '../src/index.js';
import { seedActionNetwork } from '../src/presets/action-network/seed.js';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { errorOf, type Harness, harness, type Json, OTHER, presetHarness } from './helpers.js';

const API = '/api/v2';
const ORIGIN_API = `http://adis.test${API}`;

/** The id in a record's self href (its URL's last segment). */
function idOf(record: Json): string {
  return String(record._links.self.href).split('/').pop() as string;
}

/** Creates a record under the preset and returns it (201 expected). */
async function created(h: Harness, path: string, body: unknown): Promise<Json> {
  const answer = await h.json('POST', `${API}/${path}`, { body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

/** A person of the harness's main tenant; returns its id. */
async function person(h: Harness, email: string, custom_fields?: Json): Promise<string> {
  const answer = await h.json('POST', `${API}/people`, {
    body: {
      person: {
        given_name: email.split('@')[0],
        email_addresses: [{ address: email }],
        ...(custom_fields ? { custom_fields } : {}),
      },
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return idOf(answer.body);
}

/** The error descriptions of an `osdi:error` answer. */
function anErrors(body: Json): Json[] {
  return body['osdi:error'].resource_status[0].error_descriptions;
}

function anHarness(): Harness {
  return presetHarness(ACTION_NETWORK_PRESET);
}

describe('the entry point under the preset', () => {
  it('links event campaigns, campaigns and unique ID lists under action_network:', async () => {
    const { body } = await anHarness().json('GET', `${API}/`);
    for (const plural of ['event_campaigns', 'campaigns', 'unique_id_lists']) {
      expect(body._links[`action_network:${plural}`]?.href, plural).toBe(`${ORIGIN_API}/${plural}`);
      expect(body._links[`osdi:${plural}`], plural).toBeUndefined();
    }
    // Neither custom fields nor embeds are collections.
    expect(Object.keys(body._links).filter((rel) => /custom_field|embed/.test(rel))).toEqual([]);
  });
});

describe('event campaigns', () => {
  it('are created with a title, read, listed and updated; host_url follows browser_url', async () => {
    const h = anHarness();
    const campaign = await created(h, 'event_campaigns', {
      title: 'Porch concerts',
      host_pitch: 'Lend your porch for an hour of music.',
      browser_url: 'https://porches.example.org/concerts/',
    });
    const id = idOf(campaign);
    expect(campaign).toMatchObject({
      identifiers: [`action_network:${id}`],
      title: 'Porch concerts',
      host_url: 'https://porches.example.org/concerts/host',
      total_events: 0,
      total_rsvps: 0,
    });
    expect(campaign._links['osdi:events'].href).toBe(`${ORIGIN_API}/event_campaigns/${id}/events`);
    expect(campaign._links['action_network:embed'].href).toBe(
      `${ORIGIN_API}/event_campaigns/${id}/embed`,
    );

    const page = await h.json('GET', `${API}/event_campaigns`);
    expect(page.status).toBe(200);
    expect(page.body._embedded['action_network:event_campaigns'].map(idOf)).toEqual([id]);

    // A host_url sent is ignored (read-only); one without a browser_url has none.
    const updated = await h.json('PUT', `${API}/event_campaigns/${id}`, {
      body: { title: 'Porch concerts, summer', browser_url: null, host_url: 'https://x.example' },
    });
    expect(updated.status).toBe(200);
    const read = await h.json('GET', `${API}/event_campaigns/${id}`);
    expect(read.body.title).toBe('Porch concerts, summer');
    expect(read.body).not.toHaveProperty('host_url');
  });

  it('refuse a create without a title', async () => {
    const answer = await anHarness().json('POST', `${API}/event_campaigns`, {
      body: { host_pitch: 'No title here' },
    });
    expect(answer.status).toBe(400);
    expect(anErrors(answer.body)[0]).toMatchObject({
      error_code: 'INVALID_PROPERTY',
      properties: ['title'],
    });
  });

  it('take new events at their events: listed there and at events, counted with their RSVPs', async () => {
    const h = anHarness();
    const campaign = idOf(await created(h, 'event_campaigns', { title: 'Block parties' }));
    const other = idOf(await created(h, 'event_campaigns', { title: 'Teach-ins' }));
    const first = await created(h, `event_campaigns/${campaign}/events`, {
      title: 'Party on Elm St',
      start_date: '2026-09-12T17:00:00Z',
    });
    const second = await created(h, `event_campaigns/${campaign}/events`, {
      title: 'Party on Oak St',
    });
    await created(h, 'events', { title: 'A standalone event' });
    expect(first._links['action_network:event_campaign'].href).toBe(
      `${ORIGIN_API}/event_campaigns/${campaign}`,
    );

    const inCampaign = await h.json('GET', `${API}/event_campaigns/${campaign}/events`);
    expect(inCampaign.body._embedded['osdi:events'].map(idOf)).toEqual([idOf(first), idOf(second)]);
    const all = await h.json('GET', `${API}/events`);
    expect(all.body._embedded['osdi:events'].map(idOf)).toEqual(
      expect.arrayContaining([idOf(first), idOf(second)]),
    );
    const empty = await h.json('GET', `${API}/event_campaigns/${other}/events`);
    expect(empty.body._embedded['osdi:events']).toEqual([]);

    // RSVPs: accepted attendances count, a declined one does not.
    const link = (path: string) => ({ href: `${ORIGIN_API}/${path}` });
    for (const [email, status] of [
      ['ana@block.example', 'accepted'],
      ['ben@block.example', 'accepted'],
      ['cy@block.example', 'declined'],
    ] as const) {
      const id = await person(h, email);
      const attendance = await h.json('POST', `${API}/attendances`, {
        body: {
          status,
          _links: {
            'osdi:person': link(`people/${id}`),
            'osdi:event': link(`events/${idOf(first)}`),
          },
        },
      });
      expect(attendance.status, JSON.stringify(attendance.body)).toBe(201);
    }
    let totals = (await h.json('GET', `${API}/event_campaigns/${campaign}`)).body;
    expect(totals).toMatchObject({ total_events: 2, total_rsvps: 2 });

    // Deleting an event takes it and its RSVPs out of the counts.
    expect((await h.call('DELETE', `${API}/events/${idOf(first)}`)).status).toBeLessThan(300);
    totals = (await h.json('GET', `${API}/event_campaigns/${campaign}`)).body;
    expect(totals).toMatchObject({ total_events: 1, total_rsvps: 0 });
    expect((await h.json('GET', `${API}/event_campaigns/${other}`)).body.total_events).toBe(0);
  });

  it('keep their events: an event cannot move to another campaign', async () => {
    const h = anHarness();
    const campaign = idOf(await created(h, 'event_campaigns', { title: 'Canvass days' }));
    const other = idOf(await created(h, 'event_campaigns', { title: 'Phone banks' }));
    const event = idOf(
      await created(h, `event_campaigns/${campaign}/events`, { title: 'Canvass, north side' }),
    );
    const moved = await h.json('PUT', `${API}/events/${event}`, {
      body: {
        _links: { 'osdi:event_campaign': { href: `${ORIGIN_API}/event_campaigns/${other}` } },
      },
    });
    expect(moved.status).toBe(400);
    expect(anErrors(moved.body)[0]).toMatchObject({
      error_code: 'INVALID_LINK',
      description: expect.stringContaining('cannot move'),
    });
    // An update that leaves the campaign alone (echoing the link back) is fine.
    const echoed = await h.json('PUT', `${API}/events/${event}`, {
      body: {
        title: 'Canvass, north side (2 pm)',
        _links: {
          'action_network:event_campaign': { href: `${ORIGIN_API}/event_campaigns/${campaign}` },
        },
      },
    });
    expect(echoed.status).toBe(200);
    expect((await h.json('GET', `${API}/event_campaigns/${campaign}`)).body.total_events).toBe(1);
  });
});

describe('campaigns', () => {
  it('are read only: list and get, every write 405', async () => {
    const h = anHarness();
    const page = await h.json('GET', `${API}/campaigns`);
    expect(page.status).toBe(200);
    expect(page.body._embedded['action_network:campaigns']).toEqual([]);
    const post = await h.json('POST', `${API}/campaigns`, { body: { title: 'Nope' } });
    expect(post.status).toBe(405);
    expect(post.body['osdi:error']).toBeDefined();
  });

  it('come from the seed with their actions, and refuse PUT and DELETE', async () => {
    const storage = openStorage(':memory:', { defaultNamespace: 'action_network' });
    await storage.tenants.putApiKey('seeded-key-000001', 'demo', 'write');
    await seedPeople(storage, { tenant: 'demo', count: 40, seed: 3 });
    await seedActivity(storage, { tenant: 'demo', seed: 3 });
    const counts = await seedActionNetwork(storage, {
      tenant: 'demo',
      seed: 3,
      registry: defaultRegistry(ACTION_NETWORK_PRESET),
    });
    expect(counts).toMatchObject({ event_campaign: 2, event: 5, campaign: 2, unique_id_list: 1 });
    expect(counts.attendance).toBeGreaterThan(0);
    // The people given custom fields were updated, not made: counted apart from records.
    expect(counts.people_given_custom_fields).toBeGreaterThan(0);
    expect(counts).not.toHaveProperty('person');
    const app = createApp({ storage, preset: ACTION_NETWORK_PRESET, keyRateLimit: false });
    const get = async (path: string, method = 'GET') => {
      const res = await app.fetch(
        new Request(`http://an.test${API}/${path}`, {
          method,
          headers: { 'OSDI-API-Token': 'seeded-key-000001' },
        }),
      );
      return { status: res.status, body: (await res.json()) as Json };
    };
    const campaigns = (await get('campaigns')).body._embedded['action_network:campaigns'];
    expect(campaigns.map((c: Json) => c.title)).toEqual([
      'Save Willow Bend Park',
      'Repairs Now at Riverside Towers',
    ]);
    expect(campaigns[0].actions).toContainEqual({
      title: 'Willow Bend Neighbour Walks',
      browser_url: 'https://willowbendpark.example.org/walks',
    });
    const campaign = idOf(campaigns[0]);
    expect((await get(`campaigns/${campaign}`)).status).toBe(200);
    expect((await get(`campaigns/${campaign}`, 'DELETE')).status).toBe(405);
    expect((await get(`campaigns/${campaign}`, 'PUT')).status).toBe(405);

    const eventCampaigns = (await get('event_campaigns')).body._embedded[
      'action_network:event_campaigns'
    ];
    expect(eventCampaigns.map((c: Json) => c.total_events)).toEqual([3, 2]);
    const rsvps = eventCampaigns.reduce((sum: number, c: Json) => sum + c.total_rsvps, 0);
    expect(rsvps).toBe(counts.attendance);
    const lists = (await get('unique_id_lists')).body._embedded['action_network:unique_id_lists'];
    expect(lists[0].count).toBeGreaterThan(0);
    const fields = (await get('metadata/custom_fields')).body['action_network:custom_fields'];
    expect(fields.map((f: Json) => f.name)).toContain('ward');
  });
});

describe('unique ID lists', () => {
  it('are created from people ids, counted, replaced by PUT', async () => {
    const h = anHarness();
    const ana = await person(h, 'ana@ids.example');
    const bo = await person(h, 'bo@ids.example');
    const list = await created(h, 'unique_id_lists', {
      name: 'Ward 3 door knockers',
      unique_ids: [ana, bo, ana],
    });
    expect(list).toMatchObject({ name: 'Ward 3 door knockers', count: 2 });
    const id = idOf(list);
    const put = await h.json('PUT', `${API}/unique_id_lists/${id}`, {
      body: { unique_ids: [bo], count: 40 },
    });
    expect(put.status).toBe(200);
    const read = await h.json('GET', `${API}/unique_id_lists/${id}`);
    expect(read.body).toMatchObject({ name: 'Ward 3 door knockers', unique_ids: [bo], count: 1 });
    const page = await h.json('GET', `${API}/unique_id_lists`);
    expect(page.body._embedded['action_network:unique_id_lists'].map(idOf)).toEqual([id]);
  });

  it('refuse ids that name no person of the tenant, and a list without a name', async () => {
    const h = anHarness();
    const ana = await person(h, 'ana@ids.example');
    const elsewhere = await h.json('POST', `${API}/people`, {
      key: OTHER,
      body: { person: { email_addresses: [{ address: 'zed@other.example' }] } },
    });
    const stranger = idOf(elsewhere.body);
    const answer = await h.json('POST', `${API}/unique_id_lists`, {
      body: { name: 'Mixed', unique_ids: [ana, stranger, 'not-an-id'] },
    });
    expect(answer.status).toBe(400);
    const errors = anErrors(answer.body);
    expect(errors.map((e: Json) => e.properties)).toEqual([['unique_ids[1]'], ['unique_ids[2]']]);
    expect(errors[0].description).toContain(stranger);
    const unnamed = await h.json('POST', `${API}/unique_id_lists`, { body: { unique_ids: [ana] } });
    expect(unnamed.status).toBe(400);
    expect(anErrors(unnamed.body)[0].properties).toEqual(['name']);
  });
});

describe('custom fields metadata', () => {
  it('is linked from the metadata root beside the canvass lists', async () => {
    const { body } = await anHarness().json('GET', `${API}/metadata`);
    expect(body._links['action_network:custom_fields'].href).toBe(
      `${ORIGIN_API}/metadata/custom_fields`,
    );
    for (const list of ['canvass_response_codes', 'canvass_contact_types', 'canvass_input_types']) {
      expect(body._links[`osdi:${list}`]?.href, list).toBe(`${ORIGIN_API}/metadata/${list}`);
    }
  });

  it('lists the names of the custom fields the tenant’s people carry, in order of first use', async () => {
    const h = anHarness();
    await person(h, 'ana@fields.example', { employer: 'Library', ward: '3' });
    await person(h, 'bo@fields.example', { ward: '5', shift: 'evening' });
    await person(h, 'cy@fields.example');
    await h.json('POST', `${API}/people`, {
      key: OTHER,
      body: {
        person: { email_addresses: [{ address: 'z@o.example' }], custom_fields: { x: '1' } },
      },
    });
    const answer = await h.json('GET', `${API}/metadata/custom_fields`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'custom_fields', origin_system: 'Action Network' });
    expect(answer.body._links.self.href).toBe(`${ORIGIN_API}/metadata/custom_fields`);
    const fields = answer.body['action_network:custom_fields'];
    expect(fields.map((f: Json) => [f.name, f.numeric_id])).toEqual([
      ['employer', 1],
      ['ward', 2],
      ['shift', 3],
    ]);
    expect(fields[0].created_date).toEqual(expect.any(String));
    expect((await h.json('POST', `${API}/metadata/custom_fields`, { body: {} })).status).toBe(405);
  });
});

describe('embeds', () => {
  it('answer six HTML snippets naming the action, and are the tenant’s own', async () => {
    const h = anHarness();
    const petition = await created(h, 'petitions', { title: `Fix the "Elm" St bridge <now>` });
    const id = idOf(petition);
    expect(petition._links['action_network:embed'].href).toBe(
      `${ORIGIN_API}/petitions/${id}/embed`,
    );
    const embed = await h.json('GET', `${API}/petitions/${id}/embed`);
    expect(embed.status).toBe(200);
    const codes = Object.keys(embed.body).filter((key) => key.startsWith('embed_'));
    expect(codes.sort()).toEqual([
      'embed_full_default_styles',
      'embed_full_layout_only_styles',
      'embed_full_no_styles',
      'embed_standard_default_styles',
      'embed_standard_layout_only_styles',
      'embed_standard_no_styles',
    ]);
    const standard: string = embed.body.embed_standard_default_styles;
    expect(standard).toContain(`adis-petition-area-${id}`);
    expect(standard).toContain('Fix the &quot;Elm&quot; St bridge &lt;now&gt;');
    expect(standard).toContain('stylesheet');
    expect(embed.body.embed_standard_no_styles).not.toContain('stylesheet');
    expect(embed.body.embed_full_no_styles).toContain('style=full');
    expect(embed.body._links.self.href).toBe(`${ORIGIN_API}/petitions/${id}/embed`);

    expect((await h.json('GET', `${API}/petitions/${id}/embed`, { key: OTHER })).status).toBe(404);
    expect((await h.json('POST', `${API}/petitions/${id}/embed`, { body: {} })).status).toBe(405);
    // Kinds without embeds have no link and no route.
    const tag = await created(h, 'tags', { name: 'volunteers' });
    expect(tag._links['action_network:embed']).toBeUndefined();
    expect((await h.json('GET', `${API}/tags/${idOf(tag)}/embed`)).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  it('hides a tenant’s event campaigns, their events and unique ID lists from another', async () => {
    const h = anHarness();
    const campaign = idOf(await created(h, 'event_campaigns', { title: 'Mine' }));
    const ana = await person(h, 'ana@iso.example');
    const list = idOf(await created(h, 'unique_id_lists', { name: 'Mine', unique_ids: [ana] }));
    for (const path of [
      `event_campaigns/${campaign}`,
      `event_campaigns/${campaign}/events`,
      `event_campaigns/${campaign}/embed`,
      `unique_id_lists/${list}`,
    ]) {
      expect((await h.json('GET', `${API}/${path}`, { key: OTHER })).status, path).toBe(404);
    }
    const post = await h.json('POST', `${API}/event_campaigns/${campaign}/events`, {
      key: OTHER,
      body: { title: 'Sneaky' },
    });
    expect(post.status).toBe(404);
    const page = await h.json('GET', `${API}/event_campaigns`, { key: OTHER });
    expect(page.body._embedded['action_network:event_campaigns']).toEqual([]);
  });
});

describe('the plain server', () => {
  it('has none of these collections, documents or links', async () => {
    const h = harness();
    const entry = await h.json('GET', '/api/v1/');
    expect(
      Object.keys(entry.body._links).filter((rel) => /campaigns$|unique_id/.test(rel)),
    ).toEqual(['std:advocacy_campaigns']);
    for (const path of [
      'event_campaigns',
      'campaigns',
      'unique_id_lists',
      'metadata/custom_fields',
    ]) {
      expect((await h.json('GET', `/api/v1/${path}`)).status, path).toBe(404);
    }
    const metadata = await h.json('GET', '/api/v1/metadata');
    expect(Object.keys(metadata.body._links)).not.toContain('action_network:custom_fields');
    const petition = await h.json('POST', '/api/v1/petitions', { body: { title: 'Plain' } });
    const id = idOf(petition.body);
    expect(Object.keys(petition.body._links).some((rel) => rel.includes('embed'))).toBe(false);
    expect((await h.json('GET', `/api/v1/petitions/${id}/embed`)).status).toBe(404);
    // Its events have no event campaign to refer to.
    const event = await h.json('POST', '/api/v1/events', {
      body: { title: 'Plain', _links: { 'std:event_campaign': { href: '/api/v1/events/x' } } },
    });
    expect(event.status).toBe(400);
    expect(errorOf(event.body)[0]?.error_code).toBe('INVALID_LINK');
  });
});

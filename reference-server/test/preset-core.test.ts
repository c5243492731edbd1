/**
 * The Action Network preset's core: where the API is, how the entry point reads, how
 * records are identified and how errors name relations; options given beside the
 * preset win over its values; the plain server is untouched.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_NETWORK_PRESET, SPECIFICATION_PRESET } from '../src/presets/index.js';
import { harness, type Json, OTHER, presetHarness } from './helpers.js';

describe('the Action Network preset', () => {
  it('serves the entry point at /api/v2/ as Action Network documents it', async () => {
    const h = presetHarness(ACTION_NETWORK_PRESET);
    const entry = await h.json('GET', '/api/v2/');
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({
      osdi_version: '1.1.1',
      namespace: 'action_network',
      max_page_size: 25,
      vendor_name: 'Action Network',
    });
    expect(entry.body).not.toHaveProperty('max_pagesize');
    expect(entry.body).not.toHaveProperty('std_version');
    const { curies, self } = entry.body._links;
    expect(self.href).toBe('http://adis.test/api/v2/');
    expect(curies.map((curie: Json) => curie.name)).toEqual(['osdi', 'action_network']);
    // One documentation: both curies expand to the same href.
    expect(new Set(curies.map((curie: Json) => curie.href)).size).toBe(1);
    expect(entry.body._links['osdi:people'].href).toBe('http://adis.test/api/v2/people');
    // The person signup helper is the people collection (Action Network's upsert).
    expect(entry.body._links['osdi:person_signup_helper'].href).toBe(
      'http://adis.test/api/v2/people',
    );
    // The specification's path is not served under the preset, and keys go in its header.
    expect((await h.json('GET', '/api/v1/')).status).toBe(404);
    const wrongHeader = await h.json('GET', '/api/v2/', {
      key: null,
      headers: { 'STD-API-Token': 'write-key-000000' },
    });
    expect(wrongHeader.status).toBe(401);
  });

  it('identifies records action_network:<id>, the id being the one of their address', async () => {
    const h = presetHarness(ACTION_NETWORK_PRESET);
    const created = await h.json('POST', '/api/v2/tags', { body: { name: 'volunteer' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const local = created.body.identifiers[0] as string;
    expect(local).toMatch(/^action_network:[0-9a-f-]{36}$/);
    const id = local.slice('action_network:'.length);
    // As integrations do: the next URL built by hand from the identifier.
    const read = await h.json('GET', `/api/v2/tags/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.name).toBe('volunteer');
    expect(read.body._links.self.href).toBe(`http://adis.test/api/v2/tags/${id}`);
    // Another tenant does not see it.
    expect((await h.json('GET', `/api/v2/tags/${id}`, { key: OTHER })).status).toBe(404);
  });

  it('names relations osdi: in error descriptions and hints too', async () => {
    const h = presetHarness(ACTION_NETWORK_PRESET);
    const missing = await h.json('POST', '/api/v2/petitions/nope/signatures', {
      body: { _links: { 'osdi:person': { href: 'http://adis.test/api/v2/people/nope' } } },
    });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    const text = JSON.stringify(missing.body);
    expect(missing.body).toHaveProperty('osdi:error');
    expect(text).not.toMatch(/(^|[^\w:./-])std:[a-z]/);

    const untagged = await h.json('POST', '/api/v2/taggings', { body: {} });
    expect(untagged.status).toBe(400);
    const [first] = untagged.body['osdi:error'].resource_status[0].error_descriptions;
    expect(first.description).toBe('a tagging needs a link osdi:tag to a tag');
    expect(first.hint).toContain('"osdi:tag"');
    const described = JSON.stringify(untagged.body['osdi:error'].resource_status);
    expect(described).not.toMatch(/(^|[^\w:./-])std:[a-z]/);
  });

  it('reads a relation under the name it writes it (action_network:event_campaign)', async () => {
    const h = presetHarness(ACTION_NETWORK_PRESET);
    const campaign = await h.json('POST', '/api/v2/event_campaigns', { body: { title: 'Walks' } });
    const href = campaign.body._links.self.href;
    const event = await h.json('POST', '/api/v2/events', {
      body: { title: 'North meadow', _links: { 'action_network:event_campaign': { href } } },
    });
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    expect(event.body._links['action_network:event_campaign'].href).toBe(href);
    expect((await h.json('GET', href)).body.total_events).toBe(1);
    // Under both names at once: which one was meant cannot be told.
    const both = await h.json('POST', '/api/v2/events', {
      body: {
        title: 'South meadow',
        _links: { 'action_network:event_campaign': { href }, 'osdi:event_campaign': { href } },
      },
    });
    expect(both.status).toBe(400);
    expect(both.body['osdi:error'].resource_status[0].error_descriptions[0].properties).toEqual([
      '_links.action_network:event_campaign',
    ]);
  });

  it('lets options given beside it win over its values', async () => {
    const h = presetHarness(ACTION_NETWORK_PRESET, {
      apiKeyHeader: 'X-Api-Key',
      maxPageSize: 10,
      motd: 'Staging',
    });
    const entry = await h.json('GET', '/api/v2/');
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({ max_page_size: 10, motd: 'Staging' });
  });

  it('applies its key rate, 4 calls a second per key, unless told otherwise', async () => {
    const h = presetHarness(ACTION_NETWORK_PRESET, { keyRateLimit: undefined });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.call('GET', '/api/v2/')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});

describe('a record read and written back whole, links included', () => {
  it.each([
    ['the Action Network preset', () => presetHarness(ACTION_NETWORK_PRESET), '/api/v2'],
    ['the plain server', () => harness(), '/api/v1'],
  ])(
    'is taken by %s (helper and embed links are ignored like sub-collections)',
    async (_, make, api) => {
      const h = make();
      for (const [plural, body] of [
        ['petitions', { title: 'Keep the library open' }],
        ['events', { title: 'Repair café' }],
      ] as const) {
        const created = await h.json('POST', `${api}/${plural}`, { body });
        const read = await h.json('GET', created.body._links.self.href);
        const written = await h.json('PUT', created.body._links.self.href, { body: read.body });
        expect(written.status, JSON.stringify(written.body)).toBe(200);
      }
    },
  );
});

describe('the plain server', () => {
  it('keeps the specification: /api/v1/, std_version, max_pagesize, one curie, adis: identifiers', async () => {
    expect(SPECIFICATION_PRESET.apiPrefix).toBe('/api/v1');
    const h = harness();
    const entry = await h.json('GET', '/api/v1/');
    expect(entry.body).toMatchObject({ std_version: '1.0', max_pagesize: 100, namespace: 'adis' });
    expect(entry.body._links.curies.map((curie: Json) => curie.name)).toEqual(['std']);
    expect((await h.json('GET', '/api/v2/')).status).toBe(404);
    const created = await h.json('POST', '/api/v1/tags', { body: { name: 'volunteer' } });
    expect(created.body.identifiers[0]).toMatch(/^adis:/);
  });
});

/**
 * The server as an OSDI-style server: relations under another curie prefix
 * (`curiePrefix`), the API key in another header (`apiKeyHeader`).
 */
import { describe, expect, it } from 'vitest';
import { canonicalBody, presentBody } from '../src/http/relations.js';
import { createApp, openStorage } from '../src/index.js';
import { createTestServer } from '../src/testing.js';
import { type Call, harness, type Json, WRITE } from './helpers.js';

const OSDI = { curiePrefix: 'osdi', apiKeyHeader: 'OSDI-API-Token' } as const;

/** A harness whose calls carry the key in OSDI-API-Token. */
function osdiHarness() {
  const h = harness({ ...OSDI, anonymousRateLimit: false });
  const json = (method: string, path: string, options: Call = {}) =>
    h.json(method, path, {
      ...options,
      key: null,
      headers: { ...(options.key === null ? {} : { 'OSDI-API-Token': WRITE }), ...options.headers },
    });
  return { h, json };
}

/**
 * Every relation name a document carries: the members of each `_links` and `_embedded`
 * at any depth, and top-level members with a colon (an error, records beside it).
 */
function relationsOf(document: Json): string[] {
  const found: string[] = Object.keys(document).filter((key) => key.includes(':'));
  const walk = (value: unknown) => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, inner] of Object.entries(value)) {
      if ((key === '_links' || key === '_embedded') && typeof inner === 'object' && inner) {
        found.push(...Object.keys(inner));
      }
      walk(inner);
    }
  };
  walk(document);
  return found;
}

/** Relations of a document that are neither plain HAL ones nor under `osdi:`. */
function foreignRelations(document: Json): string[] {
  return relationsOf(document).filter(
    (rel) =>
      !['self', 'next', 'previous', 'curies', 'docs'].includes(rel) && !rel.startsWith('osdi:'),
  );
}

describe('curiePrefix osdi', () => {
  it('names every relation of the entry point, collections, records and metadata osdi:', async () => {
    const { json } = osdiHarness();
    const entry = await json('GET', '/api/v1/');
    expect(entry.status).toBe(200);
    expect(entry.body.osdi_version).toBe('1.0');
    expect(entry.body).not.toHaveProperty('std_version');
    expect(entry.body._links.curies).toEqual([
      { name: 'osdi', href: 'http://adis.test/docs/v1/{rel}', templated: true },
    ]);
    expect(entry.body._links['osdi:people'].href).toBe('http://adis.test/api/v1/people');
    expect(entry.body._links['osdi:person_signup_helper']).toBeDefined();
    expect(foreignRelations(entry.body)).toEqual([]);

    const petition = await json('POST', '/api/v1/petitions', { body: { title: 'Save Elm Park' } });
    expect(petition.status).toBe(201);
    const person = await json('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    const signature = await json('POST', `${petition.body._links.self.href}/signatures`, {
      body: { _links: { 'osdi:person': { href: person.body._links.self.href } } },
    });
    expect(signature.status, JSON.stringify(signature.body)).toBe(201);

    const documents: Json[] = [entry.body, petition.body, person.body, signature.body];
    for (const path of [
      '/api/v1/people',
      '/api/v1/petitions',
      petition.body._links.self.href,
      person.body._links.self.href,
      signature.body._links.self.href,
      '/api/v1/metadata',
      '/api/v1/metadata/canvass_response_codes',
    ]) {
      const read = await json('GET', path);
      expect(read.status, path).toBe(200);
      documents.push(read.body);
    }
    const signatures = await json('GET', petition.body._links['osdi:signatures'].href);
    documents.push(signatures.body);
    expect(signatures.body._embedded['osdi:signatures']).toHaveLength(1);
    expect(signatures.body._links['osdi:signatures']).toHaveLength(1);
    expect(signatures.body._embedded['osdi:signatures'][0]._links['osdi:person'].href).toBe(
      person.body._links.self.href,
    );
    for (const document of documents) {
      expect(foreignRelations(document), JSON.stringify(document)).toEqual([]);
      expect(JSON.stringify(document)).not.toContain('"std:');
    }
    const people = await json('GET', '/api/v1/people');
    expect(people.body._links.curies[0].name).toBe('osdi');
    expect(people.body._embedded['osdi:people'][0]._links['osdi:signatures']).toBeDefined();
  });

  it('keeps the default std: unchanged beside an osdi app in the same process', async () => {
    // The renderers cache their link text per kind: two prefixes must not share it.
    const { json } = osdiHarness();
    const std = harness();
    for (let i = 0; i < 2; i++) {
      const osdiPeople = await json('GET', '/api/v1/people');
      const stdPeople = await std.json('GET', '/api/v1/people');
      expect(osdiPeople.body._links['osdi:people']).toBeDefined();
      expect(stdPeople.body._links['std:people']).toBeDefined();
      const created = await std.json('POST', '/api/v1/people', { body: { given_name: 'Bo' } });
      expect(Object.keys(created.body._links)).toContain('std:signatures');
      const osdiCreated = await json('POST', '/api/v1/people', { body: { given_name: 'Bo' } });
      expect(Object.keys(osdiCreated.body._links)).toContain('osdi:signatures');
      const entry = await std.json('GET', '/api/v1/');
      expect(entry.body.std_version).toBe('1.0');
      expect(entry.body._links.curies[0].name).toBe('std');
    }
  });

  it('accepts links and std:control under either prefix, and refuses both at once', async () => {
    const { json } = osdiHarness();
    const petition = await json('POST', '/api/v1/petitions', { body: { title: 'Trees' } });
    const ana = await json('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    const bo = await json('POST', '/api/v1/people', { body: { given_name: 'Bo' } });
    const signatures = `${petition.body._links.self.href}/signatures`;

    const byStd = await json('POST', signatures, {
      body: { _links: { 'std:person': { href: ana.body._links.self.href } } },
    });
    expect(byStd.status, JSON.stringify(byStd.body)).toBe(201);
    expect(byStd.body._links['osdi:person'].href).toBe(ana.body._links.self.href);

    const quiet = await json('POST', signatures, {
      body: {
        'osdi:control': { return_response: false },
        _links: { 'osdi:person': { href: bo.body._links.self.href } },
      },
    });
    expect(quiet.status, JSON.stringify(quiet.body)).toBe(201);
    expect(Object.keys(quiet.body).sort()).toEqual(['_links', 'identifiers']);

    const both = await json('POST', '/api/v1/people', {
      body: {
        given_name: 'Cy',
        _links: {
          'std:person': { href: ana.body._links.self.href },
          'osdi:person': { href: bo.body._links.self.href },
        },
      },
    });
    expect(both.status).toBe(400);
    const error = both.body['osdi:error'];
    expect(error.resource_status[0].error_descriptions[0]).toMatchObject({
      error_code: 'INVALID_PROPERTY',
      description: expect.stringContaining('_links.std:person'),
      properties: ['_links.osdi:person'],
    });

    const badControl = await json('POST', '/api/v1/people', {
      body: { given_name: 'Di', 'osdi:control': { return_response: 'no' } },
    });
    expect(badControl.status).toBe(400);
    expect(badControl.body['osdi:error'].resource_status[0].error_descriptions[0].error_code).toBe(
      'INVALID_CONTROL',
    );
  });

  it('writes errors as osdi:error, with resource names and link paths under osdi:', async () => {
    const { json } = osdiHarness();
    const missing = await json('GET', '/api/v1/people/nobody');
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.body)).toEqual(['osdi:error']);
    const unrouted = await json('GET', '/api/v1/nowhere/at/all/here');
    expect(Object.keys(unrouted.body)).toEqual(['osdi:error']);
    const unauthorized = await json('GET', '/api/v1/people', { key: null });
    expect(unauthorized.status).toBe(401);
    expect(Object.keys(unauthorized.body)).toEqual(['osdi:error']);

    const invalid = await json('POST', '/api/v1/people', { body: { given_name: 7 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body['osdi:error'].resource_status[0].resource).toBe('osdi:person');

    const petition = await json('POST', '/api/v1/petitions', { body: { title: 'Trees' } });
    const badLink = await json('POST', `${petition.body._links.self.href}/signatures`, {
      body: { _links: { 'osdi:person': { href: 'http://adis.test/api/v1/people/nobody' } } },
    });
    expect(badLink.status).toBe(400);
    const description = badLink.body['osdi:error'].resource_status[0].error_descriptions[0];
    expect(description.properties).toEqual(['_links.osdi:person']);

    const tooLarge = await json('POST', '/api/v1/people', {
      raw: `{"x":"${'a'.repeat(1_100_000)}"}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(tooLarge.status).toBe(413);
    expect(Object.keys(tooLarge.body)).toEqual(['osdi:error']);
  });

  it('writes every std: segment of an error property path under osdi:, not only _links.', async () => {
    const { json } = osdiHarness();
    const person = (given: string, address: string) => ({
      given_name: given,
      email_addresses: [{ address }],
    });
    const tia = await json('POST', '/api/v1/people', { body: person('Tia', 'tia@example.org') });
    const cal = await json('POST', '/api/v1/people', { body: person('Cal', 'cal@example.org') });
    const helper = tia.body._links['osdi:record_canvass_helper'].href;
    const descriptionOf = (body: Json) =>
      body['osdi:error'].resource_status[0].error_descriptions[0];

    // A link below canvass: the domain reports it at canvass._links.std:canvasser.
    const badLink = await json('POST', helper, {
      body: {
        canvass: {
          contact_type: 'door',
          _links: { 'osdi:canvasser': { href: 'http://adis.test/api/v1/people/nobody' } },
        },
      },
    });
    expect(badLink.status, JSON.stringify(badLink.body)).toBe(400);
    expect(descriptionOf(badLink.body)).toMatchObject({
      error_code: 'INVALID_LINK',
      properties: ['canvass._links.osdi:canvasser'],
    });

    const twice = await json('POST', helper, {
      body: {
        canvass: {
          canvasser: person('Cal', 'cal@example.org'),
          _links: { 'osdi:canvasser': { href: cal.body._links.self.href } },
        },
      },
    });
    expect(twice.status, JSON.stringify(twice.body)).toBe(400);
    expect(descriptionOf(twice.body)).toMatchObject({
      error_code: 'INVALID_PROPERTY',
      properties: ['canvass.canvasser', 'canvass._links.osdi:canvasser'],
    });

    // A member of the control object: std:control.return_response on the inside.
    const badControl = await json('POST', '/api/v1/people', {
      body: { given_name: 'Di', 'osdi:control': { return_response: 'no' } },
    });
    expect(badControl.status).toBe(400);
    expect(descriptionOf(badControl.body)).toMatchObject({
      error_code: 'INVALID_CONTROL',
      properties: ['osdi:control.return_response'],
    });
    for (const refused of [badLink, twice, badControl]) {
      expect(JSON.stringify(refused.body['osdi:error'].resource_status)).not.toMatch(
        /"properties":\[[^\]]*std:/,
      );
    }
  });

  it('answers helpers with osdi: relations, the person embedded as osdi:person', async () => {
    const { json } = osdiHarness();
    const petition = await json('POST', '/api/v1/petitions', { body: { title: 'Trees' } });
    const helper = petition.body._links['osdi:record_signature_helper'].href;
    const signed = await json('POST', helper, {
      body: { person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] } },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect(signed.body._embedded['osdi:person'].given_name).toBe('Ana');
    expect(foreignRelations(signed.body)).toEqual([]);

    const partly = await json('POST', helper, {
      body: {
        person: { given_name: 'Bo', email_addresses: [{ address: 'bo@example.org' }] },
        add_tags: ['no such tag'],
      },
    });
    expect(partly.status, JSON.stringify(partly.body)).toBe(400);
    expect(partly.body['osdi:error'].request_type).toBe('non-atomic');
    const resources = partly.body['osdi:error'].resource_status.map(
      (status: Json) => status.resource,
    );
    expect(resources).toContain('osdi:person');
    expect(resources).toContain('osdi:signature');
    expect(resources.every((resource: string) => resource.startsWith('osdi:'))).toBe(true);
    expect(partly.body['osdi:person'].given_name).toBe('Bo');
    expect(partly.body['osdi:signature']).toBeDefined();
    expect(foreignRelations(partly.body)).toEqual([]);
  });

  it('documents the relations under osdi: and finds them under either prefix', async () => {
    const { h } = osdiHarness();
    const index = await (await h.call('GET', '/docs/v1/', { key: null })).text();
    expect(index).toContain('osdi:people');
    expect(index).toContain('OSDI-API-Token');
    expect(index).not.toContain('std:people');
    for (const rel of ['people', 'osdi:people', 'std:people']) {
      const page = await h.call('GET', `/docs/v1/${rel}`, { key: null });
      expect(page.status, rel).toBe(200);
      expect(await page.text()).toContain('<title>osdi:people</title>');
    }
  });

  it('refuses a prefix that cannot be a curie name', async () => {
    const storage = openStorage(':memory:');
    for (const bad of ['', 'osdi:', 'os di', '1osdi', 'x'.repeat(33), 'ösdi']) {
      expect(() => createApp({ storage, curiePrefix: bad }), bad).toThrow(RangeError);
    }
    expect(() => createApp({ storage, curiePrefix: 'my_org-2.v1' })).not.toThrow();
    await storage.close();
  });
});

describe('relation translation', () => {
  it('is the identity, the very same object, under the default prefix', () => {
    const body = { 'std:error': { resource_status: [] }, _links: { 'std:person': { href: 'x' } } };
    expect(canonicalBody(body, 'std')).toBe(body);
    expect(presentBody(body, 'std')).toBe(body);
  });

  it('leaves members of other prefixes and nested records alone', () => {
    const body = {
      'vendor:x': 1,
      _links: { 'vendor:y': { href: 'y' }, 'osdi:person': { href: 'p' } },
    };
    expect(canonicalBody(body, 'osdi')).toEqual({
      'vendor:x': 1,
      _links: { 'vendor:y': { href: 'y' }, 'std:person': { href: 'p' } },
    });
    const nested = { given_name: 'Ana', _links: { 'std:kept': { href: 'k' } } };
    expect(presentBody({ ...nested, _embedded: { 'std:person': nested } }, 'osdi')).toEqual({
      ...nested,
      _embedded: { 'osdi:person': nested },
    });
  });
});

describe('apiKeyHeader', () => {
  it('takes the key from the configured header only, and says which one', async () => {
    const { h, json } = osdiHarness();
    expect((await json('GET', '/api/v1/')).status).toBe(200);
    const spec = await h.json('GET', '/api/v1/', { key: WRITE });
    expect(spec.status).toBe(401);
    expect(spec.body['osdi:error'].resource_status[0].error_descriptions[0].description).toContain(
      'OSDI-API-Token',
    );
    const wrong = await json('GET', '/api/v1/', {
      key: null,
      headers: { 'OSDI-API-Token': 'nope-nope' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body['osdi:error'].resource_status[0].error_descriptions[0].description).toContain(
      'OSDI-API-Token',
    );
  });

  it('is allowed in CORS preflights', async () => {
    const { h } = osdiHarness();
    const res = await h.call('OPTIONS', '/api/v1/people', {
      key: null,
      headers: {
        Origin: 'https://crm.example.org',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'osdi-api-token',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'osdi-api-token',
    );
  });

  it('refuses names that are not header names or that mean something else', async () => {
    const storage = openStorage(':memory:');
    for (const bad of [
      '',
      'API Token',
      'Token:',
      'Content-Type',
      'host',
      'X-Request-Id',
      'Access-Control-Allow-Origin',
      'x'.repeat(65),
    ]) {
      expect(() => createApp({ storage, apiKeyHeader: bad }), bad).toThrow(RangeError);
    }
    expect(() => createApp({ storage, apiKeyHeader: 'Authorization' })).not.toThrow();
    await storage.close();
  });
});

describe('the testing kit as an OSDI server', () => {
  it('takes the three options through app and answers like Action Network would', async () => {
    const kit = createTestServer({
      seed: { people: 3 },
      app: { apiKeyHeader: 'OSDI-API-Token', curiePrefix: 'osdi', keyRateLimit: 4 },
    });
    try {
      const headers = { 'OSDI-API-Token': kit.keys.write };
      const entry = await kit.fetch(kit.entryPoint, { headers });
      expect(entry.status).toBe(200);
      const body = (await entry.json()) as Json;
      expect(body.osdi_version).toBe('1.0');
      const people = (await (
        await kit.fetch(body._links['osdi:people'].href, { headers })
      ).json()) as Json;
      expect(people._embedded['osdi:people']).toHaveLength(3);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await kit.fetch(kit.entryPoint, { headers })).status);
      // Five calls in well under a second: the fifth is one too many.
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await kit.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { errorOf, harness, ORIGIN, OTHER, READ, sqliteHarness } from './helpers.js';

describe('entry point', () => {
  it('has the spec fields and links built from the request origin', async () => {
    const h = harness();
    const { status, body } = await h.json('GET', '/api/v1/');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      max_pagesize: 100,
      std_version: '1.0',
      namespace: 'adis',
      vendor_name: expect.any(String),
      product_name: expect.any(String),
      motd: expect.any(String),
    });
    expect(body._links.self.href).toBe(`${ORIGIN}/api/v1/`);
    expect(body._links.curies).toEqual([
      { name: 'std', href: `${ORIGIN}/docs/v1/{rel}`, templated: true },
    ]);
    expect(body._links.docs).toMatchObject({
      href: `${ORIGIN}/docs/v1/`,
      title: expect.any(String),
      name: expect.any(String),
      index: expect.any(String),
    });
    expect(body._links['std:people']).toEqual({
      href: `${ORIGIN}/api/v1/people`,
      title: expect.any(String),
    });
    expect(body._links['std:person_signup_helper'].href).toBe(
      `${ORIGIN}/api/v1/people/person_signup_helper`,
    );
  });

  it('answers with and without the trailing slash, on any host', async () => {
    const h = harness();
    const a = await h.json('GET', '/api/v1');
    const b = await h.json('GET', 'http://other.example:9999/api/v1/');
    expect(a.status).toBe(200);
    expect(b.body._links.self.href).toBe('http://other.example:9999/api/v1/');
  });

  it('uses the configured public URL and namespace', async () => {
    const h = harness({ publicUrl: 'https://api.example.org/' });
    await h.storage.tenants.ensure('custom', 'acmeorg');
    await h.storage.tenants.putApiKey('custom-tenant-key', 'custom', 'read');
    const { body } = await h.json('GET', '/api/v1/', { key: 'custom-tenant-key' });
    expect(body.namespace).toBe('acmeorg');
    expect(body._links['std:people'].href).toBe('https://api.example.org/api/v1/people');
  });

  it('uses a configurable key header', async () => {
    const h = harness({ apiKeyHeader: 'X-Api-Key' });
    expect((await h.call('GET', '/api/v1/')).status).toBe(401);
    const res = await h.call('GET', '/api/v1/', { key: null, headers: { 'X-Api-Key': READ } });
    expect(res.status).toBe(200);
  });
});

describe('authentication', () => {
  it('401 without a key, with a std:error body', async () => {
    const h = harness();
    const { status, body } = await h.json('GET', '/api/v1/', { key: null });
    expect(status).toBe(401);
    expect(errorOf(body)[0]?.error_code).toBe('UNAUTHORIZED');
    expect((await h.call('GET', '/api/v1/people', { key: null })).status).toBe(401);
  });

  it('401 with an unknown key', async () => {
    const h = harness();
    expect((await h.call('GET', '/api/v1/', { key: 'nope-nope-nope' })).status).toBe(401);
  });

  it('403 for a read key on POST, PUT, PATCH and DELETE; GET allowed', async () => {
    const h = harness();
    const created = await h.json('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    const self = created.body._links.self.href as string;
    expect((await h.call('GET', self, { key: READ })).status).toBe(200);
    const post = await h.json('POST', '/api/v1/people', { key: READ, body: { given_name: 'X' } });
    expect(post.status).toBe(403);
    expect(errorOf(post.body)[0]?.error_code).toBe('FORBIDDEN');
    expect((await h.call('PUT', self, { key: READ, body: { given_name: 'X' } })).status).toBe(403);
    expect((await h.call('PATCH', self, { key: READ, body: { given_name: 'X' } })).status).toBe(
      403,
    );
    expect((await h.call('DELETE', self, { key: READ })).status).toBe(403);
    expect(
      (
        await h.call('POST', '/api/v1/people/person_signup_helper', {
          key: READ,
          body: { person: {} },
        })
      ).status,
    ).toBe(403);
  });

  it('keys are stored hashed', async () => {
    const h = sqliteHarness();
    await h.ready;
    const rows = h.storage.database.prepare('SELECT token_hash FROM api_keys').all() as {
      token_hash: string;
    }[];
    expect(rows.length).toBe(3);
    for (const row of rows) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await h.storage.tenants.authenticate(OTHER))?.tenant.name).toBe('other');
  });
});

describe('headers and generic errors', () => {
  const expectApiHeaders = (res: Response) => {
    expect(res.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('max-age=0, private, must-revalidate');
  };

  it('every API response carries the HAL content type and Cache-Control', async () => {
    const h = harness();
    const created = await h.call('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    const self = ((await created.clone().json()) as { _links: { self: { href: string } } })._links
      .self.href;
    const responses = [
      created,
      await h.call('GET', '/api/v1/'),
      await h.call('GET', '/api/v1/people'),
      await h.call('GET', self),
      await h.call('GET', `${self}/signatures`),
      await h.call('PUT', self, { body: { family_name: 'B' } }),
      await h.call('GET', '/api/v1/', { key: null }),
      await h.call('POST', '/api/v1/people', { key: READ, body: {} }),
      await h.call('GET', '/api/v1/nothing-here'),
      await h.call('GET', '/elsewhere'),
      await h.call('POST', '/api/v1/people', {
        raw: '{',
        headers: { 'Content-Type': 'application/json' },
      }),
      await h.call('DELETE', self),
    ];
    for (const res of responses) expectApiHeaders(res);
  });

  it('unknown routes give a 404 std:error', async () => {
    const h = harness();
    const a = await h.json('GET', '/api/v1/unicorns');
    expect(a.status).toBe(404);
    expect(errorOf(a.body)[0]?.error_code).toBe('NOT_FOUND');
    const b = await h.json('GET', '/nowhere', { key: null });
    expect(b.status).toBe(404);
    expect(b.body['std:error'].response_code).toBe(404);
  });

  it('405 with Allow for a method a route does not take', async () => {
    const h = harness();
    const a = await h.call('DELETE', '/api/v1/people');
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('GET, POST');
    expect((await h.call('PUT', '/api/v1/')).status).toBe(405);
    expect((await h.call('GET', '/api/v1/people/person_signup_helper')).status).toBe(405);
  });

  it('a method a record does not take: 405 with Allow for a record that exists, 404 for one that does not', async () => {
    const h = harness();
    const person = await h.json('POST', '/api/v1/people', {
      body: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
    });
    const id = String(person.body.identifiers[0]).split(':')[1];
    const exists = await h.call('POST', `/api/v1/people/${id}`);
    expect(exists.status).toBe(405);
    expect(exists.headers.get('allow')).toBe('GET, PUT, PATCH, DELETE');
    // Its GET is a 404, so is its POST: no Allow naming a GET that would not be found.
    const missing = await h.json('POST', '/api/v1/people/no-such-person');
    expect(missing.status).toBe(404);
    expect(missing.res.headers.get('allow')).toBeNull();
    expect(errorOf(missing.body)[0]?.error_code).toBe('NOT_FOUND');
  });

  it('an unexpected exception is a 500 std:error with a logged reference_code', async () => {
    const logs: string[] = [];
    const h = harness({ logError: (line) => logs.push(line) });
    h.storage.records.count = async () => {
      throw new Error('disk on fire');
    };
    const { status, body } = await h.json('GET', '/api/v1/people');
    expect(status).toBe(500);
    const [description] = errorOf(body);
    expect(description?.error_code).toBe('INTERNAL_ERROR');
    expect(description?.reference_code).toMatch(/^[0-9a-f]{16}$/);
    expect(logs.join('\n')).toContain(description?.reference_code);
    expect(logs.join('\n')).toContain('disk on fire');
  });

  it('serves HTML documentation without a key', async () => {
    const h = harness();
    const index = await h.call('GET', '/docs/v1/', { key: null });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    const people = await h.call('GET', '/docs/v1/people', { key: null });
    expect(people.status).toBe(200);
    expect(await people.text()).toContain('std:people');
    expect((await h.call('GET', '/docs/v1/signatures', { key: null })).status).toBe(200);
  });
});

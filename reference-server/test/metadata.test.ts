import { describe, expect, it } from 'vitest';
import { RESPONSE_CODES } from '../src/domain/metadata.js';
import { errorOf, harness, ORIGIN, OTHER, READ } from './helpers.js';

const LISTS = [
  ['canvass_response_codes', 'response_codes', 'response_code'],
  ['canvass_contact_types', 'contact_types', 'contact_type'],
  ['canvass_input_types', 'input_types', 'input_type'],
] as const;

describe('metadata root', () => {
  it('has a name and titled links to the three lists', async () => {
    const h = harness();
    const { status, body } = await h.json('GET', '/api/v1/metadata', { key: READ });
    expect(status).toBe(200);
    expect(body.name).toEqual(expect.any(String));
    expect(body._links.self.href).toBe(`${ORIGIN}/api/v1/metadata`);
    expect(body._links.curies).toEqual([
      { name: 'std', href: `${ORIGIN}/docs/v1/{rel}`, templated: true },
    ]);
    for (const [list] of LISTS) {
      expect(body._links[`std:${list}`]).toEqual({
        href: `${ORIGIN}/api/v1/metadata/${list}`,
        title: expect.any(String),
      });
    }
  });

  it('is linked from the entry point as std:metadata', async () => {
    const h = harness();
    const { body } = await h.json('GET', '/api/v1/');
    expect(body._links['std:metadata']?.href).toBe(`${ORIGIN}/api/v1/metadata`);
  });

  it('answers with and without a trailing slash, on the request host', async () => {
    const h = harness();
    const { status, body } = await h.json('GET', 'http://other.example:9999/api/v1/metadata/');
    expect(status).toBe(200);
    expect(body._links['std:canvass_input_types'].href).toBe(
      'http://other.example:9999/api/v1/metadata/canvass_input_types',
    );
  });
});

describe('metadata lists', () => {
  it.each(LISTS)('%s carries the common fields and its list', async (list, member, key) => {
    const h = harness();
    const { status, body } = await h.json('GET', `/api/v1/metadata/${list}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      origin_system: expect.any(String),
      name: list,
      description: expect.any(String),
      identifiers: [`adis:${list}`],
    });
    expect(body._links.self).toEqual({ href: `${ORIGIN}/api/v1/metadata/${list}` });
    expect(body._links.curies).toHaveLength(1);
    const entries = body[member] as Record<string, unknown>[];
    expect(entries.length).toBeGreaterThan(3);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual([key, 'name'].sort());
      expect(entry[key]).toMatch(/^[a-z_]+$/);
      expect(entry.name).toEqual(expect.any(String));
    }
    const codes = entries.map((entry) => entry[key]);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('ships the demo vocabulary', async () => {
    const h = harness();
    const codesOf = async (list: string, member: string, key: string) =>
      (
        (await h.json('GET', `/api/v1/metadata/${list}`)).body[member] as Record<string, string>[]
      ).map((entry) => entry[key]);
    expect(await codesOf('canvass_contact_types', 'contact_types', 'contact_type')).toEqual([
      'door',
      'phone',
      'text',
      'email',
      'event',
    ]);
    expect(await codesOf('canvass_input_types', 'input_types', 'input_type')).toEqual(
      expect.arrayContaining(['mobile_app', 'paper_scan', 'data_entry', 'predictive_dialer']),
    );
    expect(await codesOf('canvass_response_codes', 'response_codes', 'response_code')).toEqual(
      expect.arrayContaining([
        'not_home',
        'refused',
        'moved',
        'wrong_number',
        'deceased',
        'inaccessible',
        'come_back',
        'spoke_with_target',
        'left_message',
        'busy',
        'disconnected',
      ]),
    );
  });

  it('uses the tenant namespace in identifiers', async () => {
    const h = harness();
    await h.storage.tenants.ensure('custom', 'acmeorg');
    await h.storage.tenants.putApiKey('custom-tenant-key', 'custom', 'read');
    const { body } = await h.json('GET', '/api/v1/metadata/canvass_contact_types', {
      key: 'custom-tenant-key',
    });
    expect(body.identifiers).toEqual(['acmeorg:canvass_contact_types']);
    // The vocabulary itself is the same for every tenant.
    const other = await h.json('GET', '/api/v1/metadata/canvass_contact_types', { key: OTHER });
    expect(other.body.contact_types).toEqual(body.contact_types);
  });

  it('every response code applies to at least one contact type', async () => {
    const h = harness();
    const { body } = await h.json('GET', '/api/v1/metadata/canvass_contact_types');
    const known = new Set(
      (body.contact_types as { contact_type: string }[]).map((t) => t.contact_type),
    );
    for (const code of RESPONSE_CODES) {
      expect(code.contact_types.length).toBeGreaterThan(0);
      for (const type of code.contact_types) expect(known.has(type)).toBe(true);
    }
  });
});

describe('contacttype filter', () => {
  const codes = async (query: string) => {
    const h = harness();
    const res = await h.json('GET', `/api/v1/metadata/canvass_response_codes${query}`);
    return {
      ...res,
      codes: (res.body.response_codes as { response_code: string }[] | undefined)?.map(
        (entry) => entry.response_code,
      ),
    };
  };

  it('returns only the response codes of a known contact type', async () => {
    const door = await codes('?contacttype=door');
    expect(door.status).toBe(200);
    expect(door.codes).toEqual(expect.arrayContaining(['not_home', 'inaccessible', 'refused']));
    expect(door.codes).not.toContain('busy');
    expect(door.codes).not.toContain('wrong_number');
    const phone = await codes('?contacttype=phone');
    expect(phone.codes).toEqual(
      expect.arrayContaining(['busy', 'wrong_number', 'left_message', 'disconnected']),
    );
    expect(phone.codes).not.toContain('not_home');
    const all = await codes('');
    expect(all.codes?.length).toBeGreaterThan(door.codes?.length ?? 0);
  });

  it('the self link of a filtered list carries its query', async () => {
    const { body } = await codes('?contacttype=text');
    expect(body._links.self.href).toBe(
      `${ORIGIN}/api/v1/metadata/canvass_response_codes?contacttype=text`,
    );
    expect(body.name).toBe('canvass_response_codes');
    expect(body.identifiers).toEqual(['adis:canvass_response_codes']);
  });

  it('matches the vocabulary table for every contact type', async () => {
    for (const type of ['door', 'phone', 'text', 'email', 'event']) {
      const { codes: got } = await codes(`?contacttype=${type}`);
      const expected = RESPONSE_CODES.filter((code) =>
        (code.contact_types as readonly string[]).includes(type),
      ).map((code) => code.response_code);
      expect(got).toEqual(expected);
    }
  });

  it('an unknown contact type is a 400 INVALID_PARAMETER naming the known ones', async () => {
    const { status, body } = await codes('?contacttype=fax');
    expect(status).toBe(400);
    expect(body['std:error']).toMatchObject({ request_type: 'atomic', response_code: 400 });
    const [description] = errorOf(body);
    expect(description?.error_code).toBe('INVALID_PARAMETER');
    expect(description?.properties).toEqual(['contacttype']);
    expect(description?.description).toContain('fax');
    for (const type of ['door', 'phone', 'text', 'email', 'event']) {
      expect(description?.hint).toContain(type);
    }
  });

  it('an empty contact type is a 400', async () => {
    for (const query of ['?contacttype=', '?contacttype']) {
      const { status, body } = await codes(query);
      expect(status).toBe(400);
      expect(errorOf(body)[0]?.error_code).toBe('INVALID_PARAMETER');
    }
  });

  it('a contact type given twice is a 400', async () => {
    const { status, body } = await codes('?contacttype=door&contacttype=phone');
    expect(status).toBe(400);
    expect(errorOf(body)[0]?.error_code).toBe('INVALID_PARAMETER');
  });

  it('is exact: codes are case-sensitive', async () => {
    expect((await codes('?contacttype=Door')).status).toBe(400);
  });

  it('the other lists ignore it', async () => {
    const h = harness();
    const { status } = await h.json('GET', '/api/v1/metadata/canvass_input_types?contacttype=x');
    expect(status).toBe(200);
  });
});

describe('metadata access', () => {
  it('requires an API key', async () => {
    const h = harness();
    for (const path of [
      '/api/v1/metadata',
      '/api/v1/metadata/canvass_response_codes',
      '/api/v1/metadata/canvass_contact_types',
      '/api/v1/metadata/canvass_input_types',
    ]) {
      const { status, body } = await h.json('GET', path, { key: null });
      expect(status).toBe(401);
      expect(errorOf(body)[0]?.error_code).toBe('UNAUTHORIZED');
    }
  });

  it('is read-only: other methods get 405 with Allow', async () => {
    const h = harness();
    for (const path of ['/api/v1/metadata', '/api/v1/metadata/canvass_response_codes']) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await h.call(method, path, { body: {} });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('GET');
      }
    }
    const { body } = await h.json('POST', '/api/v1/metadata/canvass_input_types', { body: {} });
    expect(errorOf(body)[0]?.error_code).toBe('METHOD_NOT_ALLOWED');
  });

  it('serves the HAL content type', async () => {
    const h = harness();
    const res = await h.call('GET', '/api/v1/metadata/canvass_contact_types');
    expect(res.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
  });

  it('an unknown metadata list is a 404', async () => {
    const h = harness();
    expect((await h.call('GET', '/api/v1/metadata/canvass_moods')).status).toBe(404);
  });
});

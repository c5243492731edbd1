import { describe, expect, it } from 'vitest';
import { errorOf, harness, ORIGIN, OTHER } from './helpers.js';

const ANA = {
  given_name: 'Ana',
  family_name: 'Diaz',
  email_addresses: [{ primary: true, address: 'ana@example.org' }],
  phone_numbers: [{ primary: true, number: '12025550123', number_type: 'Mobile' }],
  postal_addresses: [{ primary: true, locality: 'Washington', region: 'DC', country: 'US' }],
  birthdate: { year: 1990, month: 4, day: 2 },
  custom_fields: { shift: 'morning', team: 'north' },
};

describe('people: create, read, update, delete', () => {
  it('POST creates (201, Location, identifiers, dates, links)', async () => {
    const h = harness();
    const { status, body, res } = await h.json('POST', '/api/v1/people', {
      body: { ...ANA, identifiers: ['crm:42'] },
    });
    expect(status).toBe(201);
    const self = body._links.self.href as string;
    expect(res.headers.get('location')).toBe(self);
    expect(self).toMatch(new RegExp(`^${ORIGIN}/api/v1/people/[0-9a-f-]{36}$`));
    const id = self.split('/').pop();
    expect(body.identifiers).toEqual([`adis:${id}`, 'crm:42']);
    expect(body.created_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.modified_date).toBe(body.created_date);
    expect(body.given_name).toBe('Ana');
    for (const rel of [
      'answers',
      'attendances',
      'signatures',
      'submissions',
      'donations',
      'outreaches',
      'taggings',
      'items',
    ]) {
      expect(body._links[`std:${rel}`].href).toBe(`${self}/${rel}`);
    }
    const read = await h.json('GET', self);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(body);
  });

  it('every person link answers with a collection document of the right relation', async () => {
    const h = harness();
    const { body } = await h.json('POST', '/api/v1/people', { body: ANA });
    for (const [rel, link] of Object.entries(body._links as Record<string, { href: string }>)) {
      // Helper links are POST-only endpoints (test/helpers-*.test.ts), not collections.
      if (rel === 'curies' || rel.endsWith('_helper')) continue;
      const sub = await h.json('GET', link.href);
      expect(sub.status, rel).toBe(200);
      if (rel === 'self') continue;
      expect(sub.body.total_records).toBe(0);
      expect(sub.body._embedded[rel]).toEqual([]);
      expect(sub.body._links[rel]).toEqual([]);
    }
    expect((await h.call('GET', `${body._links.self.href}/unicorns`)).status).toBe(404);
    expect((await h.call('GET', '/api/v1/people/no-such-id/signatures')).status).toBe(404);
  });

  it('PUT is partial: untouched fields stay, null clears, arrays replaced, objects merged, read-only ignored', async () => {
    const h = harness();
    const created = await h.json('POST', '/api/v1/people', {
      body: { ...ANA, identifiers: ['crm:1'] },
    });
    const self = created.body._links.self.href as string;
    await new Promise((r) => setTimeout(r, 5));
    const { status, body } = await h.json('PUT', self, {
      body: {
        family_name: null,
        email_addresses: [{ address: 'new@example.org' }],
        birthdate: { year: 1991 },
        custom_fields: { shift: null },
        created_date: '2000-01-01T00:00:00Z',
        modified_date: '2000-01-01T00:00:00Z',
        _links: { self: { href: 'http://evil/' } },
        _embedded: {},
      },
    });
    expect(status).toBe(200);
    expect(body.given_name).toBe('Ana');
    expect('family_name' in body).toBe(false);
    expect(body.email_addresses).toEqual([{ address: 'new@example.org' }]);
    expect(body.phone_numbers).toEqual(ANA.phone_numbers);
    expect(body.birthdate).toEqual({ year: 1991, month: 4, day: 2 });
    expect(body.custom_fields).toEqual({ team: 'north' });
    expect(body.created_date).toBe(created.body.created_date);
    expect(body.modified_date > created.body.modified_date).toBe(true);
    expect(body._links.self.href).toBe(self);
    expect(body.identifiers).toEqual(created.body.identifiers);
    expect((await h.json('GET', self)).body).toEqual(body);
  });

  it('PUT identifiers: the local one is always kept, foreign ones are set', async () => {
    const h = harness();
    const created = await h.json('POST', '/api/v1/people', {
      body: { identifiers: ['crm:1', 'van:2'] },
    });
    const self = created.body._links.self.href as string;
    const local = created.body.identifiers[0];
    const a = await h.json('PUT', self, { body: { identifiers: ['van:3'] } });
    expect(a.body.identifiers).toEqual([local, 'van:3']);
    const b = await h.json('PUT', self, { body: { identifiers: [local, 'x:1'] } });
    expect(b.body.identifiers).toEqual([local, 'x:1']);
    const c = await h.json('PUT', self, { body: { identifiers: null } });
    expect(c.body.identifiers).toEqual([local]);
    const patch = await h.json('PATCH', self, { body: { given_name: 'P' } });
    expect(patch.body.given_name).toBe('P');
  });

  it('DELETE: 204 without body, then 404; missing one 404 std:error', async () => {
    const h = harness();
    const created = await h.json('POST', '/api/v1/people', { body: ANA });
    const self = created.body._links.self.href as string;
    const del = await h.call('DELETE', self);
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    const gone = await h.json('GET', self);
    expect(gone.status).toBe(404);
    expect(errorOf(gone.body)[0]?.error_code).toBe('NOT_FOUND');
    const again = await h.json('DELETE', self);
    expect(again.status).toBe(404);
    expect(again.body['std:error'].request_type).toBe('atomic');
    expect((await h.call('PUT', self, { body: { given_name: 'x' } })).status).toBe(404);
    // The identifiers of a deleted person are free again.
    expect(
      (
        await h.call('POST', '/api/v1/people', {
          body: { identifiers: created.body.identifiers.slice(1) },
        })
      ).status,
    ).toBe(201);
  });
});

describe('people: identifiers', () => {
  it('a client identifier in the local namespace is refused', async () => {
    const h = harness();
    const { status, body } = await h.json('POST', '/api/v1/people', {
      body: { identifiers: ['crm:1', 'adis:mine'] },
    });
    expect(status).toBe(400);
    expect(errorOf(body)).toEqual([
      expect.objectContaining({
        error_code: 'LOCAL_IDENTIFIER_NOT_ALLOWED',
        properties: ['identifiers[1]'],
      }),
    ]);
  });

  it('an identifier used by another person of the tenant is refused on create and update', async () => {
    const h = harness();
    await h.json('POST', '/api/v1/people', { body: { identifiers: ['crm:1'] } });
    const dup = await h.json('POST', '/api/v1/people', {
      body: { identifiers: ['crm:2', 'crm:1'] },
    });
    expect(dup.status).toBe(400);
    expect(errorOf(dup.body)[0]).toMatchObject({
      error_code: 'DUPLICATE_IDENTIFIER',
      properties: ['identifiers[1]'],
    });
    const other = await h.json('POST', '/api/v1/people', { body: { identifiers: ['crm:2'] } });
    const put = await h.json('PUT', other.body._links.self.href, {
      body: { identifiers: ['crm:1'] },
    });
    expect(put.status).toBe(400);
    expect(errorOf(put.body)[0]?.error_code).toBe('DUPLICATE_IDENTIFIER');
    // Another tenant may use the same foreign identifier.
    expect(
      (await h.call('POST', '/api/v1/people', { key: OTHER, body: { identifiers: ['crm:1'] } }))
        .status,
    ).toBe(201);
    // The refused writes changed nothing.
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(2);
  });

  it('an invalid identifier format is refused', async () => {
    const h = harness();
    const { status, body } = await h.json('POST', '/api/v1/people', {
      body: { identifiers: ['no-colon'] },
    });
    expect(status).toBe(400);
    expect(errorOf(body)[0]?.properties).toEqual(['identifiers[0]']);
  });
});

describe('people: validation', () => {
  it('more than one primary email is MULTIPLE_PRIMARY', async () => {
    const h = harness();
    const { status, body } = await h.json('POST', '/api/v1/people', {
      body: {
        email_addresses: [
          { primary: true, address: 'a@x.org' },
          { primary: true, address: 'b@x.org' },
        ],
      },
    });
    expect(status).toBe(400);
    expect(errorOf(body)).toEqual([
      expect.objectContaining({
        error_code: 'MULTIPLE_PRIMARY',
        properties: ['email_addresses[1].primary'],
      }),
    ]);
  });

  it('an invalid phone number names phone_numbers[i].number with the pattern as hint', async () => {
    const h = harness();
    const { status, body } = await h.json('POST', '/api/v1/people', {
      body: { phone_numbers: [{ number: '12025550123' }, { number: '+1 (202) 555' }] },
    });
    expect(status).toBe(400);
    const [error] = errorOf(body);
    expect(error).toMatchObject({
      error_code: 'INVALID_PROPERTY',
      properties: ['phone_numbers[1].number'],
    });
    expect(error?.hint).toContain('\\d{7,15}');
    expect(body['std:error'].resource_status).toHaveLength(1);
    expect(body['std:error'].resource_status[0].resource).toBe('std:person');
  });

  it('reports every problem together (atomic) and names wrong types and unknown members', async () => {
    const h = harness();
    const { status, body } = await h.json('POST', '/api/v1/people', {
      body: {
        given_name: 42,
        gender: 'female',
        nickname: 'x',
        postal_addresses: [{ country: 'USA', planet: 'Earth' }],
      },
    });
    expect(status).toBe(400);
    const errors = errorOf(body);
    const byProperty = Object.fromEntries(
      errors.map((e) => [e.properties?.join(','), e.error_code]),
    );
    expect(byProperty).toMatchObject({
      given_name: 'INVALID_PROPERTY',
      gender: 'INVALID_PROPERTY',
      nickname: 'UNKNOWN_PROPERTY',
      'postal_addresses[0].country': 'INVALID_PROPERTY',
      'postal_addresses[0].planet': 'UNKNOWN_PROPERTY',
    });
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(0);
  });

  it('keeps vendor members <prefix>:<name> at any depth, as sent, beside the spec members', async () => {
    const h = harness();
    const created = await h.json('POST', '/api/v1/people', {
      body: {
        given_name: 'Ana',
        'acme:score': 3,
        email_addresses: [{ address: 'ana@example.org', 'acme:source': { list: 'spring' } }],
      },
    });
    expect(created.status).toBe(201);
    const read = await h.json('GET', new URL(created.body._links.self.href).pathname);
    expect(read.body).toMatchObject({
      'acme:score': 3,
      email_addresses: [{ address: 'ana@example.org', 'acme:source': { list: 'spring' } }],
    });
    // A plain member the spec does not name is still a typo, refused.
    const typo = await h.json('POST', '/api/v1/people', { body: { given_name: 'Bo', score: 3 } });
    expect(errorOf(typo.body)[0]).toMatchObject({
      error_code: 'UNKNOWN_PROPERTY',
      properties: ['score'],
    });
  });

  it('malformed JSON is INVALID_JSON, a non-object body INVALID_BODY', async () => {
    const h = harness();
    const json = { 'Content-Type': 'application/json' };
    const bad = await h.json('POST', '/api/v1/people', { raw: '{"given_name": ', headers: json });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body)[0]?.error_code).toBe('INVALID_JSON');
    for (const raw of ['[]', '"text"', 'null', '42']) {
      const res = await h.json('POST', '/api/v1/people', { raw, headers: json });
      expect(res.status, raw).toBe(400);
      expect(errorOf(res.body)[0]?.error_code).toBe('INVALID_BODY');
    }
    const empty = await h.json('POST', '/api/v1/people', { raw: '' });
    expect(empty.status).toBe(400);
  });

  it('a body of the wrong media type is 415; hal+json is accepted', async () => {
    const h = harness();
    const res = await h.json('POST', '/api/v1/people', {
      raw: 'given_name=Ana',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(errorOf(res.body)[0]?.error_code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const hal = await h.call('POST', '/api/v1/people', {
      raw: '{"given_name":"Ana"}',
      headers: { 'Content-Type': 'application/hal+json; charset=utf-8' },
    });
    expect(hal.status).toBe(201);
  });

  it('a body over the limit is 413', async () => {
    const h = harness();
    const big = { given_name: 'x'.repeat(1024 * 1024 + 10) };
    const res = await h.json('POST', '/api/v1/people', { body: big });
    expect(res.status).toBe(413);
    expect(errorOf(res.body)[0]?.error_code).toBe('PAYLOAD_TOO_LARGE');
    const small = harness({ maxBodyBytes: 100 });
    expect(
      (await small.call('POST', '/api/v1/people', { body: { given_name: 'y'.repeat(200) } }))
        .status,
    ).toBe(413);
    const withLength = await small.call('POST', '/api/v1/people', {
      body: { given_name: 'y'.repeat(200) },
      headers: { 'Content-Length': '215' },
    });
    expect(withLength.status).toBe(413);
  });
});

describe('people: std:control', () => {
  it('return_response false answers the same status with identifiers and self only', async () => {
    const h = harness();
    const { status, body, res } = await h.json('POST', '/api/v1/people', {
      body: { ...ANA, 'std:control': { return_response: false } },
    });
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(['_links', 'identifiers']);
    expect(Object.keys(body._links)).toEqual(['self']);
    expect(res.headers.get('location')).toBe(body._links.self.href);
    const full = await h.json('GET', body._links.self.href);
    expect(full.body.given_name).toBe('Ana');
    expect('std:control' in full.body).toBe(false);
    const put = await h.json('PUT', body._links.self.href, {
      body: { given_name: 'B', 'std:control': { return_response: false } },
    });
    expect(put.status).toBe(200);
    expect(put.body.given_name).toBeUndefined();
    expect(put.body.identifiers).toEqual(body.identifiers);
  });

  it('an invalid control object is INVALID_CONTROL', async () => {
    const h = harness();
    for (const control of ['no', { return_response: 'no' }, { other: true }]) {
      const res = await h.json('POST', '/api/v1/people', { body: { 'std:control': control } });
      expect(res.status).toBe(400);
      expect(errorOf(res.body)[0]?.error_code).toBe('INVALID_CONTROL');
    }
  });
});

describe('tenants', () => {
  it("another tenant's person is 404 and absent from collections and totals", async () => {
    const h = harness();
    const mine = await h.json('POST', '/api/v1/people', { body: ANA });
    await h.json('POST', '/api/v1/people', { key: OTHER, body: { given_name: 'Other 1' } });
    await h.json('POST', '/api/v1/people', { key: OTHER, body: { given_name: 'Other 2' } });
    const self = mine.body._links.self.href as string;
    expect((await h.call('GET', self, { key: OTHER })).status).toBe(404);
    expect((await h.call('PUT', self, { key: OTHER, body: { given_name: 'x' } })).status).toBe(404);
    expect((await h.call('DELETE', self, { key: OTHER })).status).toBe(404);
    expect((await h.call('GET', `${self}/signatures`, { key: OTHER })).status).toBe(404);
    const theirs = await h.json('GET', '/api/v1/people', { key: OTHER });
    expect(theirs.body.total_records).toBe(2);
    expect(
      theirs.body._embedded['std:people'].map((p: { given_name: string }) => p.given_name),
    ).toEqual(['Other 1', 'Other 2']);
    const ours = await h.json('GET', '/api/v1/people');
    expect(ours.body.total_records).toBe(1);
    expect((await h.call('GET', self)).status).toBe(200);
  });
});

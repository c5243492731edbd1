import { describe, expect, it } from 'vitest';
import { errorOf, harness, OTHER } from './helpers.js';

const HELPER = '/api/v1/people/person_signup_helper';

describe('person signup helper', () => {
  it('creates a person (201) with its links', async () => {
    const h = harness();
    const { status, body, res } = await h.json('POST', HELPER, {
      body: { person: { given_name: 'Ana', email_addresses: [{ address: 'Ana@Example.org' }] } },
    });
    expect(status).toBe(201);
    expect(body.given_name).toBe('Ana');
    expect(res.headers.get('location')).toBe(body._links.self.href);
    expect(body._links['std:taggings']).toBeDefined();
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(1);
  });

  it('matches by email case-insensitively and merges (200)', async () => {
    const h = harness();
    const first = await h.json('POST', HELPER, {
      body: {
        person: {
          given_name: 'Ana',
          family_name: 'Diaz',
          email_addresses: [{ primary: true, address: 'ana@example.org' }],
          phone_numbers: [{ primary: true, number: '12025550123' }],
          custom_fields: { shift: 'am' },
        },
      },
    });
    const second = await h.json('POST', HELPER, {
      body: {
        person: {
          given_name: 'Anabel',
          identifiers: ['crm:7'],
          email_addresses: [
            { address: 'ANA@example.org', status: 'subscribed' },
            { primary: true, address: 'work@example.org' },
          ],
          phone_numbers: [{ number: '12025550123', sms_capable: true }],
          custom_fields: { team: 'n' },
        },
      },
    });
    expect(second.status).toBe(200);
    const person = second.body;
    expect(person._links.self.href).toBe(first.body._links.self.href);
    expect(person.given_name).toBe('Anabel');
    expect(person.family_name).toBe('Diaz');
    expect(person.identifiers).toEqual([first.body.identifiers[0], 'crm:7']);
    expect(person.email_addresses).toEqual([
      { primary: false, address: 'ANA@example.org', status: 'subscribed' },
      { primary: true, address: 'work@example.org' },
    ]);
    expect(person.phone_numbers).toEqual([
      { primary: true, number: '12025550123', sms_capable: true },
    ]);
    expect(person.custom_fields).toEqual({ shift: 'am', team: 'n' });
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(1);
  });

  it('matches by phone number when no email matches, and never across tenants', async () => {
    const h = harness();
    await h.json('POST', HELPER, {
      body: { person: { given_name: 'Bo', phone_numbers: [{ number: '447700900123' }] } },
    });
    const again = await h.json('POST', HELPER, {
      body: {
        person: {
          email_addresses: [{ address: 'bo@example.org' }],
          phone_numbers: [{ number: '447700900123' }],
        },
      },
    });
    expect(again.status).toBe(200);
    expect(again.body.given_name).toBe('Bo');
    expect(again.body.email_addresses).toEqual([{ address: 'bo@example.org' }]);
    const other = await h.json('POST', HELPER, {
      key: OTHER,
      body: { person: { phone_numbers: [{ number: '447700900123' }] } },
    });
    expect(other.status).toBe(201);
    // The email just added is now a match key too.
    const byEmail = await h.json('POST', HELPER, {
      body: { person: { email_addresses: [{ address: 'BO@example.org' }] } },
    });
    expect(byEmail.status).toBe(200);
  });

  it('keeps the person write and reports failing action functions (non-atomic)', async () => {
    const h = harness();
    const { status, body } = await h.json('POST', HELPER, {
      body: {
        person: { given_name: 'Cy', email_addresses: [{ address: 'cy@example.org' }] },
        add_tags: ['volunteer'],
        add_lists: ['newsletter'],
      },
    });
    expect(status).toBe(400);
    const error = body['std:error'];
    expect(error.request_type).toBe('non-atomic');
    expect(error.response_code).toBe(400);
    expect(error.resource_status[0]).toEqual({ resource: 'std:person', response_code: 201 });
    expect(error.resource_status.slice(1)).toEqual([
      expect.objectContaining({
        resource: 'std:tagging',
        response_code: 400,
        error_descriptions: [
          expect.objectContaining({
            error_code: 'TAG_NAME_DOES_NOT_EXIST',
            properties: ['add_tags[0]'],
          }),
        ],
      }),
      expect.objectContaining({
        resource: 'std:item',
        response_code: 400,
        error_descriptions: [
          expect.objectContaining({
            error_code: 'LIST_NAME_DOES_NOT_EXIST',
            properties: ['add_lists[0]'],
          }),
        ],
      }),
    ]);
    expect(body['std:person'].given_name).toBe('Cy');
    expect((await h.call('GET', body['std:person']._links.self.href)).status).toBe(200);
    // Triggers are recorded on the person (nothing is sent): a complete call, 200.
    const update = await h.json('POST', HELPER, {
      body: {
        person: { email_addresses: [{ address: 'cy@example.org' }] },
        triggers: { autoresponse: { enabled: true } },
      },
    });
    expect(update.status).toBe(200);
    expect(update.body.triggers).toEqual({ autoresponse: { enabled: true } });
  });

  it('refuses unknown members, a missing person and an invalid person, writing nothing', async () => {
    const h = harness();
    const unknown = await h.json('POST', HELPER, {
      body: { person: { given_name: 'D' }, add_friends: ['x'] },
    });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.body)[0]).toMatchObject({
      error_code: 'UNKNOWN_PROPERTY',
      properties: ['add_friends'],
    });
    const missing = await h.json('POST', HELPER, { body: { given_name: 'D' } });
    expect(missing.status).toBe(400);
    const invalid = await h.json('POST', HELPER, {
      body: { person: { phone_numbers: [{ number: 'abc' }] }, add_tags: ['t'] },
    });
    expect(invalid.status).toBe(400);
    expect(errorOf(invalid.body)[0]?.properties).toEqual(['person.phone_numbers[0].number']);
    expect((await h.json('GET', '/api/v1/people')).body.total_records).toBe(0);
  });

  it('honours return_response false', async () => {
    const h = harness();
    const { status, body } = await h.json('POST', HELPER, {
      body: { person: { given_name: 'E' }, 'std:control': { return_response: false } },
    });
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(['_links', 'identifiers']);
  });
});

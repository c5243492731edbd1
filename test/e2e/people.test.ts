import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Client,
  connect,
  isHTTPError,
  isSchemaValidationError,
  type PersonResource,
  primaryEmail,
} from '../../src/index.js';
import { type TestServer, testServer } from './reference-server.js';

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = testServer(250);
  client = await connect(server.entryPoint, { apiKey: server.keys.write, fetch: server.fetch });
});
afterAll(() => server.close());

describe('SDK against the reference server, in-process', () => {
  it('reads the entry point', () => {
    expect(client.entryPoint).toMatchObject({ max_pagesize: 100, std_version: expect.any(String) });
    expect(client.entryPoint.namespace).toBeTruthy();
    expect(client.root.link('std:people')).toBeDefined();
  });

  it('pages through every person exactly once', async () => {
    const seen = new Set<string>();
    let pages = 0;
    let totalRecords: number | undefined;
    for await (const page of client.people.pages({ readAhead: true })) {
      pages += 1;
      totalRecords = page.totalRecords;
      for (const person of page.items) seen.add(person.url);
    }
    expect(totalRecords).toBe(250);
    expect(seen.size).toBe(250);
    expect(pages).toBe(3);
  });

  it('creates, reads, updates and deletes a person', async () => {
    const created = await client.people.create({
      identifiers: ['crm:e2e-1'],
      given_name: 'Ana',
      family_name: 'Lopez',
      honorific_prefix: 'Dr.',
      email_addresses: [{ address: 'ana.e2e@example.org', primary: true }],
      phone_numbers: [{ number: '12025550123', primary: true, number_type: 'Mobile' }],
    });
    expect(created.data.given_name).toBe('Ana');
    expect(created.identifiers).toContain('crm:e2e-1');
    const namespace = client.entryPoint.namespace;
    expect(created.identifiers.some((id) => id.startsWith(`${namespace}:`))).toBe(true);
    expect(created.data.created_date).toBeTruthy();

    const read = await client.people.get(created.url);
    expect(primaryEmail(read.data)).toBe('ana.e2e@example.org');

    const updated = await read.update({
      family_name: 'Lopez-Garcia',
      honorific_prefix: null,
      email_addresses: [{ address: 'ana.new@example.org', primary: true }],
    });
    expect(updated.data.family_name).toBe('Lopez-Garcia');
    expect(updated.data.given_name).toBe('Ana'); // untouched
    expect(updated.data.honorific_prefix ?? undefined).toBeUndefined(); // cleared
    expect(updated.data.email_addresses?.map((e) => e.address)).toEqual(['ana.new@example.org']);
    expect(updated.data.phone_numbers?.[0]?.number).toBe('12025550123');

    await updated.delete();
    const error = await client.people.get(created.url).catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(404);
  });

  it('follows every link of a person to a collection', async () => {
    const [person] = await client.people.toArray({ limit: 1 });
    if (!person) throw new Error('no person seeded');
    const collections = [
      person.signatures(),
      person.attendances(),
      person.submissions(),
      person.donations(),
      person.outreaches(),
      person.taggings(),
      person.answers(),
      person.items(),
    ];
    for (const collection of collections) {
      expect(await collection.toArray()).toEqual([]);
    }
  });

  it('refuses a misspelt or mistyped member locally, naming the property', async () => {
    const error = await client.people
      // A typo and a wrong type: refused before anything is sent.
      .create({
        given_name: 'Bo',
        phone_numbers: [{ numbr: '12025550100' } as never],
        family_name: 7 as never,
      })
      .catch((e: unknown) => e);
    expect(isSchemaValidationError(error)).toBe(true);
    if (isSchemaValidationError(error)) {
      expect(error.issues.map((issue) => issue.path)).toEqual([
        ['family_name'],
        ['phone_numbers', 0],
      ]);
    }
  });

  it('leaves values to the server: a malformed phone number is its 400, naming the property', async () => {
    // The write side checks names and types; the server owns formats (the round-trip rule).
    const error = await client.people
      .create({ given_name: 'Bo', phone_numbers: [{ number: '555-0100' }] })
      .catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(400);
    if (!isHTTPError(error)) return;
    const descriptions = error.stdError?.resource_status[0]?.error_descriptions ?? [];
    expect(descriptions.flatMap((d) => d.properties)).toContain('phone_numbers[0].number');
  });

  it('decodes the server std:error when local validation is off', async () => {
    const lax = await connect(server.entryPoint, {
      apiKey: server.keys.write,
      fetch: server.fetch,
      validate: false,
    });
    const error = await lax.people
      .create({ given_name: 'Bo', phone_numbers: [{ number: '555-0100' }] })
      .catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(400);
    if (!isHTTPError(error)) return;
    expect(error.stdError?.request_type).toBe('atomic');
    const descriptions = error.stdError?.resource_status[0]?.error_descriptions ?? [];
    expect(descriptions.flatMap((d) => d.properties)).toContain('phone_numbers[0].number');
    expect(error.message).toContain('POST');
  });

  it('honours return_response: false', async () => {
    const url = await client.people.create(
      { given_name: 'Quiet', email_addresses: [{ address: 'quiet@example.org' }] },
      { returnResponse: false },
    );
    expect(typeof url).toBe('string');
    const person = await client.people.get(String(url));
    expect(person.data.given_name).toBe('Quiet');
    expect(await person.update({ family_name: 'Q' }, { returnResponse: false })).toBeUndefined();
    expect((await person.refresh()).data.family_name).toBe('Q');
  });

  it('answers 403 to a write with a read key', async () => {
    const reader = await connect(server.entryPoint, {
      apiKey: server.keys.read,
      fetch: server.fetch,
    });
    const error = await reader.people.create({ given_name: 'No' }).catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(403);
    expect((await reader.people.toArray({ limit: 1 })).length).toBe(1);
  });

  it('keeps tenants apart', async () => {
    const other = await connect(server.entryPoint, {
      apiKey: server.keys.otherTenant,
      fetch: server.fetch,
    });
    expect(await other.people.toArray()).toEqual([]);
    const [person] = await client.people.toArray({ limit: 1 });
    const error = await other.people.get(String(person?.url)).catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(404);
  });
});

describe('SDK against the reference server over real HTTP', () => {
  it('pages through every person on loopback, with and without read-ahead', async () => {
    const running = await server.listen();
    const remote = await connect(running.entryPoint, { apiKey: server.keys.write });
    const count = async (readAhead: boolean) => {
      const urls: string[] = [];
      for await (const person of remote.people.items({ readAhead })) urls.push(person.url);
      return urls;
    };
    const withReadAhead = await count(true);
    const without = await count(false);
    expect(new Set(withReadAhead).size).toBe(withReadAhead.length);
    expect(withReadAhead).toEqual(without);
    expect(withReadAhead.length).toBeGreaterThanOrEqual(250);
    expect(withReadAhead[0]?.startsWith(running.url)).toBe(true);
  });

  it('creates a person over HTTP and finds it in the collection', async () => {
    const running = await server.listen();
    const remote = await connect(running.entryPoint, { apiKey: server.keys.otherTenant });
    const created: PersonResource = await remote.people.create({ given_name: 'Over HTTP' });
    const all = await remote.people.toArray();
    expect(all.map((p) => p.url)).toContain(created.url);
  });
});

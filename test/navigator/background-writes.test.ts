import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  actionNetwork,
  type BackgroundWriteResult,
  connect,
  type personKind,
  type ResourceOf,
  type ServerPreset,
} from '../../src/index.js';
import { recordedMsw } from '../fixtures/recorded-msw.js';

// `background: true` on every write: `?background_request=true` (Action Network's
// spelling, or the connection's `backgroundParameter`) is added to the address (its
// other query parameters kept), and an answer without a record (202, or Action
// Network's 200 {}) is `accepted`, never read as the record nor followed by a GET.

const BASE = 'https://background.example/api/v1';
const { server, requests } = recordedMsw();

function entryPoint(peopleHref = `${BASE}/people`) {
  return http.get(`${BASE}/`, () =>
    HttpResponse.json({
      _links: { self: { href: `${BASE}/` }, 'std:people': { href: peopleHref } },
    }),
  );
}

const ana = {
  given_name: 'Ana',
  _links: { self: { href: `${BASE}/people/1` } },
};

type Person = ResourceOf<typeof personKind>;

describe('Collection.create with background: true', () => {
  it('POSTs to the collection with background_request=true; 202 without a body is accepted', async () => {
    server.use(
      entryPoint(),
      http.post(`${BASE}/people`, () => new HttpResponse(null, { status: 202 })),
    );
    const client = await connect(`${BASE}/`);
    const result = await client.people.create({ given_name: 'Ana' }, { background: true });
    expect(result).toEqual({ accepted: true, status: 202, location: undefined });
    expect(requests.slice(1)).toEqual([`POST ${BASE}/people?background_request=true`]);
  });

  it("keeps the collection href's own query, and reads 200 {} as accepted (no GET of a Location)", async () => {
    server.use(
      entryPoint(`${BASE}/people?source=mail`),
      http.post(`${BASE}/people`, () =>
        HttpResponse.json({}, { status: 200, headers: { Location: `${BASE}/people/9` } }),
      ),
    );
    const client = await connect(`${BASE}/`);
    const result = await client.people.create({ given_name: 'Ana' }, { background: true });
    expect(result).toEqual({ accepted: true, status: 200, location: `${BASE}/people/9` });
    expect(requests.slice(1)).toEqual([`POST ${BASE}/people?source=mail&background_request=true`]);
  });

  it('answers the record when a server ignoring the parameter sends it', async () => {
    server.use(
      entryPoint(),
      http.post(`${BASE}/people`, () => HttpResponse.json(ana, { status: 201 })),
    );
    const client = await connect(`${BASE}/`);
    const result = await client.people.create({ given_name: 'Ana' }, { background: true });
    if (result.accepted) throw new Error('the server sent the record');
    expect(result.status).toBe(201);
    expect(result.record.url).toBe(`${BASE}/people/1`);
    expect(result.record.data.given_name).toBe('Ana');
  });

  it('keeps the common path: no parameter, and the record itself', async () => {
    server.use(
      entryPoint(),
      http.post(`${BASE}/people`, () => HttpResponse.json(ana, { status: 201 })),
    );
    const client = await connect(`${BASE}/`);
    const person = await client.people.create({ given_name: 'Ana' }, { background: false });
    expect(person.url).toBe(`${BASE}/people/1`);
    expect(requests.slice(1)).toEqual([`POST ${BASE}/people`]);
  });

  it('is typed by the option', async () => {
    server.use(
      entryPoint(),
      http.post(`${BASE}/people`, () => HttpResponse.json(ana, { status: 201 })),
    );
    const client = await connect(`${BASE}/`);
    expectTypeOf(client.people.create({}, { background: true })).resolves.toEqualTypeOf<
      BackgroundWriteResult<Person>
    >();
    expectTypeOf(client.people.create({})).resolves.toEqualTypeOf<Person>();
    expectTypeOf(client.people.create({}, { returnResponse: false })).resolves.toEqualTypeOf<
      string | undefined
    >();
    // A flag only known at run time (a wrapper forwarding it): any of the answers.
    const flag: boolean = Math.random() < 2;
    expectTypeOf(client.people.create({}, { background: flag })).resolves.toEqualTypeOf<
      Person | BackgroundWriteResult<Person> | string | undefined
    >();
    await Promise.all([client.people.create({}), client.people.create({}, { background: true })]);
  });
});

describe('Resource.update and delete with background: true', () => {
  async function person(): Promise<Person> {
    server.use(
      entryPoint(),
      http.get(`${BASE}/people/1`, () => HttpResponse.json(ana)),
    );
    const client = await connect(`${BASE}/`);
    return client.people.get(`${BASE}/people/1`);
  }

  it('PUTs to the record with background_request=true; 202 is accepted, nothing read again', async () => {
    const ana = await person();
    server.use(http.put(`${BASE}/people/1`, () => new HttpResponse(null, { status: 202 })));
    const sent = requests.length;
    const result = await ana.update({ family_name: 'Lopez' }, { background: true });
    expect(result).toEqual({ accepted: true, status: 202, location: undefined });
    expect(requests.slice(sent)).toEqual([`PUT ${BASE}/people/1?background_request=true`]);
    expectTypeOf(result).toEqualTypeOf<BackgroundWriteResult<Person>>();
  });

  it('answers the record when the server sends it', async () => {
    const ana = await person();
    server.use(
      http.put(`${BASE}/people/1`, () =>
        HttpResponse.json({ ...ana.document.body, family_name: 'Lopez' }),
      ),
    );
    const result = await ana.update({ family_name: 'Lopez' }, { background: true });
    expect(result.accepted).toBe(false);
    expect(!result.accepted && result.record.data.family_name).toBe('Lopez');
  });

  it("reads Action Network's 200 {} to a PUT as accepted, not as an empty record, nothing read again", async () => {
    const ana = await person();
    server.use(http.put(`${BASE}/people/1`, () => HttpResponse.json({}, { status: 200 })));
    const sent = requests.length;
    const result = await ana.update({ family_name: 'Lopez' }, { background: true });
    expect(result).toEqual({ accepted: true, status: 200, location: undefined });
    expect(requests.slice(sent)).toEqual([`PUT ${BASE}/people/1?background_request=true`]);
  });

  it('DELETEs with background_request=true, and takes 200 {}', async () => {
    const ana = await person();
    server.use(http.delete(`${BASE}/people/1`, () => HttpResponse.json({}, { status: 200 })));
    const sent = requests.length;
    await expect(ana.delete({ background: true })).resolves.toBeUndefined();
    await ana.delete();
    expect(requests.slice(sent)).toEqual([
      `DELETE ${BASE}/people/1?background_request=true`,
      `DELETE ${BASE}/people/1`,
    ]);
  });
});

describe("a preset's backgroundParameter", () => {
  it('is the parameter every write sends, and the default is background_request', async () => {
    server.use(
      entryPoint(),
      http.post(`${BASE}/people`, () => HttpResponse.json({}, { status: 200 })),
      http.get(`${BASE}/people/1`, () => HttpResponse.json(ana)),
      http.put(`${BASE}/people/1`, () => HttpResponse.json({}, { status: 200 })),
      http.delete(`${BASE}/people/1`, () => new HttpResponse(null, { status: 202 })),
    );
    const preset = { backgroundParameter: 'queue_it' } as const satisfies ServerPreset;
    const client = await connect(`${BASE}/`, { ...preset });
    expect(await client.people.create({ given_name: 'Ana' }, { background: true })).toEqual({
      accepted: true,
      status: 200,
      location: undefined,
    });
    const person = await client.people.get(`${BASE}/people/1`);
    await person.update({ family_name: 'Lopez' }, { background: true });
    await person.delete({ background: true });
    expect(requests.slice(1)).toEqual([
      `POST ${BASE}/people?queue_it=true`,
      `GET ${BASE}/people/1`,
      `PUT ${BASE}/people/1?queue_it=true`,
      `DELETE ${BASE}/people/1?queue_it=true`,
    ]);
    // Action Network's preset keeps the default: its documented spelling.
    expect(actionNetwork).not.toHaveProperty('backgroundParameter');
  });
});

import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { parseColumn } from '../../src/export/columns.js';
import { csvFormat } from '../../src/export/formats.js';
import {
  connect,
  isLinkNotFoundError,
  LinkNotFoundError,
  linkTo,
  type Resource,
} from '../../src/index.js';
import { recordedMsw } from '../fixtures/recorded-msw.js';

// A record's `url` is its own address: its `self` link, or the address the server gave
// for it as a whole answer (the URL a GET of it answered, the Location of its create).
// A record embedded without `self` has none, and the calls that need one fail with a
// LinkNotFoundError naming `self`, before any request: never a PUT or a DELETE to the
// collection's URL.

const BASE = 'https://urls.example/api/v1';
const { server, requests } = recordedMsw();

const entryPoint = http.get(`${BASE}/`, () =>
  HttpResponse.json({
    _links: { self: { href: `${BASE}/` }, 'std:people': { href: `${BASE}/people` } },
  }),
);

/** A person as a server without `self` links sends it. */
const selfless = (name: string) => ({
  given_name: name,
  _links: { 'std:signatures': { href: `${BASE}/people/x/signatures` } },
});

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

function expectNoSelf(error: unknown, documentUrl: string): void {
  expect(error).toBeInstanceOf(LinkNotFoundError);
  expect(isLinkNotFoundError(error) && error.rel).toBe('self');
  expect(isLinkNotFoundError(error) && error.url).toBe(documentUrl);
}

describe('a record embedded in a page without a self link', () => {
  async function firstPerson(): Promise<Resource<object>> {
    server.use(
      entryPoint,
      http.get(`${BASE}/people`, () =>
        HttpResponse.json({ _embedded: { 'std:people': [selfless('Ana')] } }),
      ),
      // Any write reaching the collection's URL fails the test.
      http.put(`${BASE}/people`, () => HttpResponse.json({ wrong: true })),
      http.delete(`${BASE}/people`, () => new HttpResponse(null, { status: 204 })),
    );
    const client = await connect(`${BASE}/`);
    const [ana] = await client.people.toArray();
    if (!ana) throw new Error('the page holds Ana');
    return ana;
  }

  it('has no url: LinkNotFoundError naming self, urlOrUndefined undefined', async () => {
    const ana = await firstPerson();
    expect(ana.urlOrUndefined).toBeUndefined();
    let error: unknown;
    try {
      void ana.url;
    } catch (thrown) {
      error = thrown;
    }
    expectNoSelf(error, `${BASE}/people`);
    expect(String(error)).toContain('No link "self"');
    expect(() => linkTo(ana)).toThrow(LinkNotFoundError);
  });

  it('cannot be updated, deleted or read again: no request is sent', async () => {
    const ana = await firstPerson();
    const sent = requests.length;
    expectNoSelf(await rejection(() => ana.update({ given_name: 'Ana M.' })), `${BASE}/people`);
    expectNoSelf(await rejection(() => ana.update({}, { background: true })), `${BASE}/people`);
    expectNoSelf(await rejection(() => ana.delete()), `${BASE}/people`);
    expectNoSelf(await rejection(() => ana.refresh()), `${BASE}/people`);
    expect(requests.slice(sent)).toEqual([]);
  });

  it('still reads its data and follows its links', async () => {
    const ana = await firstPerson();
    expect((ana.data as { given_name?: string }).given_name).toBe('Ana');
    expect(ana.link('std:signatures')?.url()).toBe(`${BASE}/people/x/signatures`);
  });

  it('is exported with an empty url cell', () => {
    const csv = csvFormat([parseColumn('url'), parseColumn('given_name')]);
    expect(csv.encode({ url: undefined, body: { given_name: 'Ana' } })).toBe(',Ana\r\n');
  });
});

describe('a record whose address the server gave', () => {
  it('read by GET at its address: that address, where update and delete go', async () => {
    const written: string[] = [];
    server.use(
      entryPoint,
      http.get(`${BASE}/people/1`, () => HttpResponse.json(selfless('Ana'))),
      http.put(`${BASE}/people/1`, async ({ request }) => {
        written.push(`PUT ${request.url}`);
        return HttpResponse.json(selfless('Ana M.'));
      }),
      http.delete(`${BASE}/people/1`, ({ request }) => {
        written.push(`DELETE ${request.url}`);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const client = await connect(`${BASE}/`);
    const ana = await client.people.get(`${BASE}/people/1`);
    expect(ana.url).toBe(`${BASE}/people/1`);
    const updated = await ana.update({ given_name: 'Ana M.' });
    expect(updated.url).toBe(`${BASE}/people/1`);
    expect((await updated.refresh()).url).toBe(`${BASE}/people/1`);
    await updated.delete();
    expect(written).toEqual([`PUT ${BASE}/people/1`, `DELETE ${BASE}/people/1`]);
  });

  it('listed by link in a page: the link it was read through', async () => {
    server.use(
      entryPoint,
      http.get(`${BASE}/people`, () =>
        HttpResponse.json({ _links: { 'std:people': [{ href: `${BASE}/people/2` }] } }),
      ),
      http.get(`${BASE}/people/2`, () => HttpResponse.json(selfless('Bo'))),
    );
    const client = await connect(`${BASE}/`);
    const [bo] = await client.people.toArray();
    expect(bo?.url).toBe(`${BASE}/people/2`);
  });

  it('created: the Location of the answer, else none (never the collection)', async () => {
    let location: string | undefined = `${BASE}/people/3`;
    server.use(
      entryPoint,
      http.post(`${BASE}/people`, () =>
        HttpResponse.json(selfless('Cy'), {
          status: 201,
          headers: location === undefined ? {} : { Location: location },
        }),
      ),
    );
    const client = await connect(`${BASE}/`);
    const cy = await client.people.create({ given_name: 'Cy' });
    expect(cy.url).toBe(`${BASE}/people/3`);
    location = undefined;
    const nowhere = await client.people.create({ given_name: 'Cy' });
    expect(nowhere.urlOrUndefined).toBeUndefined();
    expect(() => nowhere.url).toThrow(LinkNotFoundError);
  });

  it('created without a body: read at its Location, which is its address', async () => {
    server.use(
      entryPoint,
      http.post(
        `${BASE}/people`,
        () => new HttpResponse(null, { status: 201, headers: { Location: '/api/v1/people/4' } }),
      ),
      http.get(`${BASE}/people/4`, () => HttpResponse.json(selfless('Di'))),
    );
    const client = await connect(`${BASE}/`);
    const di = await client.people.create({ given_name: 'Di' });
    expect(di.url).toBe(`${BASE}/people/4`);
  });

  it('a self link wins over the address it was read from', async () => {
    server.use(
      entryPoint,
      http.get(`${BASE}/people/old`, () =>
        HttpResponse.json({ given_name: 'Ed', _links: { self: { href: `${BASE}/people/5` } } }),
      ),
    );
    const client = await connect(`${BASE}/`);
    expect((await client.people.get(`${BASE}/people/old`)).url).toBe(`${BASE}/people/5`);
  });
});

describe('a related record', () => {
  it('fetched through its link has that address; embedded without self has none', async () => {
    server.use(
      http.get(`${BASE}/`, () =>
        HttpResponse.json({
          _links: { self: { href: `${BASE}/` }, 'std:signatures': { href: `${BASE}/signatures` } },
        }),
      ),
      http.get(`${BASE}/signatures/1`, () =>
        HttpResponse.json({
          comments: 'linked',
          _links: {
            self: { href: `${BASE}/signatures/1` },
            'std:person': { href: `${BASE}/people/6` },
          },
        }),
      ),
      http.get(`${BASE}/signatures/2`, () =>
        HttpResponse.json({
          comments: 'embedded',
          _links: { self: { href: `${BASE}/signatures/2` } },
          _embedded: { 'std:person': selfless('Fay') },
        }),
      ),
      http.get(`${BASE}/people/6`, () => HttpResponse.json(selfless('Gus'))),
    );
    const client = await connect(`${BASE}/`);
    const linked = await (await client.signatures.get(`${BASE}/signatures/1`)).person();
    expect(linked.url).toBe(`${BASE}/people/6`);
    const embedded = await (await client.signatures.get(`${BASE}/signatures/2`)).person();
    expect(embedded.urlOrUndefined).toBeUndefined();
    expect(() => embedded.url).toThrow(LinkNotFoundError);
  });
});

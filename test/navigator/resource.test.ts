import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, isLinkNotFoundError } from '../../src/index.js';

const BASE = 'https://api.example.org/api/v1';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** An entry point with the given curie prefix and extra links. */
function entryPoint(prefix = 'std', links: Record<string, unknown> = {}) {
  return http.get(`${BASE}/`, () =>
    HttpResponse.json({
      namespace: 'test',
      _links: {
        self: { href: `${BASE}/` },
        curies: [{ name: prefix, href: 'https://api.example.org/docs/v1/{rel}', templated: true }],
        [`${prefix}:people`]: { href: `${BASE}/people` },
        ...links,
      },
    }),
  );
}

const ana = {
  given_name: 'Ana',
  _links: {
    self: { href: `${BASE}/people/1` },
    'std:signatures': { href: `${BASE}/people/1/signatures` },
  },
  _embedded: {
    'std:signatures': [
      { comments: 'embedded', _links: { self: { href: `${BASE}/signatures/9` } } },
    ],
  },
};

describe('following links', () => {
  it('uses an embedded resource instead of fetching it', async () => {
    server.use(
      entryPoint(),
      http.get(`${BASE}/people/1`, () => HttpResponse.json(ana)),
    );
    const client = await connect(`${BASE}/`);
    const person = await client.people.get(`${BASE}/people/1`);
    // No handler exists for the signature: a fetch would fail the test.
    const signature = await person.follow('std:signatures');
    expect(signature.properties.comments).toBe('embedded');
    expect(signature.url).toBe(`${BASE}/signatures/9`);
  });

  it('expands a templated link of the entry point with variables', async () => {
    let asked = '';
    server.use(
      entryPoint('std', { 'std:search': { href: `${BASE}/search{?q,page}`, templated: true } }),
      http.get(`${BASE}/search`, ({ request }) => {
        asked = request.url;
        return HttpResponse.json({ found: 1 });
      }),
    );
    const client = await connect(`${BASE}/`);
    const result = await client.follow('std:search', { variables: { q: 'ana lopez' } });
    expect(asked).toBe(`${BASE}/search?q=ana%20lopez`);
    expect(result.properties.found).toBe(1);
  });

  it('says which relations exist when one is missing', async () => {
    server.use(entryPoint());
    const client = await connect(`${BASE}/`);
    const error = await client.follow('std:events').catch((e: unknown) => e);
    expect(isLinkNotFoundError(error)).toBe(true);
    if (isLinkNotFoundError(error)) expect(error.available).toContain('std:people');
  });

  it('finds the spec curie by the curiePrefix option among several', async () => {
    server.use(
      http.get(`${BASE}/`, () =>
        HttpResponse.json({
          _links: {
            curies: [
              { name: 'vendor', href: 'https://vendor.example/rels/{rel}', templated: true },
              { name: 'osdi', href: 'https://api.example.org/docs/v1/{rel}', templated: true },
            ],
            'osdi:people': { href: `${BASE}/people` },
          },
        }),
      ),
      http.get(`${BASE}/people`, () => HttpResponse.json({ _embedded: { 'osdi:people': [ana] } })),
    );
    const client = await connect(`${BASE}/`, { curiePrefix: 'osdi' });
    expect((await client.people.toArray()).map((p) => p.data.given_name)).toEqual(['Ana']);
  });
});

describe('writes', () => {
  it('accepts 200 as well as 201 on create', async () => {
    server.use(
      entryPoint(),
      http.post(`${BASE}/people`, async ({ request }) =>
        HttpResponse.json(
          { ...((await request.json()) as object), _links: { self: { href: `${BASE}/people/2` } } },
          { status: 200 },
        ),
      ),
    );
    const client = await connect(`${BASE}/`);
    const created = await client.people.create({ given_name: 'Ben' });
    expect(created.url).toBe(`${BASE}/people/2`);
    expect(created.data.given_name).toBe('Ben');
  });

  it('reads the created resource from Location when the answer has no body', async () => {
    server.use(
      entryPoint(),
      http.post(
        `${BASE}/people`,
        () => new HttpResponse(null, { status: 201, headers: { Location: '/api/v1/people/3' } }),
      ),
      http.get(`${BASE}/people/3`, () =>
        HttpResponse.json({ given_name: 'Cy', _links: { self: { href: `${BASE}/people/3` } } }),
      ),
    );
    const client = await connect(`${BASE}/`);
    expect((await client.people.create({ given_name: 'Cy' })).data.given_name).toBe('Cy');
  });

  it('reads the resource again when an update answers with an empty body', async () => {
    let stored = { given_name: 'Ana', family_name: 'Old' };
    server.use(
      entryPoint(),
      http.get(`${BASE}/people/1`, () =>
        HttpResponse.json({ ...stored, _links: { self: { href: `${BASE}/people/1` } } }),
      ),
      http.put(`${BASE}/people/1`, async ({ request }) => {
        stored = { ...stored, ...((await request.json()) as object) };
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const client = await connect(`${BASE}/`);
    const person = await client.people.get(`${BASE}/people/1`);
    const updated = await person.update({ family_name: 'New' });
    expect(updated.data.family_name).toBe('New');
  });

  it("sends return_response: false under the server's own curie prefix", async () => {
    const bodies: unknown[] = [];
    server.use(
      entryPoint('osdi'),
      http.post(`${BASE}/people`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          { _links: { self: { href: `${BASE}/people/4` } } },
          { status: 201 },
        );
      }),
    );
    const client = await connect(`${BASE}/`);
    const url = await client.people.create({ given_name: 'Di' }, { returnResponse: false });
    expect(url).toBe(`${BASE}/people/4`);
    expect(bodies).toEqual([{ given_name: 'Di', 'osdi:control': { return_response: false } }]);
  });

  it('sends nothing when the input fails the write schema', async () => {
    let posted = 0;
    server.use(
      entryPoint(),
      http.post(`${BASE}/people`, () => {
        posted += 1;
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const client = await connect(`${BASE}/`);
    // A misspelt member and a wrong type are refused; an unknown value ('F') is the
    // server's to judge and would be sent.
    await expect(client.people.create({ gendr: 'F' } as never)).rejects.toThrow(/gendr/);
    await expect(client.people.create({ gender: 1 as never })).rejects.toThrow(/gender/);
    expect(posted).toBe(0);
  });
});

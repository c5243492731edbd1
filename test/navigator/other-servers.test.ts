/**
 * Typed resources against a server that is not ours: the `osdi` prefix instead of
 * `std`, a page size of 25, counts as strings, variant spellings, and 200 on create.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, linkTo } from '../../src/index.js';

const BASE = 'https://osdi.example.net/api/v1';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const curies = [{ name: 'osdi', href: 'https://osdi.example.net/docs/{rel}', templated: true }];

const petition = {
  title: 'Save the park',
  total_signatures: '2', // a count sent as a string
  vendor_campaign_code: 'P-17', // a member the SDK does not know: kept
  _links: {
    self: { href: `${BASE}/petitions/7` },
    'osdi:signatures': { href: `${BASE}/petitions/7/signatures` },
  },
};

const signature = (id: number, comments: string) => ({
  comments,
  _links: {
    self: { href: `${BASE}/signatures/${id}` },
    'osdi:person': { href: `${BASE}/people/${id}` },
    'osdi:petition': { href: `${BASE}/petitions/7` },
  },
});

function osdiServer(onCreate: (body: unknown) => void) {
  return [
    http.get(`${BASE}/`, () =>
      HttpResponse.json({
        _links: {
          self: { href: `${BASE}/` },
          curies,
          'osdi:people': { href: `${BASE}/people` },
          'osdi:petitions': { href: `${BASE}/petitions` },
        },
      }),
    ),
    http.get(`${BASE}/petitions`, () =>
      HttpResponse.json({ _links: { curies }, _embedded: { 'osdi:petitions': [petition] } }),
    ),
    http.get(`${BASE}/petitions/7`, () =>
      HttpResponse.json({ ...petition, _links: { ...petition._links, curies } }),
    ),
    http.get(`${BASE}/petitions/7/signatures`, ({ request }) =>
      new URL(request.url).searchParams.get('page') === '2'
        ? HttpResponse.json({
            page: '2',
            _links: { curies },
            _embedded: { 'osdi:signatures': [signature(2, 'second')] },
          })
        : HttpResponse.json({
            page: 1,
            per_page: 25,
            _links: { curies, next: { href: `${BASE}/petitions/7/signatures?page=2` } },
            _embedded: { 'osdi:signatures': [signature(1, 'first')] },
          }),
    ),
    http.get(`${BASE}/people/:id`, ({ params }) =>
      HttpResponse.json({
        given_name: `Person ${String(params.id)}`,
        gender_pronouns: { possessive: 'Hers' }, // the corrected spelling
        _links: { self: { href: `${BASE}/people/${String(params.id)}` } },
      }),
    ),
    http.post(`${BASE}/petitions/7/signatures`, async ({ request }) => {
      onCreate(await request.json());
      // This server answers a create with 200, as the spec's samples show.
      return HttpResponse.json(signature(3, 'new'), { status: 200 });
    }),
  ];
}

describe('a server with another prefix', () => {
  it('reads typed records, follows typed relations and pages sub-collections', async () => {
    server.use(...osdiServer(() => undefined));
    const client = await connect(`${BASE}/`);
    const [first] = await client.petitions.toArray();
    expect(first?.data.total_signatures).toBe(2);
    // A plain member the spec does not name is kept in `data` (so it is written back), but
    // is not in the type: typed, it would let a typo such as `data.titel` compile.
    expect((first?.data as Record<string, unknown> | undefined)?.vendor_campaign_code).toBe('P-17');
    const signatures = await first?.signatures().toArray();
    expect(signatures?.map((s) => s.data.comments)).toEqual(['first', 'second']);
    const signer = await signatures?.[1]?.person();
    expect(signer?.data.given_name).toBe('Person 2');
    expect(signer?.data.gender_pronouns?.posessive).toBe('Hers');
  });

  it("sends links under the server's prefix and accepts 200 on create", async () => {
    let sent: unknown;
    server.use(...osdiServer((body) => (sent = body)));
    const client = await connect(`${BASE}/`);
    const [first] = await client.petitions.toArray();
    const person = await client.people.get(`${BASE}/people/5`);
    const created = await first
      ?.signatures()
      .create(
        { comments: 'new', _links: { 'std:person': linkTo(person) } },
        { returnResponse: false },
      );
    expect(sent).toEqual({
      comments: 'new',
      _links: { 'osdi:person': { href: `${BASE}/people/5` } },
      'osdi:control': { return_response: false },
    });
    expect(created).toBe(`${BASE}/signatures/3`);
    const full = await first?.signatures().create({ comments: 'new' });
    expect(full?.url).toBe(`${BASE}/signatures/3`);
    expect((await full?.petition())?.data.title).toBe('Save the park');
  });
});

/**
 * A server whose `osdi` curie has no usable href (none, an empty one, or one without the
 * `{rel}` token), as third-party fixtures of Action Network's API carry them: with a
 * preset that names `osdi` as the specification's prefix, every collection is found
 * under it and no two relations are taken for one; without one, the missing collection
 * is a LinkNotFoundError that names the curie and what is wrong with it. The server, its
 * people and its petitions are invented for these tests.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { actionNetwork, connect, isLinkNotFoundError, LinkNotFoundError } from '../../src/index.js';

const BASE = 'https://organize.example.coop/api/v2';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The `osdi` curie each case sends, and what the error must say is wrong with it. */
const CASES = [
  { what: 'no href', osdi: { name: 'osdi', templated: true }, problem: 'has no href' },
  { what: 'an empty href', osdi: { name: 'osdi', href: '' }, problem: 'has an empty href' },
  {
    what: 'an href without {rel}',
    osdi: { name: 'osdi', href: 'https://organize.example.coop/docs/v2/', templated: true },
    problem: 'has no {rel} in its href',
  },
] as const;

/** A server that writes `curies` (its broken `osdi` first) on every top-level document. */
function coopServer(osdi: object) {
  const curies = [
    osdi,
    {
      name: 'action_network',
      href: 'https://organize.example.coop/docs/v2/{rel}',
      templated: true,
    },
  ];
  const person = (id: string, given: string) => ({
    identifiers: [`action_network:${id}`],
    given_name: given,
    _links: { self: { href: `${BASE}/people/${id}` } },
  });
  return [
    http.get(`${BASE}/`, () =>
      HttpResponse.json({
        motd: 'Welcome to the co-op organizing API',
        _links: {
          self: { href: `${BASE}/` },
          curies,
          'osdi:people': { href: `${BASE}/people` },
          'osdi:petitions': { href: `${BASE}/petitions` },
        },
      }),
    ),
    http.get(`${BASE}/people`, () =>
      HttpResponse.json({
        per_page: 25,
        page: 1,
        _links: { self: { href: `${BASE}/people` }, curies },
        _embedded: { 'osdi:people': [person('p-1', 'Oona'), person('p-2', 'Teodor')] },
      }),
    ),
    http.get(`${BASE}/petitions`, () =>
      HttpResponse.json({
        total_records: 1,
        per_page: 25,
        page: 1,
        _links: { self: { href: `${BASE}/petitions` }, curies },
        _embedded: {
          'osdi:petitions': [
            {
              identifiers: ['action_network:q-9'],
              title: 'Repair the tool library roof',
              _links: {
                self: { href: `${BASE}/petitions/q-9` },
                'osdi:signatures': { href: `${BASE}/petitions/q-9/signatures` },
              },
            },
          ],
        },
      }),
    ),
  ];
}

describe.each(CASES)('an osdi curie with $what', ({ osdi, problem }) => {
  it('is read at its name under a preset that names osdi: every collection is found', async () => {
    server.use(...coopServer(osdi));
    const client = await connect(`${BASE}/`, actionNetwork);
    const people = await client.people.toArray();
    expect(people.map((one) => one.data.given_name)).toEqual(['Oona', 'Teodor']);
    // Each relation is its own: petitions are not taken for people.
    const petitions = await client.petitions.toArray();
    expect(petitions.map((one) => one.data.title)).toEqual(['Repair the tool library roof']);
    expect(petitions[0]?.link('std:signatures')?.url()).toBe(`${BASE}/petitions/q-9/signatures`);
  });

  it('without a preset, the missing collection says what is wrong with the curie', async () => {
    server.use(...coopServer(osdi));
    const client = await connect(`${BASE}/`);
    const error = await client.people.toArray().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isLinkNotFoundError(error)).toBe(true);
    const notFound = error as LinkNotFoundError;
    expect(notFound).toBeInstanceOf(LinkNotFoundError);
    expect(notFound.rel).toBe('std:people');
    expect(notFound.curieProblems).toEqual([{ name: 'osdi', index: 0, problem }]);
    expect(notFound.message).toContain(`the curie "osdi" (curies[0]) ${problem}`);
    // And what to do about it.
    expect(notFound.message).toContain("curiePrefix: 'osdi' reads it as std:");
  });
});

it('a sound curie is unchanged: no problems, and a missing collection says only that', async () => {
  server.use(
    ...coopServer({
      name: 'osdi',
      href: 'https://organize.example.coop/docs/v2/{rel}',
      templated: true,
    }),
  );
  const client = await connect(`${BASE}/`);
  expect((await client.people.toArray()).length).toBe(2);
  const error = await client.events.toArray().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isLinkNotFoundError(error)).toBe(true);
  expect((error as LinkNotFoundError).curieProblems).toEqual([]);
  expect((error as LinkNotFoundError).message).not.toContain('curie');
});

/**
 * What Action Network's API v2 documents for every call (`docs/v2/` general principles
 * and `docs/v2/aep`): the entry point at `/api/v2/`, the key in `OSDI-API-Token`, the
 * `osdi` and `action_network` curies, pages of 25 by `page`/`per_page`, OData filters,
 * `background_request` on the writes it lists, 4 calls a second per key, and errors,
 * against the reference server with its Action Network preset. Data invented for the
 * tests.
 */
import { describe, expect, it, vi } from 'vitest';
import { backgroundIdle } from '../../src/http/background.js';
import {
  API,
  actionNetworkServer,
  expectCuries,
  expectPage,
  nativeId,
  personHash,
  READ_KEY,
  read,
  written,
} from './an-server.js';

describe('the API entry point (docs/v2/aep)', () => {
  it('GET /api/v2/ answers its fields and links every collection', async () => {
    const an = actionNetworkServer();
    const aep = read(await an.get(''));
    expect(aep).toMatchObject({
      vendor_name: 'Action Network',
      product_name: 'Action Network',
      osdi_version: '1.1.1',
      namespace: 'action_network',
      max_page_size: 25,
    });
    expect(aep.motd).toEqual(expect.any(String));
    expect(aep._links.self.href).toBe(`${API}/`);
    expectCuries(aep);
    for (const plural of [
      'people',
      'petitions',
      'events',
      'forms',
      'fundraising_pages',
      'advocacy_campaigns',
      'tags',
      'lists',
      'messages',
    ]) {
      expect(aep._links[`osdi:${plural}`]?.href, plural).toBe(`${API}/${plural}`);
    }
    for (const plural of ['event_campaigns', 'campaigns', 'unique_id_lists']) {
      expect(aep._links[`action_network:${plural}`]?.href, plural).toBe(`${API}/${plural}`);
    }
    // The person signup helper is POST to the people collection.
    expect(aep._links['osdi:person_signup_helper'].href).toBe(`${API}/people`);
  });

  it('POST, PUT and DELETE on the entry point are refused with an osdi:error', async () => {
    const an = actionNetworkServer();
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await an.call(method, '', method === 'DELETE' ? undefined : {});
      expect(answer.status, method).toBeGreaterThanOrEqual(400);
      expect(answer.status, method).toBeLessThan(500);
      expect(answer.body, method).toHaveProperty('osdi:error');
    }
  });
});

describe('authentication: the API key in OSDI-API-Token', () => {
  it('refuses a call without a key, or with the key in another header', async () => {
    const an = actionNetworkServer();
    const without = await an.get('petitions', { key: null });
    expect(without.status).toBe(401);
    expect(without.body).toHaveProperty('osdi:error');
    const elsewhere = await an.get('petitions', {
      key: null,
      headers: { 'STD-API-Token': 'an-write-key-0001' },
    });
    expect(elsewhere.status).toBe(401);
  });

  it('a read-only key reads but does not write', async () => {
    const an = actionNetworkServer();
    expect((await an.get('petitions', { key: READ_KEY })).status).toBe(200);
    const refused = await an.post('petitions', { title: 'Nope' }, { key: READ_KEY });
    expect(refused.status).toBe(403);
    expect(refused.body).toHaveProperty('osdi:error');
  });
});

describe('paging and navigation: page and per_page, 25 at most', () => {
  it('pages petitions by page number with totals and next/previous links', async () => {
    const an = actionNetworkServer();
    for (let index = 1; index <= 27; index++) {
      written(await an.post('petitions', { title: `Petition number ${index}` }));
    }
    const first = read(await an.get('petitions'));
    expect(first).toMatchObject({ page: 1, per_page: 25, total_records: 27, total_pages: 2 });
    expect(expectPage(first, 'osdi:petitions', { totals: true })).toHaveLength(25);
    expect(first._links.next.href).toMatch(/[?&]page=2\b/);
    const second = read(await an.get(first._links.next.href));
    expect(second).toMatchObject({ page: 2, per_page: 25 });
    expect(expectPage(second, 'osdi:petitions', { totals: true })).toHaveLength(2);
    expect(second._links.previous.href).toMatch(/[?&]page=1\b|petitions$/);
    const small = read(await an.get('petitions?page=3&per_page=5'));
    expect(small).toMatchObject({ page: 3, per_page: 5, total_pages: 6 });
    expect(expectPage(small, 'osdi:petitions', { totals: true })).toHaveLength(5);
    const capped = read(await an.get('petitions?per_page=100'));
    expect(capped.per_page).toBe(25);
    expect(expectPage(capped, 'osdi:petitions', { totals: true })).toHaveLength(25);
  });

  it('pages people without totals, with a next link while records may follow', async () => {
    const an = actionNetworkServer({ seedPeople: 30 });
    const first = read(await an.get('people'));
    expect(expectPage(first, 'osdi:people', { totals: false })).toHaveLength(25);
    expect(first._links.next.href).toMatch(/[?&]page=2\b/);
    const second = read(await an.get('people?page=2'));
    expect(expectPage(second, 'osdi:people', { totals: false })).toHaveLength(5);
    const seen = new Set(
      [...first._embedded['osdi:people'], ...second._embedded['osdi:people']].map(nativeId),
    );
    expect(seen.size).toBe(30);
    // The changelog of 2 September 2016: a page that holds records links a next page,
    // the last one included; the page after it holds none and links none.
    const beyond = read(await an.get(second._links.next.href));
    expect(expectPage(beyond, 'osdi:people', { totals: false })).toHaveLength(0);
    expect(beyond._links.next).toBeUndefined();
  });
});

describe('searching and filtering (OData)', () => {
  it("filters people by email_address eq '…' and by modified_date", async () => {
    const an = actionNetworkServer({ seedPeople: 5 });
    const person = written(
      await an.post('people', { person: personHash('Lea', 'Berg', 'lea.berg@alder.example.org') }),
    );
    const filter = encodeURIComponent("email_address eq 'lea.berg@alder.example.org'");
    const found = expectPage(read(await an.get(`people?filter=${filter}`)), 'osdi:people', {
      totals: false,
    });
    expect(found.map(nativeId)).toEqual([nativeId(person)]);
    const since = async (op: string, date: string) => {
      const query = encodeURIComponent(`modified_date ${op} '${date}'`);
      const page = read(await an.get(`people?filter=${query}`));
      return expectPage(page, 'osdi:people', { totals: false }).map(nativeId);
    };
    // Written to the second, compared at the millisecond stored: the date read names its
    // second's first millisecond, so `ge` it finds Lea whatever her milliseconds (and
    // anyone modified in that second); from the next second on, nobody.
    expect(person.modified_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await since('ge', person.modified_date)).toContain(nativeId(person));
    const next = new Date(Date.parse(person.modified_date) + 1000).toISOString();
    expect(await since('ge', next)).toEqual([]);
  });
});

// Every listed operation, and the foreground elsewhere, in background-request.test.ts.
describe('background processing: ?background_request=true on the operations docs/v2/ lists', () => {
  it('a signature POST, its PUT and a tagging DELETE are answered 200 {} and done right after', async () => {
    const an = actionNetworkServer();
    const petition = written(await an.post('petitions', { title: 'Queued signatures' }));
    const petitionId = nativeId(petition);
    const person = written(
      await an.post('people', { person: personHash('Ola', 'Dahl', 'ola.dahl@alder.example.org') }),
    );
    const accepted = await an.post(`petitions/${petitionId}/signatures?background_request=true`, {
      identifiers: ['crm:bg-1'],
      _links: { 'osdi:person': { href: `${API}/people/${nativeId(person)}` } },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    await backgroundIdle(an.storage);
    const signatures = `petitions/${petitionId}/signatures`;
    const [queued] = read(await an.get(signatures))._embedded['osdi:signatures'];
    expect(queued.identifiers).toContain('crm:bg-1');
    const id = nativeId(queued);

    const put = await an.put(`${signatures}/${id}?background_request=true`, {
      comments: 'Later',
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({});
    await backgroundIdle(an.storage);
    expect(read(await an.get(`${signatures}/${id}`)).comments).toBe('Later');

    const tag = written(await an.post('tags', { name: 'queued' }));
    const tagging = written(
      await an.post(`tags/${nativeId(tag)}/taggings`, {
        _links: { 'osdi:person': { href: `${API}/people/${nativeId(person)}` } },
      }),
    );
    const taggingPath = `tags/${nativeId(tag)}/taggings/${nativeId(tagging)}`;
    const removed = await an.delete(`${taggingPath}?background_request=true`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
    await backgroundIdle(an.storage);
    expect((await an.get(taggingPath)).status).toBe(404);
  });

  it('the person signup helper takes it too', async () => {
    const an = actionNetworkServer();
    const accepted = await an.post('people?background_request=true', {
      person: personHash('Ivo', 'Petrov', 'ivo.petrov@alder.example.org'),
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    const filter = encodeURIComponent("email_address eq 'ivo.petrov@alder.example.org'");
    await backgroundIdle(an.storage);
    expect(read(await an.get(`people?filter=${filter}`))._embedded['osdi:people']).toHaveLength(1);
  });

  it('a petition, which the list does not name, is created at once and answered', async () => {
    const an = actionNetworkServer();
    const created = written(await an.post('petitions?background_request=true', { title: 'Now' }));
    expect(read(await an.get(`petitions/${nativeId(created)}`)).title).toBe('Now');
  });
});

describe('rate limit: 4 calls a second per key', () => {
  it('answers the fifth call within a second 429 with Retry-After and an osdi:error', async () => {
    // The limit's clock (performance.now) stands still: the five calls are within one
    // second however slow the machine. Only that clock: timers and I/O stay real.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      // The preset's own rate, not turned off here.
      const an = actionNetworkServer({ app: { keyRateLimit: undefined } });
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof an.get>> | undefined;
      for (let call = 0; call < 5; call++) {
        const answer = await an.get('petitions');
        statuses.push(answer.status);
        if (answer.status === 429) limited = answer;
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      expect(limited?.res.headers.get('Retry-After')).toMatch(/^[1-9]\d*$/);
      expect(limited?.body).toHaveProperty('osdi:error');
      // Another key has its own four.
      expect((await an.get('petitions', { key: READ_KEY })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('errors', () => {
  it('an unknown record is 404 with an osdi:error', async () => {
    const an = actionNetworkServer();
    const answer = await an.get('petitions/6c1f0000-0000-4000-8000-000000000000');
    expect(answer.status).toBe(404);
    expect(answer.body).toHaveProperty('osdi:error');
  });

  it('no error names a std: resource: descriptions speak osdi', async () => {
    const an = actionNetworkServer();
    const petition = written(await an.post('petitions', { title: 'Errors in osdi' }));
    const answers = [
      await an.post(`petitions/${nativeId(petition)}/signatures`, {
        _links: { 'osdi:person': { href: `${API}/people/6c1f0000-0000-4000-8000-000000000000` } },
      }),
      await an.post('events', { title: 'When?', start_date: 'next Tuesday' }),
      await an.put(`petitions/${nativeId(petition)}`, { title: 17 }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.body).toHaveProperty('osdi:error');
      expect(JSON.stringify(answer.body)).not.toContain('std:');
    }
  });
});

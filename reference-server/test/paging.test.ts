import { describe, expect, it } from 'vitest';
import { parsePageRequest, planPage } from '../src/domain/paging.js';
import { seedPeople } from '../src/index.js';
import { errorOf, harness, type Json, ORIGIN } from './helpers.js';

async function seeded(count: number) {
  const h = harness();
  await seedPeople(h.storage, { tenant: 'acme', count, seed: 7 });
  return h;
}

function ids(body: Json): string[] {
  return body._embedded['std:people'].map((p: Json) => p._links.self.href);
}

describe('people collection paging', () => {
  it('reports totals, links and embedded people', async () => {
    const h = await seeded(25);
    const { status, body } = await h.json('GET', '/api/v1/people?per_page=10');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total_pages: 3, per_page: 10, page: 1, total_records: 25 });
    expect(body._links.self.href).toBe(`${ORIGIN}/api/v1/people?page=1&per_page=10`);
    expect(body._links.next.href).toMatch(/[?&]page=2(&|$)/);
    expect(body._links.previous).toBeUndefined();
    expect(body._links.curies[0].name).toBe('std');
    expect(body._links['std:people']).toHaveLength(10);
    expect(body._embedded['std:people']).toHaveLength(10);
    expect(body._links['std:people'].map((l: Json) => l.href)).toEqual(ids(body));
    const person = body._embedded['std:people'][0];
    expect(person.identifiers[0]).toMatch(/^adis:/);
    expect(person._links['std:signatures'].href).toBe(`${person._links.self.href}/signatures`);
  });

  it('previous on later pages; the last page has no next; a page past the end is empty', async () => {
    const h = await seeded(25);
    const second = await h.json('GET', '/api/v1/people?per_page=10&page=2');
    expect(second.body._links.previous.href).toMatch(/[?&]page=1(&|$)/);
    const last = await h.json('GET', '/api/v1/people?per_page=10&page=3');
    expect(last.body._embedded['std:people']).toHaveLength(5);
    expect(last.body._links.next).toBeUndefined();
    expect(last.body._links.previous).toBeDefined();
    const past = await h.json('GET', '/api/v1/people?per_page=10&page=9');
    expect(past.status).toBe(200);
    expect(past.body._embedded['std:people']).toEqual([]);
    expect(past.body._links['std:people']).toEqual([]);
    expect(past.body._links.next).toBeUndefined();
    expect(past.body.total_records).toBe(25);
  });

  it('bare page numbers read from either end give the same records as walking', async () => {
    const h = await seeded(57);
    const walked: string[][] = [];
    let href: string | undefined = '/api/v1/people?per_page=8';
    while (href) {
      const { body }: { body: Json } = await h.json('GET', href);
      walked.push(ids(body));
      href = body._links.next?.href;
    }
    expect(walked).toHaveLength(8);
    for (let page = 1; page <= 8; page++) {
      const { body } = await h.json('GET', `/api/v1/people?per_page=8&page=${page}`);
      expect(ids(body), `page ${page}`).toEqual(walked[page - 1]);
      expect(body._links.next === undefined, `page ${page}`).toBe(page === 8);
    }
    // previous links (before cursor) lead back through the same pages.
    const last = await h.json('GET', '/api/v1/people?per_page=8&page=8');
    const back = await h.json('GET', last.body._links.previous.href);
    expect(back.body.page).toBe(7);
    expect(ids(back.body)).toEqual(walked[6]);
  });

  it('per_page defaults to and is capped at max_pagesize', async () => {
    const h = await seeded(130);
    const plain = await h.json('GET', '/api/v1/people');
    expect(plain.body.per_page).toBe(100);
    expect(plain.body._embedded['std:people']).toHaveLength(100);
    const big = await h.json('GET', '/api/v1/people?per_page=5000');
    expect(big.body.per_page).toBe(100);
    expect(big.body.total_pages).toBe(2);
  });

  it('invalid paging parameters are 400 naming the parameter', async () => {
    const h = await seeded(3);
    for (const [query, param] of [
      ['page=0', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['page=abc', 'page'],
      ['per_page=0', 'per_page'],
      ['per_page=x', 'per_page'],
      ['after=-3', 'after'],
      ['page=99999999999999999999', 'page'],
    ] as const) {
      const { status, body } = await h.json('GET', `/api/v1/people?${query}`);
      expect(status, query).toBe(400);
      expect(errorOf(body)[0]).toMatchObject({
        error_code: 'INVALID_PARAMETER',
        properties: [param],
      });
    }
    expect((await h.call('GET', '/api/v1/people?after=1&before=5')).status).toBe(400);
  });

  it('an empty collection is an empty HAL collection', async () => {
    const h = harness();
    const { status, body } = await h.json('GET', '/api/v1/people');
    expect(status).toBe(200);
    expect(body).toMatchObject({ total_records: 0, total_pages: 0, page: 1, per_page: 100 });
    expect(body._embedded['std:people']).toEqual([]);
    expect(body._links['std:people']).toEqual([]);
    expect(body._links.next).toBeUndefined();
  });

  it('following next never repeats or skips records, even when records are deleted or added mid-walk', async () => {
    const h = await seeded(50);
    const all = ids((await h.json('GET', '/api/v1/people?per_page=100')).body);
    const seen: string[] = [];
    let href: string | undefined = '/api/v1/people?per_page=7';
    let pages = 0;
    const deleted: string[] = [];
    while (href) {
      const { body }: { body: Json } = await h.json('GET', href);
      seen.push(...ids(body));
      pages++;
      if (pages === 2) {
        // Delete one record already seen and one not yet seen; add a new one.
        for (const victim of [all[3], all[30]] as string[]) {
          expect((await h.call('DELETE', victim)).status).toBe(204);
          deleted.push(victim);
        }
        await h.json('POST', '/api/v1/people', { body: { given_name: 'Late' } });
      }
      href = body._links.next?.href;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const expected = all.filter((id) => id !== all[30]);
    expect(seen.slice(0, expected.length)).toEqual(expected);
    // The record added during the walk comes last.
    expect(seen).toHaveLength(expected.length + 1);
    expect(deleted).toHaveLength(2);
  });
});

describe('paging math', () => {
  it('reads deep pages from the end of the index', () => {
    expect(planPage({ page: 1, perPage: 100 }, 1_000_000)).toEqual({
      limit: 100,
      offset: 0,
      empty: false,
    });
    expect(planPage({ page: 10_000, perPage: 100 }, 1_000_000)).toEqual({
      limit: 100,
      offsetFromEnd: 0,
      empty: false,
    });
    expect(planPage({ page: 3, perPage: 10 }, 25)).toEqual({
      limit: 5,
      offsetFromEnd: 0,
      empty: false,
    });
    expect(planPage({ page: 4, perPage: 10 }, 25)).toMatchObject({ empty: true });
    expect(planPage({ page: 9, perPage: 10, after: 5 }, 25)).toEqual({
      limit: 10,
      after: 5,
      empty: false,
    });
  });

  it('parses and caps parameters', () => {
    expect(parsePageRequest({}, 100)).toEqual({ page: 1, perPage: 100 });
    expect(parsePageRequest({ page: '2', per_page: '1000', after: '0' }, 100)).toEqual({
      page: 2,
      perPage: 100,
      after: 0,
    });
  });
});

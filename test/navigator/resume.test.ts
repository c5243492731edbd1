import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, InvalidLinkError, isInvalidLinkError, type Page } from '../../src/index.js';
import { peopleServer } from '../fixtures/people-server.js';

// Page cursors: where a walk goes on, saved by a script after each page it processed
// and given back to fromPage after a crash. test/examples/sync-changes.test.ts kills a
// real process mid-walk against the reference server.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const BASE = 'https://api.example.org/api/v1';

describe('page cursors', () => {
  it("is each page's next page, and undefined on the last", async () => {
    const fixture = peopleServer({ people: 5, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const cursors: (string | undefined)[] = [];
    for await (const page of client.people.pages()) cursors.push(page.cursor);
    expect(cursors).toEqual([`${BASE}/people?page=2`, `${BASE}/people?page=3`, undefined]);
  });

  it('is undefined when next points back at a page already fetched', async () => {
    const fixture = peopleServer({ people: 4, perPage: 2, loopingNext: true });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const pages: Page<unknown>[] = [];
    for await (const page of client.people.pages()) pages.push(page);
    expect(pages.map((page) => [page.next, page.cursor])).toEqual([
      [`${BASE}/people?page=2`, `${BASE}/people?page=2`],
      [`${BASE}/people?page=1`, undefined],
    ]);
  });

  it('ignores limits, so a walk stopped by one goes on later', async () => {
    const fixture = peopleServer({ people: 5, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const cursors: (string | undefined)[] = [];
    for await (const page of client.people.pages({ limit: 1 })) cursors.push(page.cursor);
    expect(cursors).toEqual([`${BASE}/people?page=2`]);
  });
});

describe('fromPage', () => {
  it('resumes after the last page processed; only the page in flight at the stop comes again', async () => {
    const fixture = peopleServer({ people: 7, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const seen: string[] = [];
    let saved: string | undefined;
    // The first run stores two pages, then "crashes".
    for await (const page of client.people.pages({ readAhead: true })) {
      seen.push(...page.items.map((person) => String(person.data.given_name)));
      saved = page.cursor;
      if (page.number === 2) break;
    }
    expect(saved).toBe(`${BASE}/people?page=3`);
    // The second run starts from the saved cursor.
    for await (const page of client.people.fromPage(String(saved)).pages({ readAhead: true })) {
      seen.push(...page.items.map((person) => String(person.data.given_name)));
      saved = page.cursor;
    }
    expect(saved).toBeUndefined();
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `Person ${i + 1}`));
    const pageRequests = fixture.recorded.urls.filter((url) => url.includes('/people'));
    // Read-ahead asked for page 3 before the break; the resumed walk asks again (the
    // answer in flight at a crash is lost), and for no other page twice.
    expect(pageRequests).toEqual([
      `${BASE}/people`,
      `${BASE}/people?page=2`,
      `${BASE}/people?page=3`,
      `${BASE}/people?page=3`,
      `${BASE}/people?page=4`,
    ]);
  });

  it('a resumed walk ends where the next link loops back to page 1, as an unbroken walk does', async () => {
    const fixture = peopleServer({ people: 10, perPage: 2, loopingNext: true });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const seen: string[] = [];
    let saved: string | undefined;
    for await (const page of client.people.pages()) {
      seen.push(...page.items.map((person) => String(person.data.given_name)));
      saved = page.cursor;
      if (page.number === 2) break;
    }
    for await (const page of client.people.fromPage(String(saved)).pages()) {
      seen.push(...page.items.map((person) => String(person.data.given_name)));
      saved = page.cursor;
    }
    // Every person once: the loop back to page 1 is fetched, seen to be numbered below
    // the walk's first page, and ends the walk.
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => `Person ${i + 1}`));
    // The last page's cursor is still the looping link (only fetching it tells): a
    // script records that the walk ended, as examples/sync-changes.ts does.
    expect(saved).toBe(`${BASE}/people?page=1`);
  });

  it('a resumed walk ends where next points back at the collection, pages unnumbered', async () => {
    const people = (from: number) => [from, from + 1].map((n) => ({ given_name: `P${n}` }));
    const page = (n: number, next: string) => ({
      _links: { self: { href: `${BASE}/people${n === 1 ? '' : `?p=${n}`}` }, next: { href: next } },
      _embedded: { 'std:people': people(2 * n - 1) },
    });
    server.use(
      http.get(`${BASE}/`, () =>
        HttpResponse.json({ _links: { 'std:people': { href: `${BASE}/people` } } }),
      ),
      http.get(`${BASE}/people`, ({ request }) => {
        const n = Number(new URL(request.url).searchParams.get('p') ?? '1');
        // The last page's next is the collection itself.
        return HttpResponse.json(page(n, n < 3 ? `${BASE}/people?p=${n + 1}` : `${BASE}/people`));
      }),
    );
    const client = await connect(`${BASE}/`);
    const resumed = await client.people.fromPage(`${BASE}/people?p=2`).toArray();
    expect(resumed.map((person) => person.data.given_name)).toEqual(['P3', 'P4', 'P5', 'P6']);
  });

  it('without read-ahead fetches each page exactly once across a crash', async () => {
    const fixture = peopleServer({ people: 5, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    let saved: string | undefined;
    for await (const page of client.people.pages()) {
      saved = page.cursor;
      break;
    }
    await client.people.fromPage(String(saved)).toArray();
    const pageRequests = fixture.recorded.urls.filter((url) => url.includes('/people'));
    expect(pageRequests).toEqual([
      `${BASE}/people`,
      `${BASE}/people?page=2`,
      `${BASE}/people?page=3`,
    ]);
  });

  it.each([
    ['on another server', 'https://elsewhere.example/api/v1/people?page=2', /not on the server/],
    ['not an http(s) URL', 'file:///etc/passwd', /not an http\(s\) URL/],
    ['not a URL', '{"cursor": null}', /not a URL/],
  ])(
    'refuses a cursor %s with an InvalidLinkError, before any request to it',
    async (_, cursor, reason) => {
      const fixture = peopleServer({ people: 3 });
      const foreign: string[] = [];
      server.use(
        ...fixture.handlers,
        http.get('https://elsewhere.example/*', ({ request }) => {
          foreign.push(request.url);
          return HttpResponse.json({});
        }),
      );
      const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
      const error = await client.people
        .fromPage(cursor)
        .toArray()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidLinkError);
      if (!isInvalidLinkError(error)) return;
      expect(error.href).toBe(cursor);
      expect(error.rel).toBeUndefined();
      expect(error.reason).toMatch(reason);
      expect(error.message).toContain(JSON.stringify(cursor));
      expect(foreign).toEqual([]);
      expect(fixture.recorded.urls.filter((url) => url.includes('/people'))).toEqual([]);
    },
  );
});

import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { connect, connectWith, isHTTPError, isLinkNotFoundError } from '../../src/index.js';
import { preprocess } from '../../src/schema/fields.js';
import { defineKind, optional } from '../../src/schema/index.js';
import { peopleServer } from '../fixtures/people-server.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function names(iterable: AsyncIterable<{ data: { given_name?: string | null } }>) {
  const all: (string | null | undefined)[] = [];
  for await (const item of iterable) all.push(item.data.given_name);
  return all;
}

/** A person kind whose given_name check calls `probe`: shows when records are checked. */
function probedPersonKind(probe: (name: string) => void) {
  return defineKind({
    singular: 'person',
    plural: 'people',
    description: 'a person, checked with a probe',
    shape: () => ({
      given_name: optional(
        preprocess((value) => {
          probe(String(value));
          return value;
        }, z.string()),
      ),
    }),
  });
}

describe('paging through people', () => {
  it('walks every page in order, with page numbers and totals', async () => {
    const fixture = peopleServer({ people: 5, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    expect(client.entryPoint.motd).toBe('hello');
    const pages = [];
    for await (const page of client.people.pages()) pages.push(page);
    expect(pages.map((p) => [p.number, p.items.length, p.totalPages, p.totalRecords])).toEqual([
      [1, 2, 3, 5],
      [2, 2, 3, 5],
      [3, 1, 3, 5],
    ]);
    expect(await names(client.people)).toEqual([
      'Person 1',
      'Person 2',
      'Person 3',
      'Person 4',
      'Person 5',
    ]);
  });

  it('works with another curie prefix and another key header name', async () => {
    const fixture = peopleServer({ prefix: 'osdi', keyHeader: 'OSDI-API-Token', people: 3 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, {
      apiKey: fixture.key,
      apiKeyHeader: 'OSDI-API-Token',
    });
    expect(await names(client.people)).toEqual(['Person 1', 'Person 2', 'Person 3']);
    expect(fixture.recorded.keys.every((key) => key === fixture.key)).toBe(true);
  });

  it('resolves relations with curies declared only at the entry point', async () => {
    const fixture = peopleServer({ prefix: 'osdi', people: 3, curiesOnlyAtEntryPoint: true });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    expect(await names(client.people)).toHaveLength(3);
  });

  it('pages a collection without totals', async () => {
    const fixture = peopleServer({ people: 3, withoutTotals: true });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const pages = [];
    for await (const page of client.people.pages()) pages.push(page);
    expect(pages.map((p) => p.totalRecords)).toEqual([undefined, undefined]);
    expect(pages.flatMap((p) => p.items)).toHaveLength(3);
  });

  it('stops at the empty page behind a `next` on the last page', async () => {
    const fixture = peopleServer({ people: 4, perPage: 2, nextOnLastPage: true });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    expect(await names(client.people)).toHaveLength(4);
    const pageRequests = fixture.recorded.urls.filter((url) => url.includes('/people?'));
    expect(pageRequests).toEqual([
      'https://api.example.org/api/v1/people?page=2',
      'https://api.example.org/api/v1/people?page=3',
    ]);
  });

  it('stops when `next` points at a page already fetched, fetching no page twice', async () => {
    const fixture = peopleServer({ people: 4, perPage: 2, loopingNext: true });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    expect(await names(client.people)).toHaveLength(4);
    const pageUrls = fixture.recorded.urls.filter((url) => url.includes('/people'));
    expect(new Set(pageUrls).size).toBe(pageUrls.length);
  });

  it('fetches linked records when a page embeds none', async () => {
    const fixture = peopleServer({ people: 3, linksOnly: true });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    expect(await names(client.people)).toEqual(['Person 1', 'Person 2', 'Person 3']);
    expect(fixture.recorded.urls.filter((url) => /\/people\/\d+$/.test(url))).toHaveLength(3);
  });

  it('stops fetching on an early break and honours a limit', async () => {
    const fixture = peopleServer({ people: 10, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    for await (const person of client.people) {
      expect(person.data.given_name).toBe('Person 1');
      break;
    }
    expect(fixture.recorded.urls.filter((url) => url.includes('/people'))).toHaveLength(1);
    fixture.recorded.urls.length = 0;
    const firstThree = await client.people.toArray({ limit: 3 });
    expect(firstThree.map((p) => p.data.given_name)).toEqual(['Person 1', 'Person 2', 'Person 3']);
    // Three records need two pages of two; a third page must not be fetched.
    expect(fixture.recorded.urls.filter((url) => url.includes('/people'))).toHaveLength(2);
  });

  it('reads ahead one page while the caller works, and no further', async () => {
    const fixture = peopleServer({ people: 10, perPage: 2 });
    server.use(...fixture.handlers);
    // Requests as they leave the SDK, and when each has settled (answered, or cancelled
    // by the walk's end): the test waits for these events instead of a time.
    const sent: string[] = [];
    const settled = new Map<string, () => void>();
    const settling = (url: string) =>
      new Promise<void>((resolve) => {
        settled.set(url, resolve);
      });
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      sent.push(url);
      try {
        return await globalThis.fetch(input, init);
      } finally {
        settled.get(url)?.();
      }
    };
    const page = (n: number) =>
      `https://api.example.org/api/v1/people${n === 1 ? '' : `?page=${n}`}`;
    const pageUrls = () => sent.filter((url) => url.includes('/people'));
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key, fetch });
    const iterator = client.people.pages({ readAhead: true });
    const secondSettled = settling(page(2));
    const first = await iterator.next();
    expect(first.value?.number).toBe(1);
    // Page 2 is read ahead while "the caller works"; once it is in, a walk reading
    // further ahead would ask for page 3 at once: give it a moment to, then check.
    await secondSettled;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pageUrls()).toEqual([page(1), page(2)]);
    const thirdSettled = settling(page(3));
    const second = await iterator.next();
    expect(second.value?.number).toBe(2);
    await iterator.return(undefined);
    // Page 3 was read ahead (asked for before page 2 was handed over), page 4 never:
    // the walk has ended, so nothing can ask for it, whatever the wait.
    expect(pageUrls()).toEqual([page(1), page(2), page(3)]);
    await thirdSettled;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pageUrls()).toHaveLength(3);
  });

  it('with read-ahead asks for the next page before checking this one', async () => {
    const fixture = peopleServer({ people: 4, perPage: 2 });
    server.use(...fixture.handlers);
    // Requests as they leave the SDK (the fixture records them only when they arrive).
    const sent: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      sent.push(input instanceof Request ? input.url : String(input));
      return globalThis.fetch(input, init);
    };
    const pageUrls = () => sent.filter((url) => url.includes('/people'));
    // A person kind whose given_name check notes how many pages were asked for by then.
    const seen: string[] = [];
    const person = probedPersonKind((name) =>
      seen.push(`${name} after ${pageUrls().length} page requests`),
    );
    const client = await connectWith([person], fixture.entryPoint, { apiKey: fixture.key, fetch });
    const iterator = client.people.pages({ readAhead: true });
    await iterator.next();
    expect(seen).toEqual(['Person 1 after 2 page requests', 'Person 2 after 2 page requests']);
    await iterator.return(undefined);
  });

  it('with read-ahead asks for the next page once its link has arrived, before the page ends', async () => {
    const fixture = peopleServer({ people: 3 });
    const base = 'https://api.example.org/api/v1';
    const events: string[] = [];
    let pageTwoAsked: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      pageTwoAsked = resolve;
    });
    const person = (n: number) => ({
      given_name: `Person ${n}`,
      _links: { self: { href: `${base}/people/${n}` } },
    });
    server.use(...fixture.handlers);
    server.use(
      http.get(`${base}/people`, ({ request }) => {
        if (new URL(request.url).searchParams.get('page') === '2') {
          events.push('page 2 asked');
          pageTwoAsked();
          return HttpResponse.json({ _embedded: { 'std:people': [person(3)] } });
        }
        // Page 1 sends its links first, and the rest only once page 2 is asked for (or
        // after 20 s, so that a client that waits for the whole body still ends, and
        // fails the test: a bound on a hang that no loaded machine comes near).
        const head = JSON.stringify({ _links: { next: { href: `${base}/people?page=2` } } });
        const rest = JSON.stringify({ 'std:people': [person(1), person(2)] });
        const body = new ReadableStream<Uint8Array>({
          async start(stream) {
            const encoder = new TextEncoder();
            stream.enqueue(encoder.encode(`${head.slice(0, -1)},"_embedded":`));
            let fallback: ReturnType<typeof setTimeout> | undefined;
            await Promise.race([
              gate,
              new Promise((resolve) => {
                fallback = setTimeout(resolve, 20_000);
              }),
            ]);
            clearTimeout(fallback);
            events.push('page 1 ended');
            stream.enqueue(encoder.encode(`${rest}}`));
            stream.close();
          },
        });
        return new HttpResponse(body, { headers: { 'content-type': 'application/hal+json' } });
      }),
    );
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    expect(await names(client.people.items({ readAhead: true }))).toEqual([
      'Person 1',
      'Person 2',
      'Person 3',
    ]);
    expect(events).toEqual(['page 2 asked', 'page 1 ended']);
    events.length = 0;
    expect(await names(client.people)).toHaveLength(3);
    expect(events).toEqual(['page 1 ended', 'page 2 asked']);
  });

  it("with validation off reads a record's fields only when data is first asked for", async () => {
    const fixture = peopleServer({ people: 2, perPage: 2 });
    server.use(...fixture.handlers);
    const checked: string[] = [];
    const person = probedPersonKind((name) => checked.push(name));
    const lazy = await connectWith([person], fixture.entryPoint, {
      apiKey: fixture.key,
      validate: false,
    });
    const [first, second] = await lazy.people.toArray();
    expect(first?.url).toBe('https://api.example.org/api/v1/people/1');
    expect(checked).toEqual([]);
    expect(second?.data.given_name).toBe('Person 2');
    expect(checked).toEqual(['Person 2']);
    // With validation on, every record is checked where it is read.
    const eager = await connectWith([person], fixture.entryPoint, { apiKey: fixture.key });
    await eager.people.toArray();
    expect(checked).toEqual(['Person 2', 'Person 1', 'Person 2']);
  });

  it('without read-ahead fetches a page only when asked', async () => {
    const fixture = peopleServer({ people: 10, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const iterator = client.people.pages();
    await iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fixture.recorded.urls.filter((url) => url.includes('/people'))).toHaveLength(1);
    await iterator.return(undefined);
  });

  it('cancels paging with an AbortSignal', async () => {
    const fixture = peopleServer({ people: 10, perPage: 2 });
    server.use(...fixture.handlers);
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(async () => {
      for await (const person of client.people.items({ signal: controller.signal })) {
        seen.push(String(person.data.given_name));
        if (seen.length === 3) controller.abort(new Error('enough'));
      }
    }).rejects.toThrow('enough');
    expect(seen).toHaveLength(3);
  });

  it('reads an empty collection sent as {}', async () => {
    const base = 'https://empty.example/api/v1';
    server.use(
      http.get(`${base}/`, () =>
        HttpResponse.json({
          _links: { self: { href: `${base}/` }, 'std:people': { href: `${base}/people` } },
        }),
      ),
      http.get(`${base}/people`, () => HttpResponse.json({})),
    );
    const client = await connect(`${base}/`);
    expect(await client.people.toArray()).toEqual([]);
  });
});

describe('connecting', () => {
  it('reports an entry point without the relation asked for', async () => {
    const base = 'https://bare.example/api/v1';
    server.use(
      http.get(`${base}/`, () =>
        HttpResponse.json({
          _links: { self: { href: `${base}/` }, 'std:petitions': { href: `${base}/petitions` } },
        }),
      ),
    );
    const client = await connect(`${base}/`);
    const error = await client.people.toArray().catch((e: unknown) => e);
    expect(isLinkNotFoundError(error)).toBe(true);
    expect(String(error)).toContain('std:people');
  });

  it('rejects a document that is not an entry point', async () => {
    const base = 'https://notapi.example';
    server.use(http.get(`${base}/`, () => HttpResponse.json({ hello: 'world' })));
    await expect(connect(`${base}/`)).rejects.toThrow(/entry point/);
  });

  it('rejects a wrong key with an HTTPError that says method, URL and status', async () => {
    const fixture = peopleServer();
    server.use(...fixture.handlers);
    const error = await connect(fixture.entryPoint, { apiKey: 'wrong' }).catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(401);
    expect(String(error)).toContain(`GET ${fixture.entryPoint}`);
  });

  it('never sends the key to another origin a link points at', async () => {
    const fixture = peopleServer({ people: 0 });
    const seenElsewhere: (string | null)[] = [];
    server.use(
      ...fixture.handlers,
      http.get('https://evil.example/people/1', ({ request }) => {
        seenElsewhere.push(request.headers.get('STD-API-Token'));
        return HttpResponse.json({
          given_name: 'Mallory',
          _links: { self: { href: 'https://evil.example/people/1' } },
        });
      }),
    );
    const client = await connect(fixture.entryPoint, { apiKey: fixture.key });
    const person = await client.people.get('https://evil.example/people/1');
    expect(person.data.given_name).toBe('Mallory');
    expect(seenElsewhere).toEqual([null]);
  });
});

describe('rate limits while paging', () => {
  it('waits out a 429 with Retry-After and goes on without skipping a page', async () => {
    const fixture = peopleServer({ people: 6, perPage: 2 });
    let limited = 0;
    server.use(
      http.get('https://api.example.org/api/v1/people', ({ request }) => {
        if (new URL(request.url).searchParams.get('page') === '2' && limited === 0) {
          limited += 1;
          return new HttpResponse(null, { status: 429, headers: { 'Retry-After': '1' } });
        }
        return undefined; // fall through to the fixture
      }),
      ...fixture.handlers,
    );
    const retries: number[] = [];
    const client = await connect(fixture.entryPoint, {
      apiKey: fixture.key,
      hooks: { beforeRetry: ({ attempt }) => void retries.push(attempt) },
    });
    const started = Date.now();
    expect(await names(client.people)).toHaveLength(6);
    expect(limited).toBe(1);
    expect(retries).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

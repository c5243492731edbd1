// The navigator against a real HTTP server that sends what real servers sometimes do:
// bodies that are not records, links that are not addresses, pages that loop or break
// mid-body. Each failure must be typed and name where it came from.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ClientOptions,
  connect,
  isInvalidLinkError,
  isNetworkError,
  isResponseFormatError,
} from '../../src/index.js';
import {
  type FaultServer,
  faultServer,
  json,
  resetMidBody,
  type Script,
  status,
  text,
} from '../fixtures/fault-server.js';

const FAST: ClientOptions = { retry: { limit: 2, backoffLimit: 20 }, idleTimeout: 200 };

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const entryPoint = (links: Record<string, unknown> = {}) =>
  json({
    _links: {
      self: { href: '/api/' },
      'std:people': { href: '/api/people' },
      curies: [{ name: 'std', href: 'https://example.org/docs/{rel}', templated: true }],
      ...links,
    },
  });

const person = (n: number) => ({
  _links: { self: { href: `/api/people/${n}` } },
  given_name: `Person ${n}`,
});

const page = (numbers: number[], next?: string, self?: string) =>
  json({
    ...(numbers.length > 0 ? { page: Math.ceil(numbers[0]! / 2) } : {}),
    _links: {
      ...(self ? { self: { href: self } } : {}),
      ...(next ? { next: { href: next } } : {}),
    },
    _embedded: { 'std:people': numbers.map(person) },
  });

async function client(routes: Record<string, Script>, options: ClientOptions = FAST) {
  server = await faultServer({ '/api/': entryPoint(), ...routes });
  return connect(server.url('/api/'), options);
}

async function settle<T>(call: () => Promise<T>): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('nothing becomes an empty record', () => {
  it.each([
    ['an empty body', status(200)],
    ['null', text('null', 200, { 'content-type': 'application/json' })],
    ['an array', json([])],
    ['an empty object', json({})],
    ['a number', json(42)],
  ])('refuses %s where a record is expected (ResponseFormatError)', async (_name, answer) => {
    const c = await client({ '/api/people/1': answer });
    const url = server!.url('/api/people/1');
    const error = await settle(() => c.people.get(url));
    expect(isResponseFormatError(error)).toBe(true);
    expect(error).toMatchObject({ url, status: 200, method: 'GET' });
    expect((error as Error).message).toContain(url);
  });

  it('refuses an array nested 100,000 deep where a record is expected, without a RangeError', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const c = await client({
      '/api/people/1': text(deep, 200, { 'content-type': 'application/json' }),
    });
    const error = await settle(() => c.people.get(server!.url('/api/people/1')));
    expect(isResponseFormatError(error)).toBe(true);
    expect(error).toMatchObject({ reason: expect.stringContaining('a JSON array') });
  });

  it('refuses an entry point nested 100,000 deep, without a RangeError', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    server = await faultServer({ '/api/': text(deep, 200) });
    const error = await settle(() => connect(server!.url('/api/'), FAST));
    expect(isResponseFormatError(error)).toBe(true);
  });

  it('refuses a truncated record (not JSON)', async () => {
    const c = await client({ '/api/people/1': text('{"_links": {"self": {"hr', 200) });
    const error = await settle(() => c.people.get(server!.url('/api/people/1')));
    expect(isResponseFormatError(error)).toBe(true);
  });

  it('refuses a refresh answered with an empty object', async () => {
    const c = await client({ '/api/people/1': [json(person(1)), json({})] });
    const ana = await c.people.get(server!.url('/api/people/1'));
    expect(isResponseFormatError(await settle(() => ana.refresh()))).toBe(true);
  });

  it('refuses a create answered 201 with neither the record nor a Location', async () => {
    const c = await client({ '/api/people': status(201) });
    const error = await settle(() => c.people.create({ given_name: 'Ana' }));
    expect(isResponseFormatError(error)).toBe(true);
    expect(error).toMatchObject({ status: 201, method: 'POST' });
    expect((error as Error).message).toMatch(/Location/);
  });

  it('reads a create answered with a Location only', async () => {
    const c = await client({
      '/api/people': status(201, { location: '/api/people/7' }),
      '/api/people/7': json(person(7)),
    });
    const created = await c.people.create({ given_name: 'Ana' });
    expect(created.data.given_name).toBe('Person 7');
  });
});

describe('server addresses are data, checked where they are resolved', () => {
  it('refuses a create whose Location is not an http(s) URL', async () => {
    const c = await client({ '/api/people': status(201, { location: 'javascript:alert(1)' }) });
    const error = await settle(() => c.people.create({ given_name: 'Ana' }));
    expect(isInvalidLinkError(error)).toBe(true);
    expect(error).toMatchObject({ rel: 'Location', href: 'javascript:alert(1)' });
  });

  it.each([
    ['javascript:alert(1)', 'not an http(s) URL'],
    ['file:///etc/passwd', 'not an http(s) URL'],
    ['http://[::1', 'not a URL'],
    ['//[bad', 'not a URL reference'],
  ])('stops paging at a next link %s with an InvalidLinkError naming it', async (href, reason) => {
    const c = await client({
      '/api/people': json({
        _links: { next: { href } },
        _embedded: { 'std:people': [person(1)] },
      }),
    });
    const seen: string[] = [];
    const error = await settle(async () => {
      for await (const p of c.people) seen.push(String(p.data.given_name));
    });
    expect(seen).toEqual([]);
    expect(isInvalidLinkError(error)).toBe(true);
    expect(error).toMatchObject({ rel: 'next', href, documentUrl: server!.url('/api/people') });
    expect((error as { reason: string }).reason).toContain(reason);
  });

  it('names the relation of a bad collection link on the entry point', async () => {
    server = await faultServer({ '/api/': entryPoint({ 'std:people': { href: 'mailto:x@y' } }) });
    const c = await connect(server.url('/api/'), FAST);
    const error = await settle(() => c.people.toArray());
    expect(isInvalidLinkError(error)).toBe(true);
    expect(error).toMatchObject({ rel: 'std:people', documentUrl: server.url('/api/') });
  });

  it('refuses a template that cannot be expanded', async () => {
    server = await faultServer({
      '/api/': entryPoint({ 'std:people': { href: '/api/people{?page', templated: true } }),
    });
    const c = await connect(server.url('/api/'), FAST);
    const error = await settle(() => c.people.url());
    expect(isInvalidLinkError(error)).toBe(true);
    expect(error).toMatchObject({ rel: 'std:people' });
  });

  it('keeps paging past a record whose own self link is bad, and fails only where it is used', async () => {
    const c = await client({
      '/api/people': json({
        _embedded: {
          'std:people': [person(1), { ...person(2), _links: { self: { href: 'urn:x:2' } } }],
        },
      }),
    });
    const people = await c.people.toArray();
    expect(people.map((p) => p.data.given_name)).toEqual(['Person 1', 'Person 2']);
    expect(isInvalidLinkError(await settle(async () => people[1]!.url))).toBe(true);
    expect(isInvalidLinkError(await settle(() => people[1]!.refresh()))).toBe(true);
  });
});

describe('paging through faults', () => {
  it('stops a next loop without fetching a page twice', async () => {
    const c = await client({
      '/api/people': page([1, 2], '/api/people?page=2'),
      '/api/people?page=2': page([3, 4], '/api/people'),
    });
    const people = await c.people.toArray();
    expect(people).toHaveLength(4);
    expect(server!.hits('/api/people')).toBe(1);
    expect(server!.hits('/api/people?page=2')).toBe(1);
  });

  it('retries a page whose connection is reset mid-body and finishes the walk', async () => {
    const c = await client({
      '/api/people': page([1, 2], '/api/people?page=2'),
      '/api/people?page=2': [resetMidBody(), page([3, 4], '/api/people?page=3')],
      '/api/people?page=3': page([5]),
    });
    const names = (await c.people.toArray({ readAhead: true })).map((p) => p.data.given_name);
    expect(names).toEqual(['Person 1', 'Person 2', 'Person 3', 'Person 4', 'Person 5']);
    expect(server!.hits('/api/people?page=2')).toBe(2);
    expect(server!.hits('/api/people?page=3')).toBe(1);
  });

  it('fails the walk with a NetworkError when a page keeps breaking mid-body', async () => {
    const c = await client({
      '/api/people': page([1, 2], '/api/people?page=2'),
      '/api/people?page=2': resetMidBody(),
    });
    const seen: unknown[] = [];
    const error = await settle(async () => {
      for await (const p of c.people) seen.push(p);
    });
    expect(seen).toHaveLength(2);
    expect(isNetworkError(error)).toBe(true);
  });
});

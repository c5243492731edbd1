import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { connect as connectBuilt } from 'adis-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadState, saveState, syncPeople } from '../../examples/sync-changes.js';
import {
  type Client,
  connect,
  errorDescriptions,
  field,
  isHTTPError,
  linkTo,
  type PersonResource,
  type PetitionResource,
} from '../../src/index.js';
import { type TestServer, testServer } from './reference-server.js';

const SEEDED = 20;
let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = testServer(SEEDED);
  client = await connect(server.entryPoint, { apiKey: server.keys.write, fetch: server.fetch });
});
afterAll(() => server.close());

/**
 * An instant strictly between what was written before and what is written after:
 * stored dates have millisecond precision, so a few milliseconds either side suffice.
 */
async function mark(): Promise<Date> {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
  await tick();
  const now = new Date();
  await tick();
  return now;
}

/** The sorted URLs of what a collection (or filtered collection) yields. */
async function urlsOf(collection: { toArray(): Promise<{ url: string }[]> }): Promise<string[]> {
  return (await collection.toArray()).map((r) => r.url).sort();
}

const sorted = (...resources: { url: string }[]) => resources.map((r) => r.url).sort();

describe('filters on people', () => {
  let seededUntil: Date;
  let changedAfter: Date;
  let ana: PersonResource;
  let bo: PersonResource;
  let cy: PersonResource;

  beforeAll(async () => {
    seededUntil = await mark();
    ana = await client.people.create({
      given_name: 'Ana',
      email_addresses: [{ address: 'Ana.Filter@Example.org', primary: true }],
    });
    bo = await client.people.create({
      given_name: 'Bo',
      email_addresses: [{ address: 'bo.filter@example.org' }],
    });
    cy = await client.people.create({ given_name: 'Cy' });
    changedAfter = await mark();
    bo = await bo.update({ family_name: 'Changed' });
  });

  it('finds only the people modified after a time', async () => {
    expect(await urlsOf(client.people.filter(field('modified_date').gt(changedAfter)))).toEqual([
      bo.url,
    ]);
    expect(Date.parse(String(bo.data.modified_date))).toBeGreaterThan(changedAfter.getTime());
    // The same instant written with an offset selects the same people.
    const twoHoursAhead = new Date(changedAfter.getTime() + 2 * 3600_000);
    const withOffset = twoHoursAhead.toISOString().replace('Z', '+02:00');
    expect(await urlsOf(client.people.filter(field('modified_date').gt(withOffset)))).toEqual([
      bo.url,
    ]);
  });

  it('compares created_date both ways', async () => {
    const before = await client.people.filter(field('created_date').lt(seededUntil)).toArray();
    expect(before).toHaveLength(SEEDED);
    expect(before.map((p) => p.url)).not.toContain(ana.url);
    const window = field('created_date')
      .gt(seededUntil)
      .and(field('created_date').lt(changedAfter));
    expect(await urlsOf(client.people.filter(window))).toEqual(sorted(ana, bo, cy));
  });

  it('matches email_address ignoring case', async () => {
    const upper = field('email_address').eq('ANA.FILTER@example.ORG');
    expect(await urlsOf(client.people.filter(upper))).toEqual([ana.url]);
    expect(await urlsOf(client.people.filter(field('email_address').eq('no@example.org')))).toEqual(
      [],
    );
  });

  it('joins conditions with and', async () => {
    const since = field('modified_date').gt(changedAfter);
    const boEmail = field('email_address').eq('Bo.Filter@example.org');
    const anaEmail = field('email_address').eq('ana.filter@example.org');
    expect(await urlsOf(client.people.filter(since.and(boEmail)))).toEqual([bo.url]);
    expect(await urlsOf(client.people.filter(since.and(anaEmail)))).toEqual([]);
  });
});

describe('filters on other kinds and sub-collections', () => {
  let older: PetitionResource;
  let newer: PetitionResource;
  let between: Date;

  beforeAll(async () => {
    older = await client.petitions.create({ title: 'Older petition' });
    between = await mark();
    newer = await client.petitions.create({ title: 'Newer petition' });
  });

  it('filters petitions by created_date', async () => {
    expect(await urlsOf(client.petitions.filter(field('created_date').gt(between)))).toEqual([
      newer.url,
    ]);
    expect(await urlsOf(client.petitions.filter(field('created_date').le(between)))).toEqual([
      older.url,
    ]);
  });

  it("filters a petition's signatures, keeping to that petition", async () => {
    const [ana, bo] = await client.people.toArray({ limit: 2 });
    if (!ana || !bo) throw new Error('no people seeded');
    const sign = (petition: PetitionResource, person: PersonResource) =>
      petition.signatures().create({ _links: { 'std:person': linkTo(person) } });
    const first = await sign(older, ana);
    const since = await mark();
    const second = await sign(older, bo);
    await sign(newer, ana);
    const recent = older.signatures().filter(field('created_date').gt(since));
    expect(await urlsOf(recent)).toEqual([second.url]);
    await first.update({ comments: 'Signed again' });
    const changed = older.signatures().filter(field('modified_date').gt(since));
    expect(await urlsOf(changed)).toEqual(sorted(first, second));
    expect(await older.signatures().toArray()).toHaveLength(2);
  });
});

describe('paging with a filter', () => {
  it('keeps the filter on every page', async () => {
    const since = await mark();
    const created = new Set<string>();
    for (let i = 0; i < 130; i += 1) {
      const url = await client.people.create(
        { given_name: `Bulk ${i}` },
        { returnResponse: false },
      );
      created.add(String(url));
    }
    const pages = [];
    for await (const page of client.people.filter(field('created_date').gt(since)).pages()) {
      pages.push(page);
    }
    expect(pages.map((page) => page.items.length)).toEqual([100, 30]);
    expect(pages.map((page) => page.totalRecords)).toEqual([130, 130]);
    const next = new URL(String(pages[0]?.next));
    expect(next.searchParams.get('filter')).toBe(`created_date gt '${since.toISOString()}'`);
    const seen = pages.flatMap((page) => page.items.map((person) => person.url));
    expect(new Set(seen)).toEqual(created);
    expect(seen).toHaveLength(130);
    expect((await client.people.toArray()).length).toBeGreaterThan(130 + SEEDED);
  });
});

describe('unsupported filters', () => {
  const raw = (expression: string) => ({ toString: () => expression });
  it.each([
    [
      'email_address on petitions',
      () => client.petitions.filter(field('email_address').eq('a@b.org')),
    ],
    ['an unknown field', () => client.people.filter(field('name').eq('x'))],
    [
      'or',
      () =>
        client.people.filter(
          raw("created_date gt '2026-01-01T00:00:00Z' or modified_date gt '2026-01-01T00:00:00Z'"),
        ),
    ],
    ['gt on email_address', () => client.people.filter(field('email_address').gt('a@b.org'))],
    ['a date that is not one', () => client.people.filter(field('created_date').gt('yesterday'))],
  ])('refuses %s with 400 INVALID_FILTER', async (_, filtered) => {
    const error = await filtered()
      .toArray()
      .catch((e: unknown) => e);
    expect(isHTTPError(error) && error.status).toBe(400);
    if (!isHTTPError(error)) return;
    const [description, ...more] = errorDescriptions(error.stdError);
    expect(description).toMatchObject({ error_code: 'INVALID_FILTER', properties: ['filter'] });
    expect(description?.hint).toContain('and');
    expect(more).toEqual([]);
  });

  it('refuses an unsupported filter on a sub-collection too', async () => {
    const [petition] = await client.petitions.toArray({ limit: 1 });
    const error = await petition
      ?.signatures()
      .filter(field('email_address').eq('a@b.org'))
      .toArray()
      .catch((e: unknown) => e);
    expect(isHTTPError(error) && errorDescriptions(error.stdError)[0]?.error_code).toBe(
      'INVALID_FILTER',
    );
  });
});

describe('the incremental sync example', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'adis-sync-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('fetches everything, then nothing, then exactly what changed', async () => {
    // The example imports the built package, so it gets a client of the built package.
    const built = await connectBuilt(server.entryPoint, {
      apiKey: server.keys.write,
      fetch: server.fetch,
    });
    const statePath = join(dir, 'state.json');
    const run = async (options: { overlapMs?: number } = { overlapMs: 0 }, path = statePath) => {
      const seen: string[] = [];
      const result = await syncPeople(
        built,
        await loadState(path),
        (person) => {
          seen.push(person.url);
        },
        (state) => saveState(path, state),
        // In-process calls carry no Date header: the mark is the local clock's, to the
        // millisecond, and no overlap is needed to see "nothing changed".
        options,
      );
      expect(result.state.run).toBeNull();
      expect(await readdir(dir)).not.toContain(`${basename(path)}.tmp`);
      expect(await loadState(path)).toEqual(result.state);
      return { ...result, seen: seen.sort() };
    };

    expect(await loadState(statePath)).toEqual({ since: null, run: null });
    const everyone = await urlsOf(client.people);
    const first = await run();
    expect(first.fetched).toBe(everyone.length);
    expect(first.seen).toEqual(everyone);
    expect(first.state.since).toEqual(expect.any(String));

    const second = await run();
    expect(second.fetched).toBe(0);

    await mark();
    const [one, two] = await client.people.toArray({ limit: 2 });
    if (!one || !two) throw new Error('no people seeded');
    await one.update({ family_name: 'Synced' });
    await two.update({ family_name: 'Synced' });
    const added = await client.people.create({ given_name: 'New since last sync' });
    const third = await run();
    expect(third.fetched).toBe(3);
    expect(third.seen).toEqual(sorted(one, two, added));
    expect(Date.parse(String(third.state.since))).toBeGreaterThan(
      Date.parse(String(second.state.since)),
    );
    expect((await run()).fetched).toBe(0);
    // The default overlap (a minute) reads again what changed in the minute before the
    // mark: here everyone, all written seconds ago.
    const overlapped = join(dir, 'overlapped.json');
    expect((await run({}, overlapped)).fetched).toBe(everyone.length + 1);
    expect((await run({}, overlapped)).fetched).toBe(everyone.length + 1);
  });
});

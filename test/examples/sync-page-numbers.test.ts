import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect as connectBuilt, type PersonResource } from 'adis-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  loadState,
  NEVER_SYNCED,
  type SyncOptions,
  type SyncState,
  saveState,
  syncPeople,
} from '../../examples/sync-changes.js';
import {
  type PageNumberServer,
  type PageOrder,
  pageNumberServer,
} from '../fixtures/page-number-server.js';

// examples/sync-changes.ts with `paging: 'number'` against a server paged the way Action
// Network pages people: `?page=N`, no totals, a new order for every request (or creation
// order, where a deletion moves later people back a place), and people changed, added
// and deleted between two page fetches of a run. Every run is the same on every machine:
// the server's clock moves one second per request and its orders come from a seed.
const root = fileURLToPath(new URL('../../', import.meta.url));
const NOW = Date.parse('2026-11-20T12:00:00Z');
const PER_PAGE = 5;
let folder: string;
let server: PageNumberServer | undefined;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'adis-sync-numbers-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** `count` distinct whole-second dates spread over the 30 days before NOW. */
function spread(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    new Date(NOW - ((i * 7919) % 2_592_000) * 1000 - 120_000).toISOString().replace('.000Z', 'Z'),
  );
}

/** A copy of the server's people by identifier, where the newest `modified_date` wins. */
type Copy = Map<string, { modified_date: string; given_name: string }>;

function upsertInto(copy: Copy) {
  return (person: PersonResource) => {
    const id = person.identifiers[0] ?? person.url;
    const modified = String(person.data.modified_date);
    const held = copy.get(id);
    if (held !== undefined && Date.parse(held.modified_date) > Date.parse(modified)) return;
    copy.set(id, { modified_date: modified, given_name: String(person.data.given_name) });
  };
}

/** The people the copy lacks, or holds in another version than the server's. */
function wrongIn(copy: Copy, on: PageNumberServer, upTo = Number.POSITIVE_INFINITY): string[] {
  return [...on.people.values()]
    .filter((person) => Date.parse(person.modified_date) <= upTo)
    .filter((person) => {
      const held = copy.get(`action_network:${person.id}`);
      return held?.modified_date !== person.modified_date || held.given_name !== person.given_name;
    })
    .map((person) => person.id);
}

/**
 * Changes people between page fetches: modified, added, deleted, early and late in a
 * run. Answers the ids it deletes. In creation order, deleting the sixth person (page 2)
 * before page 5 moves the 21st onto page 4, which a walk has read already.
 */
function changeDuringRuns(on: PageNumberServer): string[] {
  const ids = [...on.people.keys()] as [string, ...string[]];
  const removed = [ids[5], ids[30]] as string[];
  on.beforePage = (n) => {
    if (n === 2) on.modify(ids[0], 'Changed early');
    if (n === 3) on.add('Added early');
    if (n === 5) on.remove(removed[0] as string);
    if (n === 6) on.modify(ids[12] as string, 'Changed midway');
    if (n === 8) on.add('Added late');
    if (n === 9) on.modify(ids[39] as string, 'Changed late');
    if (n === 10) on.remove(removed[1] as string);
  };
  return removed;
}

async function run(
  on: PageNumberServer,
  copy: Copy,
  state: SyncState,
  options: SyncOptions,
  save: (state: SyncState) => Promise<void> = async () => {},
) {
  const client = await connectBuilt(on.entryPoint, {
    apiKey: on.key,
    apiKeyHeader: 'OSDI-API-Token',
  });
  return syncPeople(client, state, upsertInto(copy), save, options);
}

describe.each<PageOrder>(['shuffled', 'created'])('a server that pages by number, %s', (order) => {
  it('gives every person in the version of its last change, and a naive walk loses one', async () => {
    // Windows of dates, each read in one request.
    server = await pageNumberServer({ stamps: spread(40), perPage: PER_PAGE, order, seed: 7 });
    const removed = changeDuringRuns(server);
    const copy: Copy = new Map();
    const first = await run(server, copy, NEVER_SYNCED, { paging: 'number' });
    expect(first.state.run).toBeNull();
    expect(first.unproven).toEqual([]);
    // Several people were changed, added and deleted while it read.
    expect(server.pageRequests.length).toBeGreaterThan(10);
    // It never asked for a page after the first: no order between pages mattered.
    expect(server.pageRequests.filter((url) => url.includes('page='))).toEqual([]);
    // Everyone not changed since the mark is in the copy as the server has them now.
    const mark = Date.parse(String(first.state.since));
    expect(wrongIn(copy, server, mark)).toEqual([]);
    // The people changed during the run are above the mark: the next run reads them.
    const changedSince = [...server.people.values()].filter(
      (person) => Date.parse(person.modified_date) > mark,
    );
    expect(changedSince.map((person) => person.given_name).sort()).toEqual([
      'Added early',
      'Added late',
      'Changed early',
      'Changed late',
      'Changed midway',
    ]);
    server.beforePage = undefined;
    const second = await run(server, copy, first.state, { paging: 'number' });
    expect(second.fetched).toBeGreaterThanOrEqual(changedSince.length);
    expect(wrongIn(copy, server)).toEqual([]);
    // Deletions are not seen through a filter: the copy may keep a deleted person it read.
    const extra = [...copy.keys()]
      .map((id) => id.replace('action_network:', ''))
      .filter((id) => !server?.people.has(id));
    expect(extra.filter((id) => !removed.includes(id))).toEqual([]);

    // The same server, orders and changes, read by a walk of the pages (the cursor recipe).
    await server.close();
    server = await pageNumberServer({ stamps: spread(40), perPage: PER_PAGE, order, seed: 7 });
    changeDuringRuns(server);
    const naive: Copy = new Map();
    const walked = await run(server, naive, NEVER_SYNCED, {});
    expect(server.pageRequests.some((url) => url.includes('page=2'))).toBe(true);
    const since = Date.parse(String(walked.state.since));
    const lost = wrongIn(naive, server, since);
    // A person missed though unchanged since before the mark: no later run reads it again.
    expect(lost.length).toBeGreaterThan(0);
    if (order === 'created') expect(lost).toHaveLength(1); // the one moved back a page
    for (const id of lost) {
      expect(Date.parse(server.people.get(id)?.modified_date ?? '')).toBeLessThan(since);
    }
  });
});

describe('a run by windows', () => {
  const BULK = '2026-11-10T08:30:00Z';
  const BULK_SECOND = { after: '2026-11-10T08:29:59Z', before: '2026-11-10T08:30:01Z' };
  const bulk = Array.from({ length: 12 }, () => BULK);

  it('resumes after a crash from the windows it saved, reading no stored window again', async () => {
    server = await pageNumberServer({ stamps: spread(40), perPage: PER_PAGE, seed: 11 });
    const statePath = join(folder, 'crash.json');
    const copy: Copy = new Map();
    let saves = 0;
    const crashing = async (state: SyncState) => {
      saves += 1;
      // The process dies after storing a window's people, before saving the state.
      if (saves === 8) throw new Error('killed');
      await saveState(statePath, state);
    };
    await expect(run(server, copy, NEVER_SYNCED, { paging: 'number' }, crashing)).rejects.toThrow(
      'killed',
    );
    const before = server.pageRequests.length;
    const saved = await loadState(statePath);
    expect(saved.run?.windows?.length).toBeGreaterThan(0);
    // Bounds in whole seconds, as Action Network writes dates.
    const wholeSeconds = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
    for (const window of saved.run?.windows ?? []) {
      expect(window.before).toMatch(wholeSeconds);
      if (window.after !== null) expect(window.after).toMatch(wholeSeconds);
    }
    // Resumed as a run by windows, whatever the options say now.
    const resumed = await run(server, copy, saved, {}, (state) => saveState(statePath, state));
    expect(resumed.resumed).toBe(true);
    expect(resumed.state).toEqual({ since: saved.run?.mark, run: null });
    expect(await loadState(statePath)).toEqual(resumed.state);
    expect(wrongIn(copy, server)).toEqual([]);
    // Only the window whose save was lost is read twice: fewer requests than a fresh run.
    const fresh = await pageNumberServer({ stamps: spread(40), perPage: PER_PAGE, seed: 11 });
    try {
      await run(fresh, new Map(), NEVER_SYNCED, { paging: 'number' });
      expect(server.pageRequests.length - before).toBe(fresh.pageRequests.length - before + 1);
    } finally {
      await fresh.close();
    }
  });

  it('splits a second of a mass update by creation date, and reads everyone', async () => {
    // Twelve people created over a month, all modified in one second, five to a page.
    server = await pageNumberServer({
      stamps: [...spread(20), ...bulk],
      created: [
        ...spread(20),
        ...bulk.map((_, i) => new Date(Date.parse('2026-10-01T09:00:00Z') + i * 86_407_000)),
      ].map((date) => new Date(date).toISOString().replace('.000Z', 'Z')),
      perPage: PER_PAGE,
      seed: 3,
    });
    const copy: Copy = new Map();
    const result = await run(server, copy, NEVER_SYNCED, { paging: 'number' });
    expect(result.unproven).toEqual([]);
    expect(wrongIn(copy, server)).toEqual([]);
    const filters = server.pageRequests.map((url) =>
      new URL(url, 'http://x').searchParams.get('filter'),
    );
    expect(filters.some((filter) => filter?.includes(" and created_date lt '"))).toBe(true);
    expect(server.pageRequests.filter((url) => url.includes('page='))).toEqual([]);
  });

  it('proves a second of a bulk import read by walks that end on the same count', async () => {
    // Twelve people created and modified in one second, five to a page, a new order for
    // every page: no filter tells them apart, and one walk misses some.
    server = await pageNumberServer({
      stamps: [...spread(20), ...bulk],
      perPage: PER_PAGE,
      seed: 3,
    });
    const copy: Copy = new Map();
    const result = await run(server, copy, NEVER_SYNCED, { paging: 'number' });
    expect(result.unproven).toEqual([]);
    expect(wrongIn(copy, server)).toEqual([]);
    // The walks: pages 2 and 3 of the one-second window, several times over.
    const walks = server.pageRequests.filter((url) => url.includes('page=3')).length;
    expect(walks).toBeGreaterThanOrEqual(2);
    expect(walks).toBeLessThanOrEqual(10);
  });

  it('says which second it could not prove, when people keep leaving it during the walks', async () => {
    const crowd = Array.from({ length: 20 }, () => BULK);
    server = await pageNumberServer({
      stamps: [...spread(20), ...crowd],
      perPage: PER_PAGE,
      seed: 3,
    });
    const leaving = [...server.people.values()]
      .filter((person) => person.modified_date === BULK)
      .map((person) => person.id);
    // One of them is changed during every walk: the count at the end of a walk never
    // comes twice, so no walk proves the others.
    server.beforePage = (_, url) => {
      if (url.searchParams.get('page') !== '2') return;
      server?.modify(leaving.shift() ?? '', 'Changed in a walk');
    };
    const result = await run(server, new Map(), NEVER_SYNCED, { paging: 'number' });
    expect(result.unproven).toEqual([{ ...BULK_SECOND, created: BULK_SECOND }]);
    expect(leaving).toHaveLength(10); // ten walks, then it gave up
  });

  it('reads a person stamped at the very second where a window was split', async () => {
    // Six people, five to a page: the first window is split. Where, the second request says.
    const probe = await pageNumberServer({ stamps: spread(6), perPage: PER_PAGE });
    let split: string;
    try {
      await run(probe, new Map(), NEVER_SYNCED, { paging: 'number' });
      const left = new URL(probe.pageRequests[1] ?? '', 'http://x').searchParams.get('filter');
      split = /^modified_date lt '([^']+)'$/.exec(left ?? '')?.[1] ?? '';
      expect(split).toMatch(/^\d{4}-.*Z$/);
    } finally {
      await probe.close();
    }
    // The same server and clock, with one more person stamped at that second: the window
    // is split at the same point, and both halves exclude their own ends.
    server = await pageNumberServer({ stamps: [...spread(6), split], perPage: PER_PAGE });
    const copy: Copy = new Map();
    await run(server, copy, NEVER_SYNCED, { paging: 'number' });
    expect(new URL(server.pageRequests[1] ?? '', 'http://x').searchParams.get('filter')).toBe(
      `modified_date lt '${split}'`,
    );
    expect(wrongIn(copy, server)).toEqual([]);
  });

  it('fails, rather than splitting for ever, on a server that ignores the filter', async () => {
    server = await pageNumberServer({ stamps: spread(12), perPage: PER_PAGE, ignoreFilter: true });
    const copy: Copy = new Map();
    await expect(run(server, copy, NEVER_SYNCED, { paging: 'number' })).rejects.toThrow(
      /outside the window: the server ignored the filter/,
    );
    expect(server.pageRequests.length).toBeLessThanOrEqual(3);
  });

  it('filters with gt and lt only, which Action Network has (no ge)', async () => {
    server = await pageNumberServer({ stamps: spread(12), perPage: PER_PAGE });
    const copy: Copy = new Map();
    const first = await run(server, copy, NEVER_SYNCED, { paging: 'number' });
    await run(server, copy, first.state, { paging: 'number' });
    const filters = server.pageRequests.map((url) =>
      new URL(url, 'http://x').searchParams.get('filter'),
    );
    expect(filters.every((filter) => filter !== null && !/ (ge|le) /.test(filter))).toBe(true);
    // The second run starts a second before the first run's mark (gt is exclusive).
    const mark = new Date(String(first.state.since));
    mark.setUTCMilliseconds(0);
    const after = new Date(mark.getTime() - 1000).toISOString().replace('.000Z', 'Z');
    expect(filters.at(-1)).toMatch(
      new RegExp(`^modified_date gt '${after}' and modified_date lt '`),
    );
  });
});

describe('examples/sync-changes.ts --server action-network', () => {
  const start = (...args: string[]) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'examples/sync-changes.ts', ...args],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      errors += chunk;
    });
    return new Promise<{ code: number | null; out: string; errors: string }>((resolve) =>
      child.on('exit', (code) => resolve({ code, out, errors })),
    );
  };

  it('sends the key in OSDI-API-Token and reads by windows of dates', async () => {
    server = await pageNumberServer({ stamps: spread(8) });
    const statePath = join(folder, 'cli.json');
    const { code, out, errors } = await start(
      server.entryPoint,
      server.key,
      statePath,
      '--server',
      'action-network',
    );
    expect(errors).toBe('');
    expect(code).toBe(0);
    const printed = out.match(/\/api\/v2\/people\/an-\d+/g) ?? [];
    expect(printed.sort()).toEqual([...server.people.keys()].map((id) => `/api/v2/people/${id}`));
    expect(server.pageRequests).toHaveLength(1);
    const filter = new URL(server.pageRequests[0] ?? '', 'http://x').searchParams.get('filter');
    expect(filter).toMatch(/^modified_date lt '[\dT:-]+Z'$/);
    const state = JSON.parse(await readFile(statePath, 'utf8')) as SyncState;
    expect(state.run).toBeNull();
    expect(out).toMatch(
      `Fetched 8 people (1 page) since the beginning; next run starts at ${state.since}.`,
    );
  });

  it('refuses a paging it does not know, and a server it has no preset for', async () => {
    const paging = await start('http://127.0.0.1:1/api/v2/', 'key', '--paging', 'sideways');
    expect(paging.code).toBe(2);
    expect(paging.errors).toMatch(/--paging cursor\|number/);
    const unknown = await start('http://127.0.0.1:1/api/v2/', 'key', '--server', 'nowhere');
    expect(unknown.code).toBe(2);
    expect(unknown.errors).toMatch(/Servers: action-network/);
  });
});

/**
 * A full copy from one server to another, for each pair of presets the reference server
 * has (and a target on PostgreSQL when the run's engine is PostgreSQL): after it, the
 * target holds exactly one copy of every source record, equal to it (compare-copies.ts),
 * and a second run writes nothing at all (its summary creates and updates nothing, and
 * the target sees no request other than GET).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memorySyncState } from '../../src/sync/state-store.js';
import { compareCopies, describeDifferences } from './compare-copies.js';
import { type FaultProxy, faultProxy } from './fault-proxy.js';
import { seedSource } from './seed-source.js';
import { refusals, syncWorld, writes } from './sync-runs.js';
import { postgresOn, type ServerSpec, startWorld, type World } from './world.js';

let world: World | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await world?.close();
  proxy = undefined;
  world = undefined;
});

/** A copy to make. */
interface CopyCase {
  name: string;
  source: ServerSpec;
  target: ServerSpec;
  people: number;
  extraActions?: number;
  /** The kinds the target cannot take, skipped whole. */
  skipped: string[];
}

/**
 * Copies a seeded source to an empty target through a proxy, compares, copies again,
 * and holds the second run to writing nothing. Soft assertions: a failure says every
 * way the copy went wrong at once, not only the first.
 */
async function copyAndCopyAgain(copy: CopyCase): Promise<void> {
  world = await startWorld({ source: copy.source, target: copy.target });
  const { counts } = await seedSource(world.source, {
    people: copy.people,
    ...(copy.extraActions === undefined ? {} : { extraActions: copy.extraActions }),
  });
  proxy = await faultProxy({ upstream: world.target.origin });
  const from = await world.source.connect();
  const to = await world.target.connect({ via: proxy.origin });
  const state = memorySyncState();

  const first = await syncWorld(world, { from, to, state });
  // A kind the target cannot write is skipped whole, each of its records counted refused.
  expect.soft(refusals(first.summary, copy.skipped)).toBe('');
  expect.soft(first.skipped).toEqual(copy.skipped);
  for (const kind of copy.skipped) {
    const tally = first.summary.kinds[kind];
    expect.soft(tally?.refused, kind).toBe(tally?.read);
  }
  const copied = Object.fromEntries(
    Object.keys(counts)
      .filter((kind) => !copy.skipped.includes(kind))
      .map((kind) => [
        kind,
        { read: first.summary.kinds[kind]?.read, created: first.summary.kinds[kind]?.created },
      ]),
  );
  expect.soft(copied).toEqual(
    Object.fromEntries(
      Object.entries(counts)
        .filter(([kind]) => !copy.skipped.includes(kind))
        .map(([kind, n]) => [kind, { read: n, created: n }]),
    ),
  );
  if (copy.target.preset === 'action-network') {
    // Statuses Action Network's people POST does not take are written as unsubscribed,
    // and each person so written is counted.
    const beyond = (await from.people.toArray()).filter((person) =>
      ['email_addresses', 'phone_numbers'].some((member) => {
        const list = person.document.properties[member];
        return (
          Array.isArray(list) &&
          list.some((element: { status?: unknown }) =>
            ['bouncing', 'spam complaints'].includes(String(element.status)),
          )
        );
      }),
    );
    expect.soft(beyond.length).toBeGreaterThan(0);
    expect.soft(first.summary.kinds.people?.adjusted).toBe(beyond.length);
  }
  const differences = await compareCopies(from, to, {
    sourceSystem: world.sourceSystem,
    skip: first.skipped,
  });
  expect.soft(describeDifferences(differences)).toBe('');

  proxy.clear();
  const second = await syncWorld(world, { from, to, state });
  expect.soft(writes(second.summary)).toEqual({});
  expect.soft(refusals(second.summary)).toBe('');
  expect.soft(proxy.writes().map((entry) => `${entry.method} ${entry.path}`)).toEqual([]);
}

describe.skipIf(postgresOn())('a full copy', () => {
  it('from a server of the specification to another: 3,000 people and every kind', async () => {
    await copyAndCopyAgain({
      name: 'specification to specification',
      source: {},
      target: {},
      people: 3000,
      extraActions: 600,
      skipped: [],
    });
  }, 180_000);

  it("from Action Network's preset to a server of the specification", async () => {
    await copyAndCopyAgain({
      name: 'action network to specification',
      source: { preset: 'action-network' },
      target: {},
      people: 200,
      skipped: [],
    });
  }, 120_000);

  it("from a server of the specification to Action Network's preset (its lists read only)", async () => {
    await copyAndCopyAgain({
      name: 'specification to action network',
      source: {},
      target: { preset: 'action-network' },
      people: 200,
      skipped: ['lists', 'items'],
    });
  }, 120_000);
});

describe.runIf(postgresOn())('a full copy to a target on PostgreSQL', () => {
  it('from a server of the specification on SQLite', async () => {
    await copyAndCopyAgain({
      name: 'specification to specification on PostgreSQL',
      source: {},
      target: { engine: 'postgres' },
      people: 300,
      skipped: [],
    });
  }, 120_000);
});

/**
 * A run after a full copy writes only what changed on the source since: some people
 * renamed, some signatures added, a few people tagged. Counted twice, by the run's
 * summary and by the requests the target saw (through a proxy), for a source that pages
 * by cursor (the specification's) and one that pages by number (Action Network's).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memorySyncState } from '../../src/sync/state-store.js';
import { compareCopies, describeDifferences } from './compare-copies.js';
import { type FaultProxy, faultProxy, type ProxiedRequest } from './fault-proxy.js';
import { changeSource, seedSource } from './seed-source.js';
import { refusals, syncWorld, writes } from './sync-runs.js';
import { type PresetName, startWorld, type World } from './world.js';

let world: World | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await world?.close();
  proxy = undefined;
  world = undefined;
});

/**
 * A write as `<method> <collection>`: the collection a POST went to, or the collection
 * of the record a PUT or DELETE went to (`PUT people`, `POST signatures`).
 */
function written(entry: ProxiedRequest): string {
  const segments = (entry.path.split('?')[0] ?? '').split('/').filter(Boolean);
  const collection = entry.method === 'POST' ? segments.at(-1) : segments.at(-2);
  return `${entry.method} ${collection}`;
}

/** How many of each write, sorted: `{ 'POST signatures': 3, 'PUT people': 5 }`. */
function tally(entries: readonly ProxiedRequest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of entries.map(written).sort()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

describe.each<PresetName>(['specification', 'action-network'])(
  'a run after a full copy, from a source under the %s preset',
  (preset) => {
    it('writes the people renamed, the signatures and the taggings added, and nothing else', async () => {
      world = await startWorld({ source: { preset } });
      await seedSource(world.source, { people: 250 });
      proxy = await faultProxy({ upstream: world.target.origin });
      const from = await world.source.connect();
      const to = await world.target.connect({ via: proxy.origin });
      const state = memorySyncState();
      const first = await syncWorld(world, { from, to, state });
      expect(refusals(first.summary)).toBe('');

      const changed = await changeSource(world.source, {
        updatePeople: 5,
        addSignatures: 3,
        tagPeople: 2,
      });
      expect(changed.people).toHaveLength(5);
      proxy.clear();
      const second = await syncWorld(world, { from, to, state });
      expect.soft(writes(second.summary)).toEqual({
        people: { created: 0, updated: 5 },
        signatures: { created: 3, updated: 0 },
        taggings: { created: 2, updated: 0 },
      });
      expect.soft(tally(proxy.writes())).toEqual({
        'POST signatures': 3,
        'POST taggings': 2,
        'PUT people': 5,
      });
      expect.soft(refusals(second.summary)).toBe('');
      const differences = await compareCopies(from, to, { sourceSystem: world.sourceSystem });
      expect.soft(describeDifferences(differences)).toBe('');

      // And a run after that one has nothing left to write.
      proxy.clear();
      const third = await syncWorld(world, { from, to, state });
      expect.soft(writes(third.summary)).toEqual({});
      expect.soft(tally(proxy.writes())).toEqual({});
    }, 60_000);
  },
);

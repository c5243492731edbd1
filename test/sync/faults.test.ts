/**
 * A sync against the faults of real servers and networks, each made by a proxy
 * (fault-proxy.ts) or a fixture:
 *
 * - a target that ignores `Idempotency-Key`, whose answer to a write is lost after the
 *   write was made (503 after forwarding): the runs that follow find the copy instead
 *   of writing it again;
 * - a 5xx in the middle of a run on a target that honours the key, before and after
 *   the write: the same run goes on, nothing written twice;
 * - 429 with `Retry-After` on both sides, every so many requests: waited out;
 * - a source that pages by number in a new order for every request while people are
 *   changed, added and deleted (test/fixtures/page-number-server.ts, paged as Action
 *   Network pages people): every person is copied in its last version.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/index.js';
import { memorySyncState } from '../../src/sync/state-store.js';
import { type PageNumberServer, pageNumberServer } from '../fixtures/page-number-server.js';
import { clientOptionsFor } from './client-options.js';
import { compareCopies, describeDifferences } from './compare-copies.js';
import { type FailureMode, type FaultProxy, faultProxy } from './fault-proxy.js';
import { seedSource } from './seed-source.js';
import { refusals, type SyncResult, syncWorld } from './sync-runs.js';
import { startServer, startWorld, type World, type WorldServer } from './world.js';

let world: World | undefined;
const proxies: FaultProxy[] = [];
let fixture: PageNumberServer | undefined;
let lone: WorldServer | undefined;
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  await world?.close();
  await fixture?.close();
  await lone?.close();
  world = undefined;
  fixture = undefined;
  lone = undefined;
});

async function proxied(...args: Parameters<typeof faultProxy>): Promise<FaultProxy> {
  const proxy = await faultProxy(...args);
  proxies.push(proxy);
  return proxy;
}

describe('a target that ignores Idempotency-Key', () => {
  it.each<FailureMode>(['after', 'before'])(
    'loses the answer to a write (503 %s forwarding), and the next run neither loses nor doubles it',
    async (mode) => {
      world = await startWorld();
      await seedSource(world.source, { people: 80, activityPeople: 40, extraActions: 20 });
      // The 503 falls on a signature (after 80 people, 2 organizations, 3 petitions).
      const proxy = await proxied({
        upstream: world.target.origin,
        ignoreIdempotencyKeys: true,
        failPost: { at: 100, mode },
      });
      const from = await world.source.connect();
      const to = await world.target.connect({ via: proxy.origin });
      const state = memorySyncState();
      const runs: (SyncResult | Error)[] = [];
      for (let i = 0; i < 3; i++) {
        runs.push(
          await syncWorld(world, { from, to, state }).catch((error: unknown) =>
            error instanceof Error ? error : new Error(String(error)),
          ),
        );
        const last = runs.at(-1);
        if (!(last instanceof Error) && refusals(last?.summary as SyncResult['summary']) === '') {
          break;
        }
      }
      expect(proxy.log.filter((entry) => entry.fault !== undefined).map((e) => e.fault)).toEqual([
        `503 ${mode}`,
      ]);
      const last = runs.at(-1);
      expect(
        last instanceof Error ? last.message : refusals(last?.summary as SyncResult['summary']),
      ).toBe('');
      expect(runs.length).toBeLessThanOrEqual(2);
      const differences = await compareCopies(from, to, { sourceSystem: world.sourceSystem });
      expect(describeDifferences(differences)).toBe('');
    },
    60_000,
  );
});

describe('a 5xx in the middle of a run, on a target that honours Idempotency-Key', () => {
  it.each<FailureMode>(['after', 'before'])(
    'is retried in the same run (503 %s forwarding): one run, one copy of each record',
    async (mode) => {
      world = await startWorld();
      await seedSource(world.source, { people: 80, activityPeople: 40, extraActions: 20 });
      const proxy = await proxied({ upstream: world.target.origin, failPost: { at: 100, mode } });
      const from = await world.source.connect();
      const to = await world.target.connect({ via: proxy.origin });
      const run = await syncWorld(world, { from, to });
      expect(refusals(run.summary)).toBe('');
      const failed = proxy.log.findIndex((entry) => entry.fault === `503 ${mode}`);
      expect(failed).toBeGreaterThanOrEqual(0);
      // Sent again with its key: the server answered it (made it, or gave the first answer).
      const again = proxy.log
        .slice(failed + 1)
        .find((entry) => entry.path === proxy.log[failed]?.path);
      expect(again?.status).toBeLessThan(300);
      const differences = await compareCopies(from, to, { sourceSystem: world.sourceSystem });
      expect(describeDifferences(differences)).toBe('');
    },
    60_000,
  );
});

describe('429 with Retry-After', () => {
  it('from both sides, every so many requests, is waited out and the copy is whole', async () => {
    world = await startWorld();
    await seedSource(world.source, { people: 30, activityPeople: 30, extraActions: 0 });
    const source = await proxied({ upstream: world.source.origin, throttleEvery: 10 });
    const target = await proxied({ upstream: world.target.origin, throttleEvery: 120 });
    const from = await world.source.connect({ via: source.origin });
    const to = await world.target.connect({ via: target.origin });
    const run = await syncWorld(world, { from, to });
    expect(refusals(run.summary)).toBe('');
    const throttled = (proxy: FaultProxy) =>
      proxy.log.filter((entry) => entry.status === 429).length;
    expect(throttled(source)).toBeGreaterThanOrEqual(2);
    expect(throttled(target)).toBeGreaterThanOrEqual(2);
    // Each 429 asked for a second: the run waited at least that long once.
    expect(run.ms).toBeGreaterThanOrEqual(1000);
    source.configure({});
    target.configure({});
    const differences = await compareCopies(from, to, { sourceSystem: world.sourceSystem });
    expect(describeDifferences(differences)).toBe('');
  }, 60_000);
});

/** `count` distinct whole-second dates over the 30 days before the fixture's clock. */
function spread(count: number): string[] {
  const now = Date.parse('2026-11-20T12:00:00Z');
  return Array.from({ length: count }, (_, i) =>
    new Date(now - ((i * 7919) % 2_592_000) * 1000 - 120_000).toISOString().replace('.000Z', 'Z'),
  );
}

describe('a source that pages by number in no stable order while people change', () => {
  it('copies every person in the version of its last change', async () => {
    fixture = await pageNumberServer({
      stamps: spread(60),
      perPage: 5,
      order: 'shuffled',
      seed: 5,
    });
    const source = fixture;
    lone = await startServer('target');
    const ids = [...source.people.keys()];
    const removed = [ids[7], ids[33]] as string[];
    source.beforePage = (n) => {
      if (n === 2) source.modify(ids[0] as string, 'Changed early');
      if (n === 3) source.add('Added early');
      if (n === 5) source.remove(removed[0] as string);
      if (n === 8) source.modify(ids[20] as string, 'Changed midway');
      if (n === 11) source.add('Added late');
      if (n === 14) source.modify(ids[50] as string, 'Changed late');
      if (n === 17) source.remove(removed[1] as string);
    };
    const from = await connect(source.entryPoint, clientOptionsFor('action-network', source.key));
    const to = await lone.connect();
    const state = memorySyncState();
    const request = { from, to, state, kinds: ['people'] };
    const pair = { sourceSystem: 'action_network' };
    const first = await syncWorld(pair, request);
    expect(refusals(first.summary)).toBe('');
    // Several pages were asked for while the people changed.
    expect(source.pageRequests.length).toBeGreaterThan(17);
    source.beforePage = undefined;
    const second = await syncWorld(pair, request);
    expect(refusals(second.summary)).toBe('');
    // The people changed or added during the first run come with the second.
    expect(second.summary.kinds.people?.read).toBeGreaterThanOrEqual(5);

    const copies = new Map<string, { given_name: unknown; count: number }>();
    for (const copy of await to.people.toArray()) {
      for (const identifier of copy.identifiers.filter((id) => id.startsWith('action_network:'))) {
        const held = copies.get(identifier);
        copies.set(identifier, { given_name: copy.data.given_name, count: (held?.count ?? 0) + 1 });
      }
    }
    const wrong = [...source.people.values()].flatMap((person) => {
      const copy = copies.get(`action_network:${person.id}`);
      if (copy === undefined) return [`${person.id}: no copy`];
      if (copy.count !== 1) return [`${person.id}: ${copy.count} copies`];
      return copy.given_name === person.given_name
        ? []
        : [`${person.id}: ${String(copy.given_name)}, not ${person.given_name}`];
    });
    expect(wrong).toEqual([]);
    // Nothing else on the target but the people deleted after they were read.
    const extra = [...copies.keys()]
      .map((identifier) => identifier.replace('action_network:', ''))
      .filter((id) => !source.people.has(id) && !removed.includes(id));
    expect(extra).toEqual([]);
  }, 60_000);
});

/**
 * What runSync tells while it runs (`onEvent`): for each kind, `kind-start`, then its
 * `progress` and `refused` events, then `kind-done` with the tally the summary gives;
 * a kind's parents done before it starts. Two people of the source are too large for
 * the target's body limit, so the run has refusals to tell.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OneRelation } from '../../src/schema/kind.js';
import { KINDS } from '../../src/schema/kinds/index.js';
import type { SyncEvent } from '../../src/sync/types.js';
import { seedSource } from './seed-source.js';
import { type SyncResult, syncWorld } from './sync-runs.js';
import { startWorld, type World } from './world.js';

const PEOPLE = 150;
const BULKY = 2;
let world: World;
let result: SyncResult;
let counts: Record<string, number>;

beforeAll(async () => {
  // The bulky people's 20,000-character custom field does not fit in 16 KiB.
  world = await startWorld({ target: { app: { maxBodyBytes: 16 * 1024 } } });
  ({ counts } = await seedSource(world.source, { people: PEOPLE, bulky: BULKY }));
  const from = await world.source.connect();
  const to = await world.target.connect();
  result = await syncWorld(world, { from, to });
}, 60_000);
afterAll(() => world.close());

/** The kind an event is about. */
function kindOf(event: SyncEvent): string {
  return event.type === 'refused' ? event.refusal.kind : event.kind;
}

/** The events of one kind, in order. */
function eventsOf(kind: string): SyncEvent[] {
  return result.events.filter((event) => kindOf(event) === kind);
}

describe('the events of a run', () => {
  it('start, go on and end each kind once, in that order, with the tally of the summary', () => {
    const kinds = Object.keys(result.summary.kinds);
    expect(kinds.length).toBeGreaterThan(15);
    for (const kind of kinds) {
      const events = eventsOf(kind);
      if (events.length === 1 && events[0]?.type === 'kind-skipped') continue;
      const types = events.map((event) => event.type);
      expect(types[0], kind).toBe('kind-start');
      expect(types.at(-1), kind).toBe('kind-done');
      expect(
        types.slice(1, -1).every((type) => type === 'progress' || type === 'refused'),
        kind,
      ).toBe(true);
      const done = events.at(-1);
      expect(done?.type === 'kind-done' ? done.tally : undefined, kind).toEqual(
        result.summary.kinds[kind],
      );
    }
    // The kinds in the order the summary lists them, which is the order they were copied.
    const started = result.events.flatMap((event) =>
      event.type === 'kind-start' || event.type === 'kind-skipped' ? [event.kind] : [],
    );
    expect(started).toEqual(kinds);
  });

  it('tell progress that only grows, up to the kind’s end', () => {
    for (const kind of Object.keys(result.summary.kinds)) {
      let read = 0;
      for (const event of eventsOf(kind)) {
        if (event.type !== 'progress' && event.type !== 'kind-done') continue;
        expect(event.tally.read, kind).toBeGreaterThanOrEqual(read);
        read = event.tally.read;
      }
      expect(read, kind).toBe(counts[kind] ?? 0);
    }
    const people = eventsOf('people');
    expect(people.filter((event) => event.type === 'progress').length).toBeGreaterThan(0);
    // The source says how many people it has (its total_records): every progress tells it,
    // and so does the start (SyncEvent: "`total` when the source says how many").
    const totals = people.flatMap((event) => (event.type === 'progress' ? [event.total] : []));
    expect(new Set(totals)).toEqual(new Set([PEOPLE]));
    const start = people[0];
    expect.soft(start?.type === 'kind-start' ? start.total : 'no start').toBe(PEOPLE);
  });

  it('tell each refusal as it happens, naming the record, within its kind', () => {
    const refused = result.events.flatMap((event) =>
      event.type === 'refused' ? [event.refusal] : [],
    );
    expect(refused.map((refusal) => [refusal.kind, refusal.status])).toEqual([
      ['people', 413],
      ['people', 413],
    ]);
    expect(refused).toEqual(result.summary.refusals);
    expect(result.summary.kinds.people?.refused).toBe(BULKY);
    expect(result.summary.kinds.people?.created).toBe(PEOPLE - BULKY);
    for (const refusal of refused) {
      expect(refusal.source.startsWith(world.source.entryPoint)).toBe(true);
      expect(refusal.reason.length).toBeGreaterThan(10);
    }
  });

  it('end the parents of a kind before the kind starts', () => {
    const at = (type: 'kind-start' | 'kind-done', kind: string) =>
      result.events.findIndex((event) => event.type === type && event.kind === kind);
    const checked: string[] = [];
    for (const kind of KINDS) {
      if (at('kind-start', kind.plural) < 0) continue;
      const parents = Object.values(kind.relations).filter(
        (relation): relation is OneRelation => relation.type === 'one' && relation.required,
      );
      for (const parent of parents) {
        const parentKind = KINDS.find((candidate) => candidate.singular === parent.kind);
        if (!parentKind || parentKind === kind) continue;
        const parentDone = at('kind-done', parentKind.plural);
        expect(parentDone, `${parentKind.plural} before ${kind.plural}`).toBeGreaterThanOrEqual(0);
        expect(parentDone, `${parentKind.plural} before ${kind.plural}`).toBeLessThan(
          at('kind-start', kind.plural),
        );
        checked.push(`${parentKind.plural} < ${kind.plural}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(['people < signatures', 'petitions < signatures', 'tags < taggings']),
    );
  });
});

// The loop that runs the demo seed's steps (src/seed/run-steps.ts): what each kind of
// step creates, how links resolve, and that planning needs no storage.
import { describe, expect, it } from 'vitest';
import { Chooser } from '../src/seed/chooser.js';
import { planRecords, type RecordToCreate } from '../src/seed/run-steps.js';
import { ANYONE, SOMEONE_ELSE, type Step, THE_ACT, THE_ACTOR } from '../src/seed/steps.js';
import { prng } from '../src/seed.js';
import type { StoredRecord } from '../src/storage/storage.js';

const NOW = new Date('2026-04-15T16:00:00.000Z');

function person(n: number): StoredRecord {
  const at = NOW.toISOString();
  return { seq: n, kind: 'person', id: `p${n}`, doc: {}, created_date: at, modified_date: at };
}
const PEOPLE = Array.from({ length: 6 }, (_, n) => person(n));

/**
 * Runs the plan as runSteps does, with a stand-in creator: each record "created" gets
 * the id `<kind>#<n>`. Returns what was asked for, in order.
 */
function plan(steps: Step[], people = PEOPLE, seed = 1): RecordToCreate[] {
  const asked: RecordToCreate[] = [];
  const generator = planRecords(steps, new Chooser(prng(seed)), people, NOW);
  let next = generator.next();
  while (!next.done) {
    asked.push(next.value);
    const created = { ...person(asked.length), kind: next.value.singular };
    created.id = `${next.value.singular}#${asked.length - 1}`;
    next = generator.next(created);
  }
  return asked;
}

const ids = (links: RecordToCreate['links']) =>
  Object.fromEntries(Object.entries(links).map(([rel, record]) => [rel, record?.id]));

describe('planRecords', () => {
  it('links records by the names earlier steps gave them, and the organizers by theirs', () => {
    const asked = plan([
      { create: 'tag', name: 'volunteer tag', fields: { name: 'Volunteer' } },
      { create: 'list', fields: { name: 'L' }, links: { creator: 'second organizer' } },
      { create: 'tagging', fields: {}, links: { tag: 'volunteer tag', person: 'organizer' } },
    ]);
    expect(asked.map((record) => record.singular)).toEqual(['tag', 'list', 'tagging']);
    expect(ids(asked[1]?.links ?? {})).toEqual({ creator: 'p1' });
    expect(ids(asked[2]?.links ?? {})).toEqual({ tag: 'tag#0', person: 'p0' });
  });

  it('has each chosen person act once, linked as the actor, with follow-ups linked to the act', () => {
    const asked = plan([
      { create: 'question', name: 'q', fields: { title: 'Q?' } },
      {
        act: 'canvass',
        by: { count: [3, 3] },
        fields: ({ index }) => ({ n: index, success: index !== 1 }),
        links: { target: THE_ACTOR, canvasser: SOMEONE_ELSE },
        followUps: [
          {
            create: 'answer',
            when: ({ act }) => act.success === true,
            fields: ({ act, person: actor }) => ({ of: actor.id, n: act.n }),
            links: { person: THE_ACTOR, question: 'q', canvass: THE_ACT },
          },
        ],
      },
    ]);
    const canvasses = asked.filter((record) => record.singular === 'canvass');
    expect(canvasses).toHaveLength(3);
    const targets = canvasses.map((c) => c.links.target?.id);
    expect(new Set(targets).size).toBe(3);
    for (const canvass of canvasses) {
      expect(canvass.links.canvasser).toBeDefined();
      expect(canvass.links.canvasser).not.toBe(canvass.links.target);
    }
    // Two answers (the second visit failed), each right after its canvass.
    expect(asked.map((record) => record.singular)).toEqual([
      'question',
      'canvass',
      'answer',
      'canvass',
      'canvass',
      'answer',
    ]);
    expect(asked[2]?.fields).toEqual({ of: targets[0], n: 0 });
    expect(ids(asked[2]?.links ?? {})).toEqual({
      person: targets[0],
      question: 'question#0',
      canvass: 'canvass#1',
    });
  });

  it('remembers people in a group, and leaves a group out of a later sample', () => {
    const asked = plan([
      { choose: 'visited', count: 2 },
      {
        act: 'donation',
        by: { count: 4, except: 'visited' },
        fields: ({ index }) => ({ voided: index === 0 }),
        links: { person: THE_ACTOR },
        remember: { group: 'donors', when: (fields) => fields.voided !== true },
      },
      { act: 'tagging', by: { group: 'donors' }, fields: {}, links: { person: THE_ACTOR } },
    ]);
    const donations = asked.filter((record) => record.singular === 'donation');
    const taggings = asked.filter((record) => record.singular === 'tagging');
    // 6 people, 2 set aside: the 4 others give; the first gift is voided.
    expect(donations).toHaveLength(4);
    expect(taggings.map((t) => t.links.person?.id)).toEqual(
      donations.slice(1).map((d) => d.links.person?.id),
    );
  });

  it('draws the same choices for the same seed, others for another', () => {
    const steps: Step[] = [
      { create: 'petition', fields: { title: 'P' }, links: { creator: ANYONE } },
      {
        act: 'signature',
        by: { count: [1, 6] },
        fields: ({ recently }) => ({ action_date: recently(30) }),
        links: { person: THE_ACTOR },
      },
    ];
    const shape = (seed: number) =>
      plan(steps, PEOPLE, seed).map((record) => [record.fields, ids(record.links)]);
    expect(shape(3)).toEqual(shape(3));
    expect(shape(3)).not.toEqual(shape(4));
    for (const [fields] of shape(3).slice(1)) {
      const date = Date.parse(String((fields as { action_date: string }).action_date));
      expect(date).toBeLessThan(NOW.getTime());
      expect(date).toBeGreaterThanOrEqual(NOW.getTime() - 30 * 86_400_000);
    }
  });

  it('with no people, skips every act and leaves links to people out', () => {
    const asked = plan(
      [
        { create: 'form', fields: { title: 'F' }, links: { creator: 'organizer', x: ANYONE } },
        { act: 'submission', by: { count: [8, 18] }, fields: {}, links: { person: THE_ACTOR } },
      ],
      [],
    );
    expect(asked).toHaveLength(1);
    expect(ids(asked[0]?.links ?? {})).toEqual({ creator: undefined, x: undefined });
  });

  it('refuses a link to a name no earlier step gave, and the actor outside an act', () => {
    expect(() => plan([{ create: 'tagging', fields: {}, links: { tag: 'no such tag' } }])).toThrow(
      /no earlier step is named no such tag/,
    );
    expect(() => plan([{ create: 'tagging', fields: {}, links: { person: THE_ACTOR } }])).toThrow(
      /outside an act/,
    );
  });
});

/**
 * Demo activity: what a small community-organizing group does with its people — a
 * park-protection campaign and a tenants' union in Brooklyn. Organizations, petitions
 * and their signatures, forms and submissions, fundraising pages and donations, a share
 * page, an advocacy campaign and its calls, events and RSVPs, survey questions and
 * answers, message wrappers and draft messages, tags, lists, a saved query and
 * door-knocking canvasses.
 *
 * Everything is created through {@link RecordService}, as a client's POST would be:
 * every write schema, link rule and total applies, so the data is what the server would
 * hold had a client entered it. Choices come from the seeded PRNG of `seed.ts`, so a
 * given seed (and `now`) always gives the same documents; record ids are random UUIDs
 * as always. The activity itself is data, steps in `seed/activity-steps.ts`, run by
 * `seed/run-steps.ts`.
 *
 * With no people in the tenant, only the records that need no person are created
 * (organizations, petitions, forms, pages, events, questions, wrappers, messages, tags,
 * lists, the query, a list item for an organization and the taggings of petitions);
 * every action a person takes (signatures, submissions, donations, outreaches,
 * attendances, answers, canvasses, person taggings and list items) is skipped.
 */
import { ALL_KINDS } from './domain/catalog.js';
import { KindRegistry } from './domain/kinds.js';
import { RecordService } from './domain/records/index.js';
import { ACTIVITY_STEPS } from './seed/activity-steps.js';
import { Chooser } from './seed/chooser.js';
import { Creator } from './seed/creator.js';
import { runSteps } from './seed/run-steps.js';
import { prng } from './seed.js';
import type { Storage } from './storage/storage.js';

/** Options of {@link seedActivity}. */
export interface ActivitySeedOptions {
  /** Tenant whose people take part; created when missing. */
  tenant: string;
  /** PRNG seed. Default 1. */
  seed?: number;
  /** Kinds to create records with. Default: every kind of the specification. */
  registry?: KindRegistry;
  /**
   * The present moment: action dates fall in the weeks before it, events in the weeks
   * after it, and every record is created at it. Default: the current time. Give a
   * fixed date for identical documents across runs.
   */
  now?: Date;
  /** How many of the tenant's first people take part. Default 60. */
  people?: number;
}

/** Records created by {@link seedActivity}, by kind (singular name); 0 for skipped kinds. */
export type ActivityCounts = Record<string, number>;

/**
 * The kinds {@link seedActivity} creates, in the order it reports them.
 */
export const ACTIVITY_KINDS = [
  'organization',
  'petition',
  'signature',
  'form',
  'submission',
  'fundraising_page',
  'donation',
  'share_page',
  'advocacy_campaign',
  'outreach',
  'event',
  'attendance',
  'question',
  'answer',
  'wrapper',
  'message',
  'tag',
  'tagging',
  'list',
  'item',
  'query',
  'canvass',
] as const;

/** The registry of every kind of the specification, without the HTTP layer. */
function catalogRegistry(): KindRegistry {
  const registry = new KindRegistry();
  for (const kind of ALL_KINDS) registry.register(kind);
  return registry;
}

/**
 * Creates a realistic, deterministic set of organizing activity for a tenant's
 * existing people (the first 60 by default), through the domain layer so that every
 * rule, link and total applies: 2 organizations, 3 petitions with 10–40 signatures
 * each, 2 forms with submissions, 2 fundraising pages with donations (one voided), a
 * share page, an advocacy campaign with outreaches, 3 events (ticketed, open, all-day)
 * with attendances, 2 questions with answers, 2 wrappers, 2 draft messages, 4 tags with
 * taggings, 2 lists with items, a query and 3 canvasses. Runs in one transaction.
 *
 * With fewer people, each petition, page and event gets at most one action per person;
 * with none, the records that need a person are skipped (their count is 0).
 *
 * @returns The number of records created, by kind.
 *
 * @example
 * ```ts
 * import { openStorage, seedActivity, seedPeople } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * await seedPeople(storage, { tenant: 'demo', count: 100 });
 * const counts = await seedActivity(storage, { tenant: 'demo', seed: 7 });
 * counts.petition; // 3
 * ```
 */
export function seedActivity(
  storage: Storage,
  options: ActivitySeedOptions,
): Promise<ActivityCounts> {
  const registry = options.registry ?? catalogRegistry();
  const now = options.now ?? new Date();
  return storage.transaction(async () => {
    const tenant = await storage.tenants.ensure(options.tenant);
    const people = await storage.records.list({
      tenantId: tenant.id,
      kind: 'person',
      limit: options.people ?? 60,
      offset: 0,
    });
    const choose = new Chooser(prng(options.seed ?? 1));
    const records = new RecordService(storage, registry);
    const creator = new Creator(records, registry, tenant, now, ACTIVITY_KINDS);
    await runSteps(ACTIVITY_STEPS, creator, choose, people, now);
    return creator.counts;
  });
}

/**
 * One line describing what {@link seedActivity} (or a preset's seed) wrote, for
 * start-up output: records made by kind, and counts of other writes by their phrase.
 *
 * @example
 * ```ts
 * import { describeActivity } from './seed-activity.js';
 *
 * describeActivity({ organization: 2, share_page: 1, canvass: 3, person: 2 });
 * // '2 organizations, 1 share page, 3 canvasses, 2 people'
 * ```
 */
export function describeActivity(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([name, count]) => {
      const [one, many] = COUNTED[name] ?? [name, PLURALS.get(name) ?? `${name}s`];
      return `${count} ${(count === 1 ? one : many).replaceAll('_', ' ')}`;
    })
    .join(', ');
}

/** The plural of each kind's name, from the kinds themselves (a person, 2 people). */
const PLURALS = new Map<string, string>(ALL_KINDS.map((kind) => [kind.singular, kind.plural]));

/** Counts of something other than records made, and how the start-up line names them. */
const COUNTED: Readonly<Record<string, readonly [one: string, many: string]>> = {
  people_given_custom_fields: ['person given custom fields', 'people given custom fields'],
};

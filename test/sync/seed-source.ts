/**
 * A source worth copying: people with everything a person carries (emails primary and
 * other with their statuses, phones, postal addresses, custom fields, identifiers of
 * another system), and every kind the sync copies, related as a group's data is
 * (petitions and their signatures, events and attendances, forms and submissions,
 * fundraising pages and donations dated in the past, advocacy campaigns and outreaches,
 * questions and answers, tags and taggings, lists and items, messages).
 *
 * Seeded through the reference server's domain layer, as its own demo seed is
 * (`seedActivity`): every write schema, link rule and total applies, as if a client had
 * POSTed it, but thousands of records take a second, not thousands of HTTP calls. People
 * and the actions added here are dated over the 30 days before `now`, each at its own
 * second; the demo activity is dated at `now` (one crowded second, as a bulk import
 * makes). Deterministic: the choices come from the seeded PRNG of the server's demo
 * data; only record ids (random UUIDs, as always) differ between runs.
 */
import type { ResourceKind } from '../../reference-server/src/domain/kinds.js';
import { type LinkInput, RecordService } from '../../reference-server/src/domain/records/index.js';
import { demoPerson, prng } from '../../reference-server/src/seed.js';
import { seedActivity } from '../../reference-server/src/seed-activity.js';
import type {
  JsonObject,
  StoredRecord,
  Tenant,
} from '../../reference-server/src/storage/storage.js';
import type { WorldServer } from './world.js';

/** Options of {@link seedSource}. */
export interface SeedOptions {
  /** People to create. Default 300. */
  people?: number;
  /** PRNG seed. Default 1. */
  seed?: number;
  /**
   * The moment the data is dated around: the demo activity at it, people and the added
   * actions in the 30 days before it. Default: midnight UTC of the day before today (in
   * the past, as a donation's own date must be, yet recent).
   */
  now?: Date;
  /** Whether to add the demo activity (and the actions after it). Default true. */
  activity?: boolean;
  /** How many of the first people take part in the demo activity. Default 60. */
  activityPeople?: number;
  /**
   * Actions added beyond the demo activity, by the people after the first
   * `activityPeople`, spread over the kinds (signatures most). Default: a fifth of
   * `people`.
   */
  extraActions?: number;
  /**
   * People given a custom field of 20,000 characters: a target with a smaller body
   * limit refuses them (events.test.ts). Default 0.
   */
  bulky?: number;
}

/** What {@link seedSource} made. */
export interface SeededSource {
  /** Records made, by kind (plural name). */
  counts: Record<string, number>;
  /** The `now` the data is dated around. */
  now: Date;
}

const DAY = 86_400_000;
/** The span people and added actions are dated over, before `now`. */
const SPAN = 30 * DAY;

/** Shares of the added actions, by kind (singular), and the parent each hangs under. */
const EXTRA_SHARES: readonly { kind: string; parent: string; share: number }[] = [
  { kind: 'signature', parent: 'petition', share: 0.35 },
  { kind: 'tagging', parent: 'tag', share: 0.2 },
  { kind: 'attendance', parent: 'event', share: 0.1 },
  { kind: 'submission', parent: 'form', share: 0.08 },
  { kind: 'donation', parent: 'fundraising_page', share: 0.08 },
  { kind: 'outreach', parent: 'advocacy_campaign', share: 0.07 },
  { kind: 'answer', parent: 'question', share: 0.06 },
  { kind: 'item', parent: 'list', share: 0.06 },
];

/** The plural of each kind the seed makes, for the counts. */
const PLURALS: Readonly<Record<string, string>> = {
  person: 'people',
  organization: 'organizations',
  petition: 'petitions',
  signature: 'signatures',
  form: 'forms',
  submission: 'submissions',
  fundraising_page: 'fundraising_pages',
  donation: 'donations',
  share_page: 'share_pages',
  advocacy_campaign: 'advocacy_campaigns',
  outreach: 'outreaches',
  event: 'events',
  attendance: 'attendances',
  question: 'questions',
  answer: 'answers',
  wrapper: 'wrappers',
  message: 'messages',
  tag: 'tags',
  tagging: 'taggings',
  list: 'lists',
  item: 'items',
  query: 'queries',
  canvass: 'canvasses',
};

/** A whole-second instant (Action Network writes whole seconds: equal on both sides). */
function wholeSecond(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

/** Midnight UTC of the day before today. */
function yesterday(): Date {
  const today = new Date();
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - DAY);
}

/** The domain's view of a world server: its tenant, kinds and record service. */
interface Domain {
  tenant: Tenant;
  records: RecordService;
  kind(singular: string): ResourceKind;
  all(singular: string): Promise<StoredRecord[]>;
}

async function domainOf(server: WorldServer): Promise<Domain> {
  const tenant = await server.tenant();
  const records = new RecordService(server.storage, server.registry);
  const kind = (singular: string) => {
    const found = server.registry.bySingular(singular);
    if (!found) throw new Error(`the ${server.role} serves no kind ${singular}`);
    return found;
  };
  const all = (singular: string) =>
    server.storage.records.list({
      tenantId: tenant.id,
      kind: singular,
      limit: 1_000_000,
      offset: 0,
    });
  return { tenant, records, kind, all };
}

/** A person's fields: the demo person, with more of what people carry for some. */
function personFields(random: () => number, index: number, bulky: boolean): JsonObject {
  const person = demoPerson(random, index);
  const given = String(person.given_name)
    .toLowerCase()
    .replace(/[^a-z]/g, '');
  const emails = person.email_addresses as JsonObject[];
  if (index % 4 === 1) {
    const statuses = ['subscribed', 'unsubscribed', 'bouncing'] as const;
    emails.push({
      primary: false,
      // Unique: a target that matches people by email must never merge two of them.
      address: `${given || 'someone'}.alt${index + 1}@example.net`,
      address_type: 'work',
      status: statuses[index % statuses.length] as string,
    });
  }
  if (index % 6 === 2) {
    (person.phone_numbers as JsonObject[]).push({
      primary: false,
      number: `1718555${String(1000 + (index % 9000)).padStart(4, '0')}`,
      number_type: 'Work',
      country: 'US',
    });
  }
  if (index % 9 === 3) {
    (person.postal_addresses as JsonObject[]).push({
      primary: false,
      address_type: 'Work',
      address_lines: [`${100 + (index % 800)} Fulton Street`, `Suite ${1 + (index % 40)}`],
      locality: 'Brooklyn',
      region: 'NY',
      postal_code: '11201',
      country: 'US',
    });
  }
  const custom = person.custom_fields as JsonObject;
  if (index % 3 === 0) custom.ward = `Ward ${1 + (index % 9)}`;
  if (bulky) custom.life_story = 'Once upon a time. '.repeat(1200).slice(0, 20_000);
  // Identifiers of another system the person came from: the copy carries them too.
  if (index % 5 === 0) person.identifiers = [`crm:${10_000 + index}`];
  return person;
}

/** The fields of the `k`-th added action of `kind`, dated at `date`. */
function actionFields(
  kind: string,
  k: number,
  parent: StoredRecord,
  date: Date,
  random: () => number,
): JsonObject {
  const action_date = date.toISOString();
  switch (kind) {
    case 'signature':
      return k % 3 === 0
        ? { action_date, comments: `Signed at the door, visit ${k + 1}.`, origin_system: 'canvass' }
        : { action_date };
    case 'tagging':
      return {};
    case 'attendance': {
      const status = (['accepted', 'tentative', 'declined'] as const)[k % 3] as string;
      const levels = Array.isArray(parent.doc.ticket_levels)
        ? (parent.doc.ticket_levels as JsonObject[])
        : [];
      const level = levels[k % Math.max(1, levels.length)];
      // A ticketed event's attendance holds its ticket (Action Network requires one).
      if (parent.doc.type !== 'ticketed' || !level) return { action_date, status };
      const ticket = { title: level.title, amount: level.amount, currency: level.currency };
      return { action_date, status: 'accepted', tickets: [ticket] as JsonObject[] };
    }
    case 'submission':
      return { action_date, custom_fields: { shift: k % 2 === 0 ? 'morning' : 'evening' } };
    case 'donation': {
      const amount = [10, 25, 40, 100, 12.5][k % 5] as number;
      return {
        // The donation's own date: a day before it was recorded, kept by the copy.
        created_date: new Date(date.getTime() - DAY).toISOString(),
        action_date,
        amount,
        currency: 'USD',
        recipients: [{ display_name: String(parent.doc.title ?? 'The fund'), amount }],
        payment: { method: k % 4 === 0 ? 'Check' : 'Credit Card' },
      };
    }
    case 'outreach':
      return {
        action_date,
        type: k % 2 === 0 ? 'email' : 'phone',
        targets: [{ title: 'Council Member', given_name: 'Dana', family_name: 'Harlow' }],
        ...(k % 2 === 0 ? { subject: 'Keep the park public', message: 'Please vote no.' } : {}),
      };
    case 'answer':
      return parent.doc.question_type === 'Paragraph'
        ? { action_date, value: `Answer number ${k + 1}: the boiler, again.` }
        : { action_date, responses: [random() < 0.7 ? 'yes' : 'no'] };
    case 'item':
      return {};
    default:
      throw new Error(`no fields for an added ${kind}`);
  }
}

/**
 * Seeds the tenant of `server` (a world's source, usually) and answers what it made.
 *
 * @example
 * ```ts
 * const { counts } = await seedSource(world.source, { people: 3000, extraActions: 600 });
 * counts.signatures; // the demo's and the added ones
 * ```
 */
export async function seedSource(
  server: WorldServer,
  options: SeedOptions = {},
): Promise<SeededSource> {
  const count = options.people ?? 300;
  const seed = options.seed ?? 1;
  const now = options.now ?? yesterday();
  const activityPeople = options.activityPeople ?? 60;
  const extra = options.extraActions ?? Math.floor(count / 5);
  const bulky = options.bulky ?? 0;
  const random = prng(seed);
  const domain = await domainOf(server);
  const counts: Record<string, number> = {};
  const add = (singular: string, n: number) => {
    const plural = PLURALS[singular] ?? singular;
    counts[plural] = (counts[plural] ?? 0) + n;
  };

  await server.storage.transaction(async () => {
    const person = domain.kind('person');
    const step = Math.max(1000, Math.floor(SPAN / Math.max(1, count)));
    for (let index = 0; index < count; index++) {
      const at = wholeSecond(now.getTime() - SPAN + index * step);
      const fields = personFields(random, index, index >= count - bulky);
      await domain.records.create(domain.tenant, person, person.parse(fields), {
        now: at,
        event: false,
      });
    }
    add('person', count);
  });

  if (options.activity === false) return { counts, now };
  const activity = await seedActivity(server.storage, {
    tenant: server.tenantName,
    seed,
    now,
    registry: server.registry,
    people: activityPeople,
  });
  for (const [singular, n] of Object.entries(activity)) add(singular, n);

  await server.storage.transaction(async () => {
    const people = await domain.all('person');
    const pool = people.slice(activityPeople);
    for (const [at, { kind, parent, share }] of EXTRA_SHARES.entries()) {
      const parents = await domain.all(parent);
      const n = Math.min(pool.length, Math.floor(extra * share));
      if (parents.length === 0 || n === 0) continue;
      const actionKind = domain.kind(kind);
      const parentKind = domain.kind(parent);
      const step = Math.floor(SPAN / (n + 1));
      for (let k = 0; k < n; k++) {
        const on = parents[k % parents.length] as StoredRecord;
        const by = pool[k] as StoredRecord;
        // Each kind at its own seconds, a few seconds apart from the other kinds'.
        const date = wholeSecond(now.getTime() - SPAN + (k + 1) * step + at * 1000);
        const fields = actionFields(kind, k, on, date, random);
        const links: LinkInput = {
          [parent]: { plural: parentKind.plural, id: on.id },
          person: { plural: 'people', id: by.id },
        };
        await domain.records.create(domain.tenant, actionKind, actionKind.parse(fields), {
          links,
          now: date,
          event: false,
        });
      }
      add(kind, n);
    }
  });
  return { counts, now };
}

/** Changes {@link changeSource} makes. */
export interface SourceChanges {
  /** People whose `given_name` is changed. */
  updatePeople?: number;
  /** New signatures, by people who had not signed that petition. */
  addSignatures?: number;
  /** New taggings of people with the demo's `Building captain` tag. */
  tagPeople?: number;
}

/** What {@link changeSource} changed: the local ids of the records, by kind (plural). */
export type ChangedRecords = Record<'people' | 'signatures' | 'taggings', string[]>;

/**
 * Changes a seeded source as its users would, now: renames some people, has others
 * sign a petition, tags a few. The people acting are the last ones, whom neither the
 * demo activity nor the added actions of a seed with the default shares involve.
 *
 * @example
 * ```ts
 * const changed = await changeSource(world.source, { updatePeople: 5, addSignatures: 3, tagPeople: 2 });
 * changed.signatures.length; // 3
 * ```
 */
export async function changeSource(
  server: WorldServer,
  changes: SourceChanges,
): Promise<ChangedRecords> {
  const domain = await domainOf(server);
  const changed: ChangedRecords = { people: [], signatures: [], taggings: [] };
  const people = await domain.all('person');
  const person = domain.kind('person');
  const updates = changes.updatePeople ?? 0;
  const stride = Math.max(1, Math.floor(people.length / Math.max(1, updates)));
  for (let i = 0; i < updates; i++) {
    const record = people[i * stride] as StoredRecord;
    await domain.records.update(
      domain.tenant,
      person,
      record.id,
      person.parse({ given_name: `${String(record.doc.given_name)} (renamed ${i + 1})` }),
    );
    changed.people.push(record.id);
  }
  const fromTheEnd = [...people].reverse();
  const petitions = await domain.all('petition');
  const signature = domain.kind('signature');
  for (let i = 0; i < (changes.addSignatures ?? 0); i++) {
    const by = fromTheEnd[i] as StoredRecord;
    const on = petitions[i % petitions.length] as StoredRecord;
    const created = await domain.records.create(
      domain.tenant,
      signature,
      signature.parse({ action_date: new Date().toISOString(), comments: 'Signed late' }),
      {
        links: {
          petition: { plural: 'petitions', id: on.id },
          person: { plural: 'people', id: by.id },
        },
      },
    );
    changed.signatures.push(created.id);
  }
  const captain = (await domain.all('tag')).find((tag) => tag.doc.name === 'Building captain');
  if (!captain) throw new Error('the source has no Building captain tag: seed it first');
  const tagging = domain.kind('tagging');
  for (let i = 0; i < (changes.tagPeople ?? 0); i++) {
    const who = fromTheEnd[fromTheEnd.length > 40 ? 20 + i : i] as StoredRecord;
    const created = await domain.records.create(domain.tenant, tagging, tagging.parse({}), {
      links: { tag: { plural: 'tags', id: captain.id }, person: { plural: 'people', id: who.id } },
    });
    changed.taggings.push(created.id);
  }
  return changed;
}

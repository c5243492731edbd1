/**
 * Demo data of Action Network's own collections, for a server started with `--preset
 * action-network`, added after the demo people and activity (`seed.ts`,
 * `seed-activity.ts`): two event campaigns with their events and RSVPs, two campaigns
 * gathering the tenant's actions, more custom fields on some people, and a unique ID
 * list. Written through {@link RecordService} with the preset's kinds, as a client's
 * POST would be, except the campaigns: Action Network makes those only in its
 * interface, so they are written to storage directly, with their `actions`.
 */

import { localIdentifier, newRecordId } from '../../domain/identifiers.js';
import type { KindRegistry, ResourceKind } from '../../domain/kinds.js';
import {
  type CreateOptions,
  composeDocument,
  type LinkInput,
  RecordService,
} from '../../domain/records/index.js';
import { prng } from '../../seed.js';
import type { JsonObject, Storage, StoredRecord, Tenant } from '../../storage/storage.js';
import { EVENT_CAMPAIGN_REFERENCE } from './event-campaign.js';

/** Options of {@link seedActionNetwork}. */
export interface ActionNetworkSeedOptions {
  /** Tenant (Action Network group) to add the records to; created when missing. */
  tenant: string;
  /** PRNG seed: who RSVPs, who gets which custom fields. Default 1. */
  seed?: number;
  /** The present moment: events fall in the weeks after it. Default: the current time. */
  now?: Date;
  /** How many of the tenant's first people take part. Default 60. */
  people?: number;
  /** The kinds to write with: the Action Network preset's (`defaultRegistry(ACTION_NETWORK_PRESET)`). */
  registry: KindRegistry;
}

/**
 * Records made by {@link seedActionNetwork}, by kind, and the people it gave custom
 * fields (updated, not made: the start-up line says so).
 */
export type ActionNetworkSeedCounts = Record<
  | 'event_campaign'
  | 'event'
  | 'attendance'
  | 'campaign'
  | 'unique_id_list'
  | 'people_given_custom_fields',
  number
>;

const DAY = 86_400_000;
const PARK_SITE = 'https://willowbendpark.example.org';
const UNION_SITE = 'https://riversidetenants.example.org';

/** Two event campaigns, each with the events hosts have put in it. */
const EVENT_CAMPAIGNS = [
  {
    fields: {
      title: 'Willow Bend Neighbour Walks',
      name: 'neighbour-walks-2026',
      description:
        '<p>Lead a one-hour walk through Willow Bend Park with your neighbours and show them ' +
        'the north meadow the city wants to lease.</p>',
      host_pitch: 'Know the park? Walk your block through it on a weekend morning.',
      host_instructions:
        '<p>Pick a meeting point, bring the route map from the toolkit and collect petition ' +
        'signatures at the meadow.</p>',
      browser_url: `${PARK_SITE}/walks`,
    },
    events: [
      { title: 'Sunrise walk from the boathouse', venue: 'Willow Bend boathouse', inDays: 9 },
      { title: 'Family walk and picnic', venue: 'Prospect Place entrance', inDays: 16 },
      { title: 'Birders’ walk along the pond', venue: 'Pond overlook', inDays: 23 },
    ],
  },
  {
    fields: {
      title: 'Know Your Rights House Meetings',
      name: 'kyr-house-meetings',
      description:
        '<p>Small meetings in tenants’ homes to go over the rights every renter in Riverside ' +
        'Towers has, and the repairs the landlord owes.</p>',
      host_pitch: 'Host six to ten neighbours from your floor for an evening.',
      host_instructions: '<p>The union sends a trained facilitator and the handouts.</p>',
    },
    events: [
      { title: 'House meeting, Building A', venue: 'Riverside Towers A, 4th floor', inDays: 6 },
      { title: 'House meeting, Building C', venue: 'Riverside Towers C, 11th floor', inDays: 13 },
    ],
  },
] as const;

/** Custom fields an organizer added to some people after the demo activity. */
const WARDS = ['Ward 3', 'Ward 5', 'Ward 8'];
const SKILLS = ['translation', 'graphic design', 'driving', 'childcare', 'cooking'];

/** The kind named `singular` of the registry (the seed cannot go on without it). */
function kindOf(registry: KindRegistry, singular: string): ResourceKind {
  const kind = registry.bySingular(singular);
  if (!kind) throw new Error(`the registry has no kind ${singular}`);
  return kind;
}

/** The tenant's records of `kind`, oldest first (at most `limit`). */
function recordsOf(
  storage: Storage,
  tenant: Tenant,
  kind: string,
  limit: number,
): Promise<StoredRecord[]> {
  return storage.records.list({ tenantId: tenant.id, kind, limit, offset: 0 });
}

/** `count` distinct values of `values`, chosen with `random`. */
function sample<T>(random: () => number, values: readonly T[], count: number): T[] {
  const copy = [...values];
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, n);
}

/** A campaign as Action Network's interface makes it: written to storage directly. */
async function insertCampaign(
  storage: Storage,
  tenant: Tenant,
  kind: ResourceKind,
  fields: JsonObject,
  actions: readonly StoredRecord[],
  now: Date,
): Promise<void> {
  const id = newRecordId();
  const identifiers = [localIdentifier(tenant.namespace, id)];
  const stamp = now.toISOString();
  const listed = actions
    .filter((action) => typeof action.doc.title === 'string')
    .map((action) => ({
      title: action.doc.title,
      ...(typeof action.doc.browser_url === 'string'
        ? { browser_url: action.doc.browser_url }
        : {}),
    }));
  const doc = composeDocument(identifiers, stamp, stamp, {
    ...kind.parse(fields),
    actions: listed,
  });
  await storage.records.insert({
    tenantId: tenant.id,
    kind: kind.singular,
    id,
    doc,
    created_date: stamp,
    modified_date: stamp,
    identifiers,
  });
}

/**
 * Adds the demo records of Action Network's own collections to a tenant, in one
 * transaction. Call it after `seedPeople` and `seedActivity`: the campaigns gather the
 * tenant's petitions, forms and event campaigns, and people RSVP and get custom fields.
 * Without people, the event campaigns, events and campaigns are still written.
 *
 * @returns The number of records written, by kind.
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_PRESET, defaultRegistry, openStorage, seedActivity, seedPeople } from 'adis-server';
 * import { seedActionNetwork } from './seed.js';
 *
 * const storage = openStorage(':memory:', { defaultNamespace: 'action_network' });
 * await seedPeople(storage, { tenant: 'demo', count: 100 });
 * await seedActivity(storage, { tenant: 'demo' });
 * const registry = defaultRegistry(ACTION_NETWORK_PRESET);
 * (await seedActionNetwork(storage, { tenant: 'demo', registry })).event_campaign; // 2
 * ```
 */
export function seedActionNetwork(
  storage: Storage,
  options: ActionNetworkSeedOptions,
): Promise<ActionNetworkSeedCounts> {
  const { registry } = options;
  const records = new RecordService(storage, registry);
  const now = options.now ?? new Date();
  const random = prng(options.seed ?? 1);
  const counts: ActionNetworkSeedCounts = {
    event_campaign: 0,
    event: 0,
    attendance: 0,
    campaign: 0,
    unique_id_list: 0,
    people_given_custom_fields: 0,
  };
  const [campaignKind, eventKind, attendanceKind, personKind, campaignPageKind, listKind] = [
    'event_campaign',
    'event',
    'attendance',
    'person',
    'campaign',
    'unique_id_list',
  ].map((singular) => kindOf(registry, singular)) as [
    ResourceKind,
    ResourceKind,
    ResourceKind,
    ResourceKind,
    ResourceKind,
    ResourceKind,
  ];
  return storage.transaction(async () => {
    const tenant = await storage.tenants.ensure(options.tenant);
    const people = await recordsOf(storage, tenant, 'person', options.people ?? 60);
    const create = (kind: ResourceKind, fields: JsonObject, createOptions: CreateOptions = {}) =>
      // Demo data, not acts: a subscriber is not sent the seeding as webhook events.
      records.create(tenant, kind, kind.parse(fields), { now, event: false, ...createOptions });

    const eventCampaigns: StoredRecord[] = [];
    const rsvps = new Set<string>();
    for (const spec of EVENT_CAMPAIGNS) {
      const campaign = await create(campaignKind, spec.fields);
      eventCampaigns.push(campaign);
      counts.event_campaign++;
      for (const event of spec.events) {
        const start = new Date(now.getTime() + event.inDays * DAY);
        const created = await create(
          eventKind,
          {
            title: event.title,
            start_date: start.toISOString(),
            location: { venue: event.venue, locality: 'Brooklyn', region: 'NY', country: 'US' },
          },
          {
            parent: {
              rel: EVENT_CAMPAIGN_REFERENCE,
              ref: { kind: campaignKind.singular, id: campaign.id },
            },
          },
        );
        counts.event++;
        for (const person of sample(random, people, 2 + Math.floor(random() * 6))) {
          const links: LinkInput = {
            person: { plural: personKind.plural, id: person.id },
            event: { plural: eventKind.plural, id: created.id },
          };
          await create(attendanceKind, { status: 'accepted' }, { links });
          counts.attendance++;
          rsvps.add(person.id);
        }
      }
    }

    for (const person of sample(random, people, Math.ceil(people.length / 3))) {
      const custom_fields = {
        ward: WARDS[Math.floor(random() * WARDS.length)],
        ...(random() < 0.5
          ? { volunteer_skill: SKILLS[Math.floor(random() * SKILLS.length)] }
          : {}),
      };
      await records.update(tenant, personKind, person.id, personKind.parse({ custom_fields }), {
        now,
      });
      counts.people_given_custom_fields++;
    }

    if (rsvps.size > 0) {
      await create(listKind, { name: 'RSVPs to the event campaigns', unique_ids: [...rsvps] });
      counts.unique_id_list++;
    }

    const petitions = await recordsOf(storage, tenant, 'petition', 10);
    const forms = await recordsOf(storage, tenant, 'form', 10);
    await insertCampaign(
      storage,
      tenant,
      campaignPageKind,
      {
        title: 'Save Willow Bend Park',
        name: 'save-willow-bend',
        description: '<p>Everything you can do this autumn to keep the park public.</p>',
        browser_url: `${PARK_SITE}/campaign`,
      },
      [...petitions.slice(0, 1), ...forms.slice(0, 1), eventCampaigns[0] as StoredRecord],
      now,
    );
    await insertCampaign(
      storage,
      tenant,
      campaignPageKind,
      {
        title: 'Repairs Now at Riverside Towers',
        name: 'repairs-now',
        description: '<p>Document, meet, and press the landlord together.</p>',
        browser_url: `${UNION_SITE}/repairs`,
      },
      [...petitions.slice(1, 2), ...forms.slice(1, 2), eventCampaigns[1] as StoredRecord],
      now,
    );
    counts.campaign += 2;
    return counts;
  });
}

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
 * as always.
 *
 * With no people in the tenant, only the records that need no person are created
 * (organizations, petitions, forms, pages, events, questions, wrappers, messages, tags,
 * lists, the query, a list item for an organization and the taggings of petitions);
 * every action a person takes (signatures, submissions, donations, outreaches,
 * attendances, answers, canvasses, person taggings and list items) is skipped.
 */
import { ALL_KINDS } from './domain/catalog.js';
import { KindRegistry } from './domain/kinds.js';
import { type LinkInput, RecordService } from './domain/records.js';
import { prng } from './seed.js';
import type { JsonObject, Storage, StoredRecord, Tenant } from './storage/storage.js';

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
 *
 * @example
 * ```ts
 * ACTIVITY_KINDS.includes('signature'); // true
 * ```
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

const DAY = 86_400_000;
const ZONE = 'America/New_York';
const PARK_SITE = 'https://willowbendpark.example.org';
const UNION_SITE = 'https://riversidetenants.example.org';

/** The registry of every kind of the specification, without the HTTP layer. */
function catalogRegistry(): KindRegistry {
  const registry = new KindRegistry();
  for (const kind of ALL_KINDS) registry.register(kind);
  return registry;
}

/** PRNG-driven choices. */
class Chooser {
  constructor(private readonly random: () => number) {}

  /** An integer from `low` to `high`, both included. */
  int(low: number, high: number): number {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)] as T;
  }

  /** `count` distinct values (fewer when there are fewer), in random order. */
  sample<T>(values: readonly T[], count: number): T[] {
    const copy = [...values];
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.random() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.random() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.random() * 16).toString(16);
    return out;
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** UTC offset of `timeZone` at `at`, as `-04:00`. */
function offsetOf(timeZone: string, at: Date): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return /GMT([+-]\d{2}:\d{2})/.exec(name ?? '')?.[1] ?? '+00:00';
}

/** The calendar day `days` after `now` (UTC), as `YYYY-MM-DD`. */
function dayAfter(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY).toISOString().slice(0, 10);
}

/** First day at least `minDays` after `now` that falls on `weekday` (0 = Sunday). */
function nextWeekday(now: Date, minDays: number, weekday: number): number {
  let days = minDays;
  while (new Date(now.getTime() + days * DAY).getUTCDay() !== weekday) days += 1;
  return days;
}

/** Local wall-clock time in the group's time zone, with the right offset for that day. */
function localTime(now: Date, days: number, hour: number, minute = 0): string {
  const day = dayAfter(now, days);
  const offset = offsetOf(ZONE, new Date(`${day}T12:00:00Z`));
  return `${day}T${pad(hour)}:${pad(minute)}:00${offset}`;
}

/** Cents, as money is written: two decimals at most. */
function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

function fullName(person: StoredRecord): string {
  return [person.doc.given_name, person.doc.family_name].filter(Boolean).join(' ');
}

/** Creates records through the domain layer and counts them. */
class Creator {
  readonly counts: ActivityCounts = Object.fromEntries(ACTIVITY_KINDS.map((kind) => [kind, 0]));

  constructor(
    private readonly records: RecordService,
    private readonly registry: KindRegistry,
    private readonly tenant: Tenant,
    private readonly now: Date,
  ) {}

  /**
   * Validates `fields` with the kind's write schema and creates the record with links
   * to `links` (relations whose record is undefined are left out).
   */
  create(
    singular: string,
    fields: JsonObject,
    links: Record<string, StoredRecord | undefined> = {},
  ): StoredRecord {
    const kind = this.registry.bySingular(singular);
    if (!kind) throw new Error(`the registry has no kind ${singular}`);
    const input: Record<string, { plural: string; id: string }> = {};
    for (const [rel, target] of Object.entries(links)) {
      if (!target) continue;
      const targetKind = this.registry.bySingular(target.kind);
      if (!targetKind) throw new Error(`the registry has no kind ${target.kind}`);
      input[rel] = { plural: targetKind.plural, id: target.id };
    }
    const record = this.records.create(this.tenant, kind, kind.parse(fields), {
      links: input as LinkInput,
      now: this.now,
      // Demo data, not acts: a subscriber is not sent the seeding as webhook events.
      event: false,
    });
    this.counts[singular] = (this.counts[singular] ?? 0) + 1;
    return record;
  }
}

const SIGNATURE_COMMENTS: Record<string, readonly string[]> = {
  park: [
    'My kids learned to ride their bikes in Willow Bend.',
    'We need more green space, not another parking garage.',
    'I walk my dog there every morning. Keep it public!',
    'The old oaks by the pond are irreplaceable.',
    'Parks are for people, not developers.',
    'Our block has no other place to breathe in the summer.',
  ],
  rent: [
    'My rent went up 18% last year with no repairs.',
    'We have lived in Riverside Towers for 22 years. We want to stay.',
    'Stable rents keep our neighbourhood together.',
    'The heat was off for two weeks in January.',
    'Seniors in our building are being pushed out.',
  ],
  crosswalk: [
    'A car nearly hit my daughter at this corner.',
    'Drivers never stop at Atlantic and Vanderbilt.',
    'Please add a leading pedestrian interval.',
    'I cross here with a stroller every day. It is terrifying.',
  ],
};

const REFERRERS = [
  { source: 'email-newsletter', website: 'riversidetenants.example.org' },
  { source: 'facebook', website: 'facebook.com' },
  { source: 'door-to-door', referrer: 'canvass team' },
  { source: 'website', website: 'willowbendpark.example.org' },
  { source: 'sms', referrer: 'text blast' },
] as const;

/** A petition's, page's or campaign's share options, with per-network share counts. */
function shareOptions(
  choose: Chooser,
  text: { title: string; description: string; message: string; subject: string; body: string },
  url: string,
  image: string,
): JsonObject[] {
  return [
    {
      network_a_share: {
        title: text.title,
        description: text.description,
        image,
        total_shares: choose.int(40, 220),
      },
      network_b_share: { message: text.message, total_shares: choose.int(10, 90) },
      email_share: { subject: text.subject, body: text.body, total_shares: choose.int(60, 300) },
      mastodon_share: { message: `${text.message} #Brooklyn`, total_shares: choose.int(3, 40) },
    },
    {
      network_b_share: {
        message: `${text.title}: ${url}`,
        share_url: `${url}?utm_source=short`,
        total_shares: choose.int(5, 40),
      },
    },
  ];
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
 * const storage = openStorage(':memory:');
 * seedPeople(storage, { tenant: 'demo', count: 100 });
 * const counts = seedActivity(storage, { tenant: 'demo', seed: 7 });
 * counts.petition; // 3
 * ```
 */
export function seedActivity(storage: Storage, options: ActivitySeedOptions): ActivityCounts {
  const registry = options.registry ?? catalogRegistry();
  const now = options.now ?? new Date();
  return storage.transaction(() => {
    const tenant = storage.ensureTenant(options.tenant);
    const people = storage.listRecords({
      tenantId: tenant.id,
      kind: 'person',
      limit: options.people ?? 60,
      offset: 0,
    });
    const choose = new Chooser(prng(options.seed ?? 1));
    const creator = new Creator(new RecordService(storage, registry), registry, tenant, now);
    seedAll(creator, choose, people, now);
    return creator.counts;
  });
}

/** An ISO instant `days` (fractional) before `now`. */
function ago(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY).toISOString();
}

function seedAll(creator: Creator, choose: Chooser, people: StoredRecord[], now: Date): void {
  const create = creator.create.bind(creator);
  const [organizer, secondOrganizer] = people;
  /** A random person, or undefined when there are none. */
  const anyone = () => (people.length ? choose.pick(people) : undefined);
  /** A random moment within the last `days` days. */
  const recently = (days: number) => ago(now, choose.int(1, days * 24 * 60) / (24 * 60));

  // Organizations.
  const parkFriends = create('organization', {
    organization: 'Friends of Willow Bend Park',
    legal_status: 'c3',
    summary: 'Neighbours who care for, and defend, Willow Bend Park.',
    description:
      'Since 2009 the Friends of Willow Bend Park have planted trees, run monthly cleanups and ' +
      'organized the neighbourhood against plans to sell part of the park for development.',
    site_url: PARK_SITE,
    logo_image_url: `${PARK_SITE}/logo.png`,
    languages_spoken: ['en', 'es'],
    email_addresses: [{ primary: true, address: 'hello@willowbendpark.example.org' }],
    phone_numbers: [{ primary: true, number: '17185550142', number_type: 'Work' }],
    postal_addresses: [
      {
        primary: true,
        address_type: 'Mailing',
        address_lines: ['PO Box 2231'],
        locality: 'Brooklyn',
        region: 'NY',
        postal_code: '11217',
        country: 'US',
      },
    ],
    profiles: [
      {
        provider: 'Mastodon',
        handle: 'willowbendpark',
        url: 'https://mastodon.example/@willowbendpark',
      },
    ],
  });
  const tenantsUnion = create('organization', {
    organization: 'Riverside Tenants Union',
    legal_status: 'unofficial',
    summary: 'Tenants of Riverside Towers organizing for repairs and fair rents.',
    description:
      'A volunteer-run union of the 400 households of Riverside Towers. We hold building ' +
      'meetings, document repairs, and bargain with the landlord together.',
    site_url: UNION_SITE,
    languages_spoken: ['en', 'es', 'zh'],
    email_addresses: [{ primary: true, address: 'organize@riversidetenants.example.org' }],
    phone_numbers: [{ primary: true, number: '17185550178', number_type: 'Mobile' }],
    postal_addresses: [
      {
        primary: true,
        address_type: 'Work',
        venue: 'Riverside Towers community room',
        address_lines: ['145 Riverside Terrace'],
        locality: 'Brooklyn',
        region: 'NY',
        postal_code: '11201',
        country: 'US',
      },
    ],
    custom_fields: { founded: '2019', households: '400' },
  });

  // Petitions and signatures.
  const petitionSpecs = [
    {
      key: 'park',
      sponsor: parkFriends,
      fields: {
        title: 'Keep Willow Bend Park Public',
        name: 'willow-bend-2026',
        summary: 'Stop the sale of the north meadow of Willow Bend Park.',
        description:
          'The city plans to lease the north meadow, a quarter of the park, to a developer ' +
          'for a parking garage. Tell the Borough President and the Parks Department: no sale.',
        petition_text:
          'We, residents of Brooklyn, ask the Borough President and the NYC Parks Department to ' +
          'withdraw the proposed lease of the Willow Bend Park north meadow and keep the whole ' +
          'park public, green and open to all.',
        target: [
          { name: 'Brooklyn Borough President' },
          { name: 'NYC Department of Parks & Recreation' },
        ],
        browser_url: `${PARK_SITE}/petition`,
        featured_image_url: `${PARK_SITE}/images/north-meadow.jpg`,
        share_url: `${PARK_SITE}/petition`,
      },
      share: {
        title: 'Keep Willow Bend Park Public',
        description: 'A quarter of our park could become a parking garage. Sign to stop it.',
        message: 'I just signed to keep Willow Bend Park public. Will you?',
        subject: 'Save the north meadow of Willow Bend Park',
        body: 'Hi! The city wants to lease part of Willow Bend Park to a developer. Please sign: {share_url}',
      },
    },
    {
      key: 'rent',
      sponsor: undefined,
      fields: {
        title: 'Fair Rents and Real Repairs at Riverside Towers',
        name: 'riverside-rents',
        summary: 'Tenants ask the owner for a rent freeze until repairs are made.',
        petition_text:
          'We, the tenants of Riverside Towers, ask Harborline Properties to freeze rents until ' +
          'every open repair request is fixed, and the Rent Guidelines Board to hold the owner to it.',
        target: [{ name: 'Harborline Properties LLC' }, { name: 'NYC Rent Guidelines Board' }],
        browser_url: `${UNION_SITE}/petition`,
      },
      share: undefined,
    },
    {
      key: 'crosswalk',
      sponsor: undefined,
      fields: {
        title: 'Safe Crosswalks on Atlantic Avenue',
        name: 'atlantic-crosswalks',
        summary: 'Daylighting and a signal at Atlantic and Vanderbilt before someone is hurt.',
        petition_text:
          'We ask the Department of Transportation to install a pedestrian signal, daylighting and ' +
          'a raised crosswalk at Atlantic Avenue and Vanderbilt Avenue this year.',
        target: [
          { name: 'NYC Department of Transportation' },
          { name: 'Council Member, District 35' },
        ],
      },
      share: undefined,
    },
  ] as const;
  const petitions: StoredRecord[] = [];
  for (const spec of petitionSpecs) {
    const fields: JsonObject = { ...spec.fields };
    if (spec.share) {
      fields.share_options = shareOptions(
        choose,
        spec.share,
        String(spec.fields.browser_url),
        String(spec.fields.featured_image_url),
      );
    }
    const petition = create('petition', fields, { creator: anyone(), sponsor: spec.sponsor });
    petitions.push(petition);
    const comments = SIGNATURE_COMMENTS[spec.key] ?? [];
    for (const signer of choose.sample(people, choose.int(10, 40))) {
      const signature: JsonObject = {
        action_date: recently(30),
        origin_system: 'ADIS demo',
        referrer_data: { ...choose.pick(REFERRERS) },
      };
      if (choose.chance(0.35)) signature.comments = choose.pick(comments);
      create('signature', signature, { person: signer, petition });
    }
  }

  // Forms and submissions.
  const cleanupForm = create(
    'form',
    {
      title: 'Volunteer for the Park Cleanup Day',
      name: 'cleanup-volunteers',
      summary: 'Gloves, bags and coffee provided.',
      description: 'Tell us when you can help and what you would like to do on cleanup day.',
      call_to_action: 'Sign me up',
      browser_url: `${PARK_SITE}/volunteer`,
    },
    { creator: organizer },
  );
  const repairForm = create(
    'form',
    {
      title: 'Riverside Towers Repair Survey',
      name: 'repair-survey',
      summary: 'Document every repair the landlord owes, apartment by apartment.',
      description:
        'We bring these reports to the owner and to HPD. Your answers are shared only with the ' +
        'union repair committee.',
      call_to_action: 'Report a repair',
      browser_url: `${UNION_SITE}/repairs`,
    },
    { creator: secondOrganizer },
  );
  for (const person of choose.sample(people, choose.int(8, 18))) {
    create(
      'submission',
      {
        action_date: recently(21),
        referrer_data: { ...choose.pick(REFERRERS) },
        custom_fields: {
          availability: choose.pick(['morning', 'afternoon', 'all day']),
          task: choose.pick(['litter pickup', 'planting', 'registration table', 'photography']),
          shirt_size: choose.pick(['S', 'M', 'L', 'XL']),
        },
      },
      { person, form: cleanupForm },
    );
  }
  for (const person of choose.sample(people, choose.int(8, 18))) {
    create(
      'submission',
      {
        action_date: recently(45),
        custom_fields: {
          building: choose.pick(['A', 'B', 'C']),
          floor: String(choose.int(1, 14)),
          issue: choose.pick(['no heat', 'leak', 'mold', 'pests', 'broken intercom', 'elevator']),
          reported_to_landlord: choose.pick(['yes', 'no']),
        },
      },
      { person, form: repairForm },
    );
  }

  // Fundraising pages and donations.
  const pages = [
    create(
      'fundraising_page',
      {
        title: 'Willow Bend Park Legal Defense Fund',
        name: 'park-legal-fund',
        summary: 'Help us take the north meadow lease to court.',
        description:
          'Every dollar pays for land-use attorneys and the environmental review challenge.',
        currency: 'USD',
        browser_url: `${PARK_SITE}/donate`,
        share_url: `${PARK_SITE}/donate`,
      },
      { creator: organizer },
    ),
    create(
      'fundraising_page',
      {
        title: 'Tenant Emergency Relief Fund',
        name: 'tenant-relief',
        summary: 'Space heaters, hotel nights and legal fees for neighbours in crisis.',
        currency: 'USD',
        browser_url: `${UNION_SITE}/relief`,
      },
      { creator: secondOrganizer },
    ),
  ];
  const pageRecipients = [
    [
      {
        display_name: 'Friends of Willow Bend Park',
        legal_name: 'Friends of Willow Bend Park Inc.',
        share: 1,
      },
    ],
    [
      {
        display_name: 'Riverside Tenants Union',
        legal_name: 'Riverside Tenants Union',
        share: 0.8,
      },
      {
        display_name: 'Brooklyn Housing Legal Aid',
        legal_name: 'Brooklyn Housing Legal Aid Society',
        share: 0.2,
      },
    ],
  ] as const;
  const donors: StoredRecord[] = [];
  pages.forEach((page, pageIndex) => {
    const recipients = pageRecipients[pageIndex] ?? [];
    const donations = choose.sample(people, choose.int(6, 15));
    donations.forEach((donor, donationIndex) => {
      const base = choose.pick([10, 15, 20, 25, 35, 50, 75, 100, 150, 250]);
      // Many donors cover the card fee (2.9% + $0.30), so amounts carry cents.
      const coverFee = choose.chance(0.4);
      const amount = coverFee ? cents(base * 1.029 + 0.3) : base;
      let left = amount;
      const shares = recipients.map((recipient, index) => {
        const share = index === recipients.length - 1 ? left : cents(amount * recipient.share);
        left = cents(left - share);
        return {
          display_name: recipient.display_name,
          legal_name: recipient.legal_name,
          amount: share,
        };
      });
      const method = choose.weighted([
        ['Credit Card', 6],
        ['Check', 2],
        ['Cash', 1],
      ] as const);
      const actionDate = recently(60);
      const donation: JsonObject = {
        action_date: actionDate,
        amount,
        currency: 'USD',
        recipients: shares,
        payment:
          method === 'Credit Card'
            ? {
                method,
                reference_number: `ch_${choose.hex(16)}`,
                authorization_stored: choose.chance(0.3),
              }
            : method === 'Check'
              ? { method, reference_number: String(choose.int(1001, 4999)) }
              : { method },
        referrer_data: { ...choose.pick(REFERRERS) },
      };
      if (choose.chance(0.15)) donation.subscription_instance = `monthly-${choose.hex(8)}`;
      // The first page's second donation bounced: voided, it no longer counts.
      if (pageIndex === 0 && donationIndex === 1) {
        donation.voided = true;
        donation.voided_date = new Date(Date.parse(actionDate) + 2 * DAY).toISOString();
      } else if (!donors.includes(donor)) {
        donors.push(donor);
      }
      create('donation', donation, { person: donor, fundraising_page: page });
    });
  });

  // Share page.
  create(
    'share_page',
    {
      title: 'Tell your neighbours about Willow Bend',
      name: 'share-willow-bend',
      description: 'Spread the word before the Parks Department hearing.',
      share_url: `${PARK_SITE}/join`,
      share_options: shareOptions(
        choose,
        {
          title: 'Willow Bend Park needs you',
          description: 'The hearing on the north meadow lease is coming up. Join us.',
          message: 'Our park is on the line. Join the Friends of Willow Bend Park:',
          subject: 'Can you come to the park hearing?',
          body: 'The city wants to lease part of Willow Bend Park. Find out how to help: {share_url}',
        },
        `${PARK_SITE}/join`,
        `${PARK_SITE}/images/pond.jpg`,
      ),
    },
    { creator: organizer },
  );

  // Advocacy campaign and outreaches.
  const councilMember = {
    title: 'Council Member',
    organization: 'New York City Council',
    given_name: 'Denise',
    family_name: 'Harlow',
    ocdid: 'ocd-division/country:us/state:ny/place:new_york/council_district:35',
    email_addresses: [{ primary: true, address: 'district35@council.example.gov' }],
    phone_numbers: [{ primary: true, number: '17185550135', number_type: 'Work' }],
    postal_addresses: [
      {
        primary: true,
        address_type: 'Work',
        address_lines: ['1 Hanson Place, Suite 304'],
        locality: 'Brooklyn',
        region: 'NY',
        postal_code: '11243',
        country: 'US',
      },
    ],
  };
  const boroughPresident = {
    title: 'Borough President',
    organization: 'Office of the Brooklyn Borough President',
    given_name: 'Marcus',
    family_name: 'Whitfield',
    ocdid: 'ocd-division/country:us/state:ny/place:new_york/borough:brooklyn',
    phone_numbers: [{ primary: true, number: '17185550100', number_type: 'Work' }],
  };
  const campaign = create(
    'advocacy_campaign',
    {
      title: 'Call Council Member Harlow: No Lease for the North Meadow',
      name: 'call-harlow',
      summary: 'The council votes on the lease next month. Ask your council member to vote no.',
      type: 'phone',
      templates: [
        'Hello, my name is {given_name} and I live in District 35. I am calling to ask the Council ' +
          'Member to vote NO on the Willow Bend Park north meadow lease. Thank you.',
      ],
      targets: 'Brooklyn elected officials who decide on the park lease',
      target_list: [councilMember, boroughPresident],
      browser_url: `${PARK_SITE}/call`,
    },
    { creator: organizer },
  );
  const callNotes = [
    'Staffer took my name and said the Council Member is still undecided.',
    'Left a voicemail with the script.',
    'Spoke to the scheduler; asked for a meeting with the park coalition.',
    'They said they have received many calls about the park.',
    'Line was busy twice, got through on the third try.',
  ];
  for (const caller of choose.sample(people, choose.int(8, 16))) {
    const target = choose.chance(0.75) ? councilMember : boroughPresident;
    create(
      'outreach',
      {
        action_date: recently(14),
        type: 'phone',
        duration: choose.int(25, 420),
        notes: choose.pick(callNotes),
        targets: [
          { title: target.title, given_name: target.given_name, family_name: target.family_name },
        ],
      },
      { person: caller, advocacy_campaign: campaign },
    );
  }

  // Events and attendances.
  const dinnerDay = nextWeekday(now, 18, 5);
  const ticketLevels = [
    {
      title: 'Sliding scale',
      description: 'Pay what you can; no one turned away.',
      amount: 15,
      currency: 'USD',
      limit: 80,
    },
    {
      title: 'Supporter',
      description: 'Covers your dinner and a neighbour’s.',
      amount: 40,
      currency: 'USD',
      limit: 40,
    },
    {
      title: 'Building sponsor',
      description: 'Dinner plus a shout-out for your building.',
      amount: 100,
      currency: 'USD',
      limit: 10,
    },
  ];
  const dinner = create(
    'event',
    {
      title: 'Riverside Tenants Union Community Dinner',
      name: 'community-dinner',
      summary: 'Food, music and a year of tenant wins. Tickets fund the relief fund.',
      description:
        'Join your neighbours for a home-cooked dinner from the Towers’ best cooks, a short ' +
        'program on the rent campaign, and live music from the Bergen Street Band.',
      type: 'ticketed',
      ticket_levels: ticketLevels,
      status: 'confirmed',
      start_date: localTime(now, dinnerDay, 18, 30),
      end_date: localTime(now, dinnerDay, 21, 30),
      timezone_identifier: ZONE,
      capacity: 130,
      visibility: 'public',
      instructions: 'Enter through the courtyard door; the hall is step-free.',
      location: {
        venue: 'St. Brendan’s Community Hall',
        address_lines: ['210 Dean Street'],
        locality: 'Brooklyn',
        region: 'NY',
        postal_code: '11217',
        country: 'US',
        location: { latitude: 40.6835, longitude: -73.9799, accuracy: 'Rooftop' },
        public: true,
      },
      contact: {
        name: 'Riverside Tenants Union events team',
        email_address: 'events@riversidetenants.example.org',
        phone_number: '17185550178',
        public: true,
      },
      reminders: [
        { method: 'email', minutes: 2880 },
        { method: 'sms', minutes: 120 },
      ],
      browser_url: `${UNION_SITE}/dinner`,
    },
    { creator: secondOrganizer, sponsor: tenantsUnion },
  );
  for (const buyer of choose.sample(people, choose.int(10, 20))) {
    const tickets: JsonObject[] = [];
    const count = choose.weighted([
      [1, 5],
      [2, 4],
      [3, 1],
    ] as const);
    for (let i = 0; i < count; i++) {
      const level = choose.weighted([
        [ticketLevels[0], 6],
        [ticketLevels[1], 3],
        [ticketLevels[2], 1],
      ] as const);
      if (!level) continue;
      tickets.push({ title: level.title, amount: level.amount, currency: level.currency });
    }
    create(
      'attendance',
      {
        action_date: recently(10),
        status: 'accepted',
        tickets,
        referrer_data: { ...choose.pick(REFERRERS) },
      },
      { person: buyer, event: dinner },
    );
  }

  const cleanupDay = nextWeekday(now, 9, 6);
  const cleanup = create(
    'event',
    {
      title: 'Cleanup Day at Willow Bend Park',
      name: 'park-cleanup',
      summary: 'Four hours, fifty neighbours, one cleaner park.',
      description:
        'We will clear litter from the pond edge, mulch the new trees and weed the native plant beds along ' +
        'the north meadow path. Kids welcome with an adult.',
      type: 'open',
      status: 'confirmed',
      start_date: localTime(now, cleanupDay, 10),
      end_date: localTime(now, cleanupDay, 14),
      timezone_identifier: ZONE,
      capacity: 60,
      guests_can_invite_others: true,
      visibility: 'public',
      instructions: 'Meet at the boathouse. Wear closed shoes; gloves are provided.',
      location: {
        venue: 'Willow Bend Park boathouse',
        address_lines: ['Willow Bend Park, Prospect Place entrance'],
        locality: 'Brooklyn',
        region: 'NY',
        postal_code: '11238',
        country: 'US',
        location: { latitude: 40.6761, longitude: -73.9665, accuracy: 'Approximate' },
        public: true,
      },
      contact: {
        name: 'Friends of Willow Bend Park',
        email_address: 'hello@willowbendpark.example.org',
        public: true,
      },
      reminders: [{ method: 'email', minutes: 1440 }],
      browser_url: `${PARK_SITE}/cleanup`,
    },
    { creator: organizer, sponsor: parkFriends },
  );
  const rsvpComments = [
    'Bringing my two kids.',
    'I can bring extra rakes.',
    'Might be late, coming from work.',
    'Happy to help with registration.',
  ];
  for (const person of choose.sample(people, choose.int(15, 30))) {
    const status = choose.weighted([
      ['accepted', 12],
      ['tentative', 3],
      ['declined', 3],
      ['needs action', 2],
    ] as const);
    const rsvp: JsonObject = { action_date: recently(7), status };
    if (status === 'accepted' && choose.chance(0.25)) rsvp.comment = choose.pick(rsvpComments);
    create('attendance', rsvp, { person, event: cleanup });
  }

  const rightsDay = nextWeekday(now, 30, 6);
  const rightsFair = create(
    'event',
    {
      title: 'Know Your Rights Day for Tenants',
      name: 'know-your-rights',
      summary: 'Free legal clinics, repair-log workshops and translation all day.',
      description:
        'Drop in any time: volunteer lawyers answer questions on leases, repairs and evictions. ' +
        'Workshops in English, Spanish and Mandarin.',
      type: 'open',
      status: 'tentative',
      all_day: true,
      all_day_date: dayAfter(now, rightsDay),
      timezone_identifier: ZONE,
      transparence: 'transparent',
      visibility: 'public',
      location: {
        venue: 'Riverside Towers community room',
        address_lines: ['145 Riverside Terrace'],
        locality: 'Brooklyn',
        region: 'NY',
        postal_code: '11201',
        country: 'US',
        language: 'en',
        public: false,
      },
      contact: {
        name: 'Union repair committee',
        email_address: 'repairs@riversidetenants.example.org',
        additional_info: 'Call or text for interpretation requests.',
        phone_number: '17185550179',
        public: false,
      },
      reminders: [
        { method: 'email', minutes: 10080 },
        { method: 'sms', minutes: 1440 },
      ],
    },
    { creator: secondOrganizer, sponsor: tenantsUnion },
  );
  for (const person of choose.sample(people, choose.int(4, 10))) {
    create(
      'attendance',
      { action_date: recently(5), status: choose.pick(['accepted', 'tentative'] as const) },
      { person, event: rightsFair },
    );
  }

  // Questions and answers (some recorded by canvasses, below).
  const gardenQuestion = create(
    'question',
    {
      title: 'Should the old parking lot by the park become a community garden?',
      name: 'garden-support',
      description: 'Asked at the door and at events, to show the council there is support.',
      question_type: 'SingleChoice',
      responses: [
        { key: 'yes', name: 'Supports the garden', title: 'Yes' },
        { key: 'no', name: 'Opposes the garden', title: 'No' },
        { key: 'unsure', name: 'Undecided', title: 'Not sure yet' },
      ],
    },
    { creator: organizer },
  );
  const repairQuestion = create(
    'question',
    {
      title: 'What repair does your apartment need most urgently?',
      name: 'urgent-repair',
      question_type: 'Paragraph',
    },
    { creator: secondOrganizer },
  );
  const gardenChoice = () =>
    choose.weighted([
      ['yes', 7],
      ['no', 1],
      ['unsure', 2],
    ] as const);
  for (const person of choose.sample(people, choose.int(10, 20))) {
    create(
      'answer',
      {
        action_date: recently(20),
        origin_system: 'Event sign-in sheet',
        responses: [gardenChoice()],
      },
      { person, question: gardenQuestion },
    );
  }
  const repairs = [
    'The radiator in the bedroom has not worked since November.',
    'Water leaks from the upstairs bathroom into our kitchen ceiling.',
    'Mice in the kitchen; the exterminator never came back.',
    'The front door lock is broken, anyone can walk in.',
    'Black mold behind the shower tiles.',
    'The elevator is out every other week and I live on the 11th floor.',
  ];
  for (const person of choose.sample(people, choose.int(6, 12))) {
    create(
      'answer',
      { action_date: recently(30), value: choose.pick(repairs) },
      { person, question: repairQuestion },
    );
  }

  // Wrappers and draft messages.
  const emailWrapper = create('wrapper', {
    name: 'Standard email wrapper',
    wrapper_type: 'email',
    default: true,
    header:
      '<div style="background:#2f6b3b;color:#fff;padding:12px"><strong>Friends of Willow Bend Park</strong></div>',
    footer:
      '<p style="font-size:12px">Friends of Willow Bend Park · PO Box 2231 · Brooklyn, NY 11217<br>' +
      '<a href="{unsubscribe_url}">Unsubscribe</a></p>',
  });
  const smsWrapper = create('wrapper', {
    name: 'SMS sign-off',
    wrapper_type: 'sms',
    default: false,
    header: 'Riverside Tenants:',
    footer: 'Reply STOP to opt out.',
  });

  // Who the canvassers will visit (below): a successful visit tags them as volunteers,
  // so they are left out of the volunteers tagged here.
  const canvassSpecs = [
    { success: true, contact_type: 'door', input_type: 'mobile_app' },
    { success: true, contact_type: 'phone', input_type: 'data_entry' },
    { success: false, contact_type: 'door', input_type: 'paper_scan', status_code: 'not_home' },
  ] as const;
  const targets = choose.sample(people, canvassSpecs.length);

  // Tags and taggings.
  const tagSpecs = [
    ['Volunteer', 'Has volunteered at a cleanup, phone bank or event.'],
    ['Donor', 'Has made at least one donation that was not voided.'],
    ['Building captain', 'Organizes a floor or building at Riverside Towers.'],
    ['Priority campaign', 'A campaign the steering committee focuses on this season.'],
  ] as const;
  const [volunteer, donorTag, captain, priority] = tagSpecs.map(([name, description]) =>
    create('tag', { name, description }),
  );
  const notVisited = people.filter((person) => !targets.includes(person));
  for (const person of choose.sample(notVisited, choose.int(10, 18))) {
    create('tagging', { origin_system: 'ADIS demo' }, { tag: volunteer, person });
  }
  for (const person of donors) create('tagging', {}, { tag: donorTag, person });
  for (const person of choose.sample(people, Math.min(5, people.length))) {
    create('tagging', {}, { tag: captain, person });
  }
  for (const petition of petitions.slice(0, 2)) {
    create('tagging', {}, { tag: priority, petition });
  }

  // Lists and items.
  const phoneTree = create(
    'list',
    {
      name: 'Park hearing phone tree',
      title: 'Willow Bend Park hearing phone tree',
      description: 'Neighbours who will call five others before the lease hearing.',
    },
    { creator: organizer },
  );
  const residents = create(
    'list',
    {
      name: 'Riverside Towers residents',
      description: 'Union members and contacts living in buildings A, B and C.',
    },
    { creator: secondOrganizer },
  );
  create('item', {}, { list: phoneTree, organization: parkFriends });
  for (const person of choose.sample(people, choose.int(8, 14))) {
    create('item', {}, { list: phoneTree, person });
  }
  create('item', {}, { list: residents, organization: tenantsUnion });
  for (const person of choose.sample(people, choose.int(10, 18))) {
    create('item', {}, { list: residents, person });
  }

  // A saved query.
  const recentQuery = create(
    'query',
    {
      name: 'Recently active supporters',
      title: 'People added or changed in the last 30 days',
      description: 'Used for the weekly welcome email.',
      filter: `modified_date gt '${ago(now, 30)}'`,
    },
    { creator: organizer },
  );

  // Draft messages: never scheduled nor sent. A message's status is the server's own
  // (read-only); one that no helper has scheduled is a draft.
  create(
    'message',
    {
      name: 'Park hearing alert',
      type: 'email',
      subject: 'The park hearing is next week: can you be there?',
      body:
        '<p>Hi {given_name},</p><p>The Parks Department hearing on the north meadow lease is ' +
        'next Thursday at 6pm. Please come, or call five neighbours from the phone tree.</p>',
      from: 'Friends of Willow Bend Park <hello@willowbendpark.example.org>',
      reply_to: 'hello@willowbendpark.example.org',
    },
    { creator: organizer, wrapper: emailWrapper, list: phoneTree },
  );
  create(
    'message',
    {
      name: 'Dinner reminder (SMS)',
      type: 'sms',
      body: 'Community Dinner this Friday 6:30pm at St. Brendan’s Hall. Tickets: riversidetenants.example.org/dinner',
      from: 'RTU',
    },
    { creator: secondOrganizer, wrapper: smsWrapper, list: residents, query: recentQuery },
  );

  // Canvasses: two conversations at the door, one nobody home.
  canvassSpecs.forEach((spec, index) => {
    const target = targets[index];
    if (!target) return;
    const others = people.filter((person) => person !== target);
    const canvasser = others.length ? choose.pick(others) : undefined;
    const actionDate = recently(10);
    const canvass = create(
      'canvass',
      { ...spec, action_date: actionDate, origin_system: 'ADIS demo canvassing app' },
      { target, canvasser },
    );
    if (!spec.success) return;
    create(
      'answer',
      { action_date: actionDate, responses: [gardenChoice()] },
      { person: target, question: gardenQuestion, canvass },
    );
    create(
      'answer',
      {
        action_date: actionDate,
        value: `${fullName(target).split(' ')[0] ?? 'They'} said: ${choose.pick(repairs)}`,
      },
      { person: target, question: repairQuestion, canvass },
    );
    create(
      'tagging',
      { origin_system: 'ADIS demo canvassing app' },
      { tag: volunteer, person: target, canvass },
    );
  });
}

/**
 * One line describing what {@link seedActivity} created, for start-up output.
 *
 * @example
 * ```ts
 * describeActivity({ organization: 2, share_page: 1, canvass: 3 });
 * // '2 organizations, 1 share page, 3 canvasses'
 * ```
 */
export function describeActivity(counts: ActivityCounts): string {
  const plurals: Record<string, string> = {
    outreach: 'outreaches',
    query: 'queries',
    canvass: 'canvasses',
  };
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => {
      const name = count === 1 ? kind : (plurals[kind] ?? `${kind}s`);
      return `${count} ${name.replaceAll('_', ' ')}`;
    })
    .join(', ');
}

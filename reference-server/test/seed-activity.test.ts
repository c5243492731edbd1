import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../src/domain/catalog.js';
import { KindRegistry } from '../src/domain/kinds.js';
import { RecordService, referencesOf } from '../src/domain/records/index.js';
import { createApp } from '../src/http/app.js';
import { seedPeople } from '../src/seed.js';
import {
  ACTIVITY_KINDS,
  type ActivityCounts,
  describeActivity,
  seedActivity,
} from '../src/seed-activity.js';
import { openStorage, type SqliteStorage } from '../src/storage/sqlite.js';
import type { JsonObject, StoredRecord, Tenant } from '../src/storage/storage.js';

const NOW = new Date('2026-04-15T16:00:00.000Z');
const opened: SqliteStorage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

const registry = new KindRegistry();
for (const kind of ALL_KINDS) registry.register(kind);

function kindOf(singular: string) {
  const kind = registry.bySingular(singular);
  if (!kind) throw new Error(`no kind ${singular}`);
  return kind;
}

/** The kinds read back after seeding: the people and every kind of activity. */
const SEEDED_KINDS = ['person', ...ACTIVITY_KINDS];

/** The seeded database, and its records and totals as read right after seeding. */
interface Seeded {
  storage: SqliteStorage;
  tenant: Tenant;
  records: RecordService;
  counts: ActivityCounts;
  /** Every record of a kind, oldest first. */
  all(kind: string): StoredRecord[];
  /** Records of `kind` whose reference `rel` points at `parent`. */
  childrenOf(kind: string, rel: string, parent: StoredRecord): StoredRecord[];
  totals(record: StoredRecord): Record<string, number>;
}

async function seeded(people: number, seed = 7): Promise<Seeded> {
  const storage = openStorage(':memory:');
  opened.push(storage);
  if (people > 0) await seedPeople(storage, { tenant: 'demo', count: people, seed: 1 });
  const counts = await seedActivity(storage, { tenant: 'demo', seed, now: NOW });
  const tenant = await storage.tenants.ensure('demo');
  const records = new RecordService(storage, registry);
  // Read once, so that the checks below stay synchronous: nothing writes records after.
  const byKind = new Map<string, StoredRecord[]>();
  const totalsById = new Map<string, Record<string, number>>();
  for (const kind of SEEDED_KINDS) {
    const list = await storage.records.list({
      tenantId: tenant.id,
      kind,
      limit: 100_000,
      offset: 0,
    });
    byKind.set(kind, list);
    const totals = await records.totals(
      tenant,
      kindOf(kind),
      list.map((record) => record.id),
    );
    for (const [id, sums] of totals) totalsById.set(id, sums);
  }
  const all = (kind: string) => {
    const list = byKind.get(kind);
    if (!list) throw new Error(`${kind} is not a seeded kind`);
    return list;
  };
  return {
    storage,
    tenant,
    records,
    counts,
    all,
    childrenOf: (kind, rel, parent) =>
      all(kind).filter((record) => referencesOf(record.doc)[rel]?.id === parent.id),
    totals: (record) => totalsById.get(record.id) ?? {},
  };
}

/**
 * The seeded data without what differs between runs (random ids, identifiers,
 * timestamps): each reference is replaced by the position of its target in its kind.
 */
function projection(data: Seeded): Record<string, JsonObject[]> {
  const position = new Map<string, string>();
  for (const kind of ['person', ...ACTIVITY_KINDS]) {
    data.all(kind).forEach((record, index) => {
      position.set(record.id, `${kind}#${index}`);
    });
  }
  const out: Record<string, JsonObject[]> = {};
  for (const kind of ACTIVITY_KINDS) {
    out[kind] = data.all(kind).map((record) => {
      const { identifiers: _i, created_date: _c, modified_date: _m, _refs, ...fields } = record.doc;
      const refs = Object.fromEntries(
        Object.entries(referencesOf(record.doc)).map(([rel, ref]) => [rel, position.get(ref.id)]),
      );
      return { ...fields, refs };
    });
  }
  return out;
}

const CONTENT_COUNTS = {
  organization: 2,
  petition: 3,
  form: 2,
  fundraising_page: 2,
  share_page: 1,
  advocacy_campaign: 1,
  event: 3,
  question: 2,
  wrapper: 2,
  message: 2,
  tag: 4,
  list: 2,
  query: 1,
};

describe('seedActivity with 100 people', () => {
  it('creates records of every kind, and counts them as stored', async () => {
    const data = await seeded(100);
    expect(Object.keys(data.counts).sort()).toEqual([...ACTIVITY_KINDS].sort());
    for (const kind of ACTIVITY_KINDS) {
      expect(data.counts[kind], kind).toBeGreaterThan(0);
      expect(data.all(kind)).toHaveLength(data.counts[kind] as number);
    }
    expect(data.counts).toMatchObject({ ...CONTENT_COUNTS, canvass: 3 });
  });

  it("keeps each petition's total_signatures equal to its signatures", async () => {
    const data = await seeded(100);
    const titles: string[] = [];
    for (const petition of data.all('petition')) {
      titles.push(String(petition.doc.title));
      const signatures = data.childrenOf('signature', 'petition', petition);
      expect(signatures.length).toBeGreaterThanOrEqual(10);
      expect(signatures.length).toBeLessThanOrEqual(40);
      expect(data.totals(petition).total_signatures).toBe(signatures.length);
      // The sub-collection the HTTP layer pages agrees.
      const page = await data.records.page(
        data.tenant,
        { kind: 'signature', parent: { kind: 'petition', id: petition.id } },
        { page: 1, perPage: 100 },
      );
      expect(page.totalRecords).toBe(signatures.length);
      // Nobody signs the same petition twice.
      const signers = signatures.map((s) => referencesOf(s.doc).person?.id);
      expect(new Set(signers).size).toBe(signers.length);
    }
    expect(titles).toContain('Keep Willow Bend Park Public');
  });

  it('links a sponsored petition with share counts per network', async () => {
    const data = await seeded(100);
    const sponsored = data.all('petition').filter((p) => referencesOf(p.doc).sponsor);
    expect(sponsored).toHaveLength(1);
    const petition = sponsored[0] as StoredRecord;
    const sponsor = referencesOf(petition.doc).sponsor;
    expect(sponsor?.kind).toBe('organization');
    const options = petition.doc.share_options as Record<string, { total_shares?: number }>[];
    const perNetwork = options.flatMap((option) =>
      Object.values(option).map((network) => network.total_shares ?? 0),
    );
    expect(perNetwork.every((n) => n > 0)).toBe(true);
    expect(petition.doc.total_shares).toBe(perNetwork.reduce((a, b) => a + b, 0));
    expect(petition.doc.target).toEqual(expect.arrayContaining([{ name: expect.any(String) }]));
  });

  it('totals donations without the voided one, with amounts in cents', async () => {
    const data = await seeded(100);
    let voided = 0;
    for (const page of data.all('fundraising_page')) {
      expect(page.doc.currency).toBe('USD');
      const donations = data.childrenOf('donation', 'fundraising_page', page);
      const counted = donations.filter((d) => d.doc.voided !== true);
      voided += donations.length - counted.length;
      const sum = counted.reduce((total, d) => total + Number(d.doc.amount), 0);
      const totals = data.totals(page);
      expect(totals.total_donations).toBe(counted.length);
      expect(totals.total_amount).toBeCloseTo(sum, 2);
      for (const donation of donations) {
        const amount = Number(donation.doc.amount);
        expect(Math.round(amount * 100) / 100).toBe(amount);
        const recipients = donation.doc.recipients as { amount: number }[];
        const given = recipients.reduce((total, r) => total + r.amount, 0);
        expect(given).toBeCloseTo(amount, 6);
        expect(donation.doc.payment).toMatchObject({ method: expect.any(String) });
      }
    }
    expect(voided).toBe(1);
    const withCents = data.all('donation').filter((d) => !Number.isInteger(d.doc.amount));
    expect(withCents.length).toBeGreaterThan(0);
  });

  it('sells tickets by level, takes RSVPs of every status, and has an all-day event', async () => {
    const data = await seeded(100);
    const events = data.all('event');
    const ticketed = events.find((e) => e.doc.type === 'ticketed') as StoredRecord;
    const attendances = data.childrenOf('attendance', 'event', ticketed);
    const tickets = attendances.flatMap(
      (a) => a.doc.tickets as { title: string; amount: number }[],
    );
    const totals = data.totals(ticketed);
    expect(totals.total_tickets).toBe(tickets.length);
    expect(totals.total_amount).toBeCloseTo(
      tickets.reduce((sum, t) => sum + t.amount, 0),
      2,
    );
    expect(totals.total_accepted).toBe(attendances.length);
    const sliding = tickets.filter((t) => t.title === 'Sliding scale').length;
    expect(totals['ticket_levels.sliding scale.total_tickets']).toBe(sliding);

    const open = events.find((e) => e.doc.name === 'park-cleanup') as StoredRecord;
    const rsvps = data.childrenOf('attendance', 'event', open);
    const statuses = new Set(rsvps.map((a) => a.doc.status));
    expect(statuses).toEqual(new Set(['accepted', 'tentative', 'declined', 'needs action']));
    expect(data.totals(open).total_accepted).toBe(
      rsvps.filter((a) => a.doc.status === 'accepted').length,
    );

    for (const event of events) {
      expect(event.doc).toMatchObject({
        timezone_identifier: 'America/New_York',
        location: { locality: 'Brooklyn', country: 'US' },
        contact: { email_address: expect.any(String) },
        reminders: expect.any(Array),
      });
      if (event.doc.all_day) {
        expect(event.doc.all_day_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      } else {
        expect(Date.parse(String(event.doc.start_date))).toBeLessThan(
          Date.parse(String(event.doc.end_date)),
        );
        expect(Date.parse(String(event.doc.start_date))).toBeGreaterThan(NOW.getTime());
      }
    }
    expect(events.filter((e) => e.doc.all_day === true)).toHaveLength(1);
  });

  it('links answers and taggings to the canvasses that recorded them', async () => {
    const data = await seeded(100);
    const canvasses = data.all('canvass');
    const successful = canvasses.filter((c) => c.doc.success === true);
    expect(successful).toHaveLength(2);
    for (const canvass of canvasses) {
      expect(referencesOf(canvass.doc).target?.kind).toBe('person');
      const answers = data.childrenOf('answer', 'canvass', canvass);
      const taggings = data.childrenOf('tagging', 'canvass', canvass);
      expect(answers.length).toBe(canvass.doc.success ? 2 : 0);
      expect(taggings.length).toBe(canvass.doc.success ? 1 : 0);
      for (const answer of answers) {
        expect(referencesOf(answer.doc).person?.id).toBe(referencesOf(canvass.doc).target?.id);
      }
    }
    const single = data.all('question').find((q) => q.doc.question_type === 'SingleChoice');
    const answers = data.childrenOf('answer', 'question', single as StoredRecord);
    for (const answer of answers) expect(answer.doc.responses).toHaveLength(1);
  });

  it('tags people and petitions, fills lists and links messages to wrappers and lists', async () => {
    const data = await seeded(100);
    const tags = data.all('tag');
    expect(tags.map((t) => t.doc.name)).toEqual([
      'Volunteer',
      'Donor',
      'Building captain',
      'Priority campaign',
    ]);
    const targets = new Set(data.all('tagging').map((t) => t.doc.item_type));
    expect(targets).toEqual(new Set(['person', 'petition']));
    for (const tag of tags)
      expect(data.childrenOf('tagging', 'tag', tag).length).toBeGreaterThan(0);
    for (const list of data.all('list')) {
      expect(data.totals(list).total_items).toBe(data.childrenOf('item', 'list', list).length);
    }
    for (const message of data.all('message')) {
      const refs = referencesOf(message.doc);
      expect(refs.wrapper?.kind).toBe('wrapper');
      expect(refs.list?.kind).toBe('list');
    }
    const wrappers = data.all('wrapper');
    expect(wrappers.map((w) => [w.doc.wrapper_type, w.doc.default])).toEqual([
      ['email', true],
      ['sms', false],
    ]);
    expect(data.all('query')[0]?.doc.filter).toMatch(/^modified_date gt '/);
  });

  it('serves the seeded records over HTTP with their totals', async () => {
    const data = await seeded(100);
    await data.storage.tenants.putApiKey('seed-test-key', 'demo', 'read');
    const app = createApp({ storage: data.storage, logError: () => undefined });
    const res = await app.fetch(
      new Request('http://adis.test/api/v1/petitions', {
        headers: { 'STD-API-Token': 'seed-test-key' },
      }),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      _embedded: { 'osdi:petitions'?: JsonObject[]; 'std:petitions'?: JsonObject[] };
    };
    const rendered = Object.values(body._embedded)[0] as JsonObject[];
    const expected = data.all('petition').map((p) => data.totals(p).total_signatures);
    expect(rendered.map((p) => p.total_signatures)).toEqual(expected);
  });
});

describe('seedActivity determinism', () => {
  it('gives the same documents and links for the same seed', async () => {
    expect(projection(await seeded(100, 7))).toEqual(projection(await seeded(100, 7)));
  });

  it('gives other choices for another seed', async () => {
    expect(projection(await seeded(100, 8))).not.toEqual(projection(await seeded(100, 7)));
  });
});

/** SHA-256 of the projection: pins every field and link of every seeded document. */
function fingerprint(data: Seeded): string {
  return createHash('sha256')
    .update(JSON.stringify(projection(data)))
    .digest('hex');
}

// The demo data is pinned: the same seed and `now` must give these very documents. The
// activity is data run by a loop (src/seed/), and the order of its PRNG calls is part of
// that data, so a change there shows here first. Change the pins only when the demo data
// is meant to change.
describe('seedActivity pinned for a fixed seed and now', () => {
  it('creates these counts for seed 7 with 100 people (60 taking part)', async () => {
    expect((await seeded(100, 7)).counts).toEqual({
      organization: 2,
      petition: 3,
      signature: 90,
      form: 2,
      submission: 26,
      fundraising_page: 2,
      donation: 16,
      share_page: 1,
      advocacy_campaign: 1,
      outreach: 11,
      event: 3,
      attendance: 43,
      question: 2,
      answer: 25,
      wrapper: 2,
      message: 2,
      tag: 4,
      tagging: 41,
      list: 2,
      item: 27,
      query: 1,
      canvass: 3,
    });
  });

  it('creates these counts for seed 42 with 20 people', async () => {
    expect((await seeded(20, 42)).counts).toMatchObject({
      signature: 58,
      submission: 22,
      donation: 28,
      outreach: 13,
      attendance: 40,
      answer: 24,
      tagging: 37,
      item: 25,
      canvass: 3,
    });
  });

  it('creates these very documents and links for seed 7', async () => {
    expect(fingerprint(await seeded(100, 7))).toBe(
      '67533f8589557f7de9c97797e548bac5184a5ffd402398d4d0eae47350c68c8f',
    );
  });
});

describe('seedActivity with few or no people', () => {
  it('creates only what needs no person when the tenant has no people', async () => {
    const data = await seeded(0);
    expect(data.counts).toMatchObject({
      ...CONTENT_COUNTS,
      signature: 0,
      submission: 0,
      donation: 0,
      outreach: 0,
      attendance: 0,
      answer: 0,
      canvass: 0,
      // The petitions tagged as priority campaigns; an organization on each list.
      tagging: 2,
      item: 2,
    });
    for (const petition of data.all('petition')) {
      expect(data.totals(petition).total_signatures ?? 0).toBe(0);
    }
  });

  it('gives each person at most one signature per petition when there are few', async () => {
    const data = await seeded(3);
    for (const petition of data.all('petition')) {
      expect(data.childrenOf('signature', 'petition', petition)).toHaveLength(3);
    }
    expect(data.counts.canvass).toBe(3);
  });

  it.each([3, 100])(
    "keeps the server's one record per person and parent with %i people",
    async (people) => {
      const data = await seeded(people);
      const once = registry.all().filter((kind) => kind.oneRecordPer?.length);
      expect(once.map((kind) => kind.singular).sort()).toEqual([
        'attendance',
        'signature',
        'submission',
      ]);
      for (const kind of once) {
        const keys = data.all(kind.singular).map((record) => {
          const refs = referencesOf(record.doc);
          return (kind.oneRecordPer ?? []).map((rel) => refs[rel]?.id).join(' ');
        });
        expect(keys.length, kind.singular).toBeGreaterThan(0);
        expect(new Set(keys).size, kind.singular).toBe(keys.length);
      }
    },
  );
});

describe('describeActivity, the start-up line', () => {
  it('names each kind by its own plural, and counts that are not records made by their phrase', () => {
    expect(
      describeActivity({ person: 2, canvass: 3, query: 1, event_campaign: 4, signature: 0 }),
    ).toBe('2 people, 3 canvasses, 1 query, 4 event campaigns');
    // Action Network's seed gives existing people custom fields: updated, not "persons" made.
    expect(describeActivity({ campaign: 1, people_given_custom_fields: 20 })).toBe(
      '1 campaign, 20 people given custom fields',
    );
    expect(describeActivity({ people_given_custom_fields: 1 })).toBe(
      '1 person given custom fields',
    );
  });
});

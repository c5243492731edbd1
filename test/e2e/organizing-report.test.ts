import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  type OrganizingReport,
  organizingReport,
} from '../../examples/organizing-report.js';
import {
  type ActivityCounts,
  type JsonObject,
  type Storage,
  type StoredRecord,
  seedActivity,
  type Tenant,
} from '../../reference-server/src/index.js';
import { type TestServer, testServer } from './reference-server.js';

let server: TestServer;
let storage: Storage;
let tenant: Tenant;
let counts: ActivityCounts;
let report: OrganizingReport;

/** Every stored record of a kind (or of a parent's sub-collection), oldest first. */
function stored(kind: string, parent?: StoredRecord): Promise<StoredRecord[]> {
  return storage.records.list({
    tenantId: tenant.id,
    kind,
    limit: 10_000,
    offset: 0,
    ...(parent ? { parent: { kind: parent.kind, id: parent.id } } : {}),
  });
}

function refId(record: StoredRecord, rel: string): string | undefined {
  return (record.doc._refs as Record<string, { id: string }> | undefined)?.[rel]?.id;
}

beforeAll(async () => {
  server = testServer(60);
  if (!server.storage) throw new Error('testServer does not expose its storage');
  storage = server.storage;
  await server.ready();
  counts = await seedActivity(storage, { tenant: 'demo', seed: 11 });
  tenant = await storage.tenants.ensure('demo');
  const running = await server.listen();
  report = await organizingReport(running.entryPoint, server.keys.read);
});
afterAll(() => server.close());

describe('examples/organizing-report.ts over real HTTP', () => {
  it('reports every petition with its signature total and first signers', async () => {
    const petitions = await stored('petition');
    expect(report.petitions.map((p) => p.title)).toEqual([
      'Keep Willow Bend Park Public',
      'Fair Rents and Real Repairs at Riverside Towers',
      'Safe Crosswalks on Atlantic Avenue',
    ]);
    let signatures = 0;
    for (const [index, petition] of petitions.entries()) {
      const signed = await stored('signature', petition);
      signatures += signed.length;
      const line = report.petitions[index];
      expect(line?.totalSignatures).toBe(signed.length);
      expect(line?.totalSignatures).toBeGreaterThanOrEqual(10);
      const firstNames: string[] = [];
      for (const signature of signed.slice(0, 3)) {
        const id = refId(signature, 'person') ?? '';
        const person = await storage.records.get(tenant.id, 'person', id);
        firstNames.push(`${person?.doc.given_name} ${person?.doc.family_name}`);
      }
      expect(line?.firstSigners).toEqual(firstNames);
    }
    expect(signatures).toBe(counts.signature);
    expect(report.petitions[0]?.sponsor).toBe('Friends of Willow Bend Park');
    expect(report.petitions.filter((p) => p.sponsor)).toHaveLength(1);
  });

  it('reports events with their RSVPs and ticket sales by level', async () => {
    expect(report.events.map((e) => e.type)).toEqual(['ticketed', 'open', 'open']);
    const [dinnerRecord] = await stored('event');
    const attendances = await stored('attendance', dinnerRecord);
    const tickets = attendances.flatMap(
      (a) => a.doc.tickets as { title: string; amount: number }[],
    );
    const dinner = report.events[0];
    expect(dinner).toMatchObject({
      title: 'Riverside Tenants Union Community Dinner',
      venue: 'St. Brendan’s Community Hall',
      totalAccepted: attendances.length,
      totalTickets: tickets.length,
    });
    expect(dinner?.totalAmount).toBeCloseTo(
      tickets.reduce((sum, t) => sum + t.amount, 0),
      2,
    );
    const levels = dinnerRecord?.doc.ticket_levels as { title: string; limit: number }[];
    expect(dinner?.ticketLevels.map((level) => level.title)).toEqual(levels.map((l) => l.title));
    for (const level of dinner?.ticketLevels ?? []) {
      const sold = tickets.filter((t) => t.title === level.title).length;
      expect(level.sold).toBe(sold);
      // The stored limit is the capacity; the server renders what is still available.
      expect(level.remaining).toBe(levels.find((l) => l.title === level.title)!.limit - sold);
    }
    const allDay = report.events.find((e) => e.title === 'Know Your Rights Day for Tenants');
    expect(allDay?.when).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(allDay?.ticketLevels).toEqual([]);
  });

  it('reports what each fundraising page raised, without the voided donation', async () => {
    const pages = await stored('fundraising_page');
    expect(report.fundraisingPages.map((p) => p.title)).toEqual([
      'Willow Bend Park Legal Defense Fund',
      'Tenant Emergency Relief Fund',
    ]);
    for (const [index, page] of pages.entries()) {
      const kept = (await stored('donation', page)).filter((d) => d.doc.voided !== true);
      const line = report.fundraisingPages[index];
      expect(line?.currency).toBe('USD');
      expect(line?.totalDonations).toBe(kept.length);
      expect(line?.totalAmount).toBeCloseTo(
        kept.reduce((sum, d) => sum + Number(d.doc.amount), 0),
        2,
      );
    }
    const voided = (await stored('donation')).filter((d) => d.doc.voided === true);
    expect(voided).toHaveLength(1);
  });

  it('reports each tag with the number of its taggings', async () => {
    const tags = await stored('tag');
    const expected: { name: unknown; taggings: number }[] = [];
    for (const tag of tags) {
      expected.push({
        name: (tag.doc as JsonObject).name,
        taggings: (await stored('tagging', tag)).length,
      });
    }
    expect(report.tags).toEqual(expected);
    expect(report.tags.find((t) => t.name === 'Priority campaign')?.taggings).toBe(2);
    expect(report.tags.reduce((sum, t) => sum + t.taggings, 0)).toBe(counts.tagging);
  });

  it('formats the report for the terminal', () => {
    const text = formatReport(report);
    expect(text).toContain(
      'Keep Willow Bend Park Public — sponsored by Friends of Willow Bend Park',
    );
    expect(text).toMatch(/Sliding scale at \$15\.00: \d+ sold, \d+ left/);
    expect(text).toMatch(/Willow Bend Park Legal Defense Fund: \$[\d,]+\.\d{2} from \d+ donations/);
  });
});

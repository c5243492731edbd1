import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/schema/index.js';
import { syncPlan } from '../../src/sync/plan.js';

describe('syncPlan', () => {
  it('puts every kind after its parent and the kinds it links', () => {
    const plan = syncPlan();
    const position = new Map(plan.map((planned, index) => [planned.kind.singular, index]));
    expect(plan).toHaveLength(KINDS.length);
    for (const [index, planned] of plan.entries()) {
      const before = [planned.placement?.parent.singular, ...planned.links.map((l) => l.kind)];
      for (const name of before) {
        if (name === undefined || name === planned.kind.singular) continue;
        // Cycles are broken where they close: a donation links an attendance, never back.
        expect(position.get(name), `${planned.kind.plural} after ${name}`).toBeLessThan(index);
      }
    }
  });

  it('writes actions under the kind whose record helper makes them, and taggings under tags', () => {
    const under = Object.fromEntries(
      syncPlan().map((p) => [
        p.kind.plural,
        p.placement && [p.placement.parent.plural, p.placement.helper?.rel],
      ]),
    );
    expect(under).toMatchObject({
      people: undefined,
      signatures: ['petitions', 'std:record_signature_helper'],
      attendances: ['events', 'std:record_attendance_helper'],
      donations: ['fundraising_pages', 'std:record_donation_helper'],
      outreaches: ['advocacy_campaigns', 'std:record_outreach_helper'],
      submissions: ['forms', 'std:record_submission_helper'],
      taggings: ['tags', undefined],
      answers: ['questions', undefined],
      items: ['lists', undefined],
      canvasses: undefined,
    });
  });

  it('adds what the kinds asked for need, and never copies who last modified a record', () => {
    expect(syncPlan(['signatures']).map((p) => p.kind.plural)).toEqual([
      'people',
      'petitions',
      'signatures',
    ]);
    expect(syncPlan(['taggings']).map((p) => p.kind.plural)).toEqual(['tags', 'taggings']);
    for (const planned of syncPlan()) {
      expect(planned.links.map((l) => l.rel)).not.toContain('std:modified_by');
    }
  });

  it('refuses a kind it does not know, listing those it does', () => {
    expect(() => syncPlan(['peoples'])).toThrow(/no kind named peoples; the kinds are people, /);
  });
});

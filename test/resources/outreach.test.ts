import { describe, expect, it } from 'vitest';
import { outreachKind } from '../../src/schema/kinds/outreach.js';
import { fixture, href } from './content-fixtures.js';
import { issuePaths, issuesOf } from './schema-issues.js';

describe('outreachKind.schema (read)', () => {
  it('reads any action_date and type, a numeric-string duration, loose targets', () => {
    const outreach = outreachKind.schema.parse({
      action_date: '2026-03-02 15:04',
      type: 'fax',
      duration: '95',
      targets: [{ family_name: 'Lopez', district: 4 }],
      referrer_data: { source: 'email-0302', campaign: 'spring' },
    });
    expect(outreach).toMatchObject({ action_date: '2026-03-02 15:04', type: 'fax', duration: 95 });
    expect(outreach.targets?.[0]).toMatchObject({ district: 4 });
  });
});

describe('outreachKind.writeSchema (write)', () => {
  it('accepts a complete outreach', () => {
    expect(
      issuePaths(outreachKind.writeSchema, {
        identifiers: ['dialer:88'],
        origin_system: 'Dialer',
        action_date: '2026-03-02T15:04:00-06:00',
        type: 'phone',
        duration: 95,
        subject: 'SB 12',
        message: 'Please support SB 12.',
        notes: 'Undecided',
        referrer_data: { source: 'email-0302' },
        targets: [
          { title: 'Senator', family_name: 'Lopez', phone_numbers: [{ number: '12175550100' }] },
        ],
        modified_date: '2026-03-02T15:05:00Z',
      }),
    ).toEqual([]);
    expect(outreachKind.readOnly).toContain('created_date');
  });

  it('requires an ISO 8601 action_date with an offset and whole non-negative seconds', () => {
    const outreach = { action_date: '2026-03-02 15:04', duration: -1 };
    expect(issuePaths(outreachKind.strictSchema, outreach)).toEqual(['action_date', 'duration']);
    expect(issuePaths(outreachKind.strictSchema, { duration: 9.5 })).toEqual(['duration']);
    // Values are the server's to judge; a number sent as a string is a wrong type.
    expect(issuePaths(outreachKind.writeSchema, outreach)).toEqual([]);
    expect(issuePaths(outreachKind.writeSchema, { duration: 9.5 })).toEqual([]);
    expect(issuePaths(outreachKind.writeSchema, { duration: '95' })).toEqual(['duration']);
    expect(issuePaths(outreachKind.strictSchema, { duration: '95' })).toEqual(['duration']);
  });

  it('accepts other outreach types (flexenum) but refuses unknown members', () => {
    expect(issuePaths(outreachKind.writeSchema, { type: 'video call' })).toEqual([]);
    expect(issuesOf(outreachKind.writeSchema, { target: [] })).toEqual([
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
    expect(issuePaths(outreachKind.writeSchema, { referrer_data: { campaign: 'x' } })).toEqual([
      'referrer_data',
    ]);
  });
});

describe('OutreachResource', () => {
  it('links its person and campaign (required) and its organization (optional)', async () => {
    const { resource: outreach, requested } = fixture(
      outreachKind,
      'outreaches/1',
      {
        _links: {
          'std:person': href('people/1'),
          'std:advocacy_campaign': href('advocacy_campaigns/1'),
        },
      },
      {
        'people/1': { given_name: 'Ana' },
        'advocacy_campaigns/1': { title: 'Call your senator' },
      },
    );
    expect((await outreach.person()).data.given_name).toBe('Ana');
    expect((await outreach.advocacyCampaign()).data.title).toBe('Call your senator');
    expect(await outreach.organization()).toBeUndefined();
    expect(requested).toEqual(['people/1', 'advocacy_campaigns/1']);
  });

  it('fails when the required person link is missing', async () => {
    const { resource: outreach } = fixture(outreachKind, 'outreaches/2', {});
    await expect(outreach.person()).rejects.toThrow(/std:person/);
  });
});

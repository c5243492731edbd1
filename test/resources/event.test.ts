import { describe, expect, it } from 'vitest';
import {
  DUPLICATE_TICKET_LEVEL_TITLE,
  eventContactSchema,
  ticketLevelsSchema,
} from '../../src/schema/content-fields.js';
import { eventKind, eventRuleIssues, isIanaTimeZone } from '../../src/schema/kinds/event.js';
import { RuleCode } from '../../src/schema/rules.js';
import { fixture, href } from './content-fixtures.js';
import { issuePaths, issuesOf } from './schema-issues.js';

const START = '2026-05-02T09:00:00-05:00';
const END = '2026-05-02T12:00:00-05:00';

describe('eventKind.schema (read)', () => {
  it('reads open enums, loose dates, numeric-string totals and unknown members', () => {
    const event = eventKind.schema.parse({
      type: 'hybrid',
      status: 'postponed',
      visibility: 'unlisted',
      start_date: '2026-05-02 09:00',
      timezone_identifier: 'Central Time',
      total_accepted: '40',
      total_tickets: '12',
      total_amount: '300.00',
      capacity: '100',
      all_day: 'false',
      ticket_levels: [{ title: 'Adult', total_tickets: '7', limit: '93', amount: '25' }],
      reminders: [{ method: 'push', minutes: '60' }],
      location: { venue: 'Elm Park', public: 'true', parking: 'street' },
      'vendor:livestream': true,
    });
    expect(event).toMatchObject({
      type: 'hybrid',
      status: 'postponed',
      total_accepted: 40,
      total_amount: '300.00', // money is read as given
      capacity: 100,
      all_day: false,
      'vendor:livestream': true,
    });
    // Money is read as sent, never converted (amountValue gives the number).
    expect(event.ticket_levels?.[0]).toMatchObject({ total_tickets: 7, limit: 93, amount: '25' });
    expect(event.reminders?.[0]).toEqual({ method: 'push', minutes: 60 });
    expect(event.location).toMatchObject({ public: true, parking: 'street' });
  });

  it('reads duplicate ticket titles and start after end as they are', () => {
    expect(
      eventKind.schema.safeParse({
        start_date: END,
        end_date: START,
        ticket_levels: [{ title: 'A' }, { title: 'A' }],
      }).success,
    ).toBe(true);
  });
});

// The write side checks member names and JSON types; formats, closed enums and rules are
// the server's (strictSchema, what the reference server accepts).
describe('eventKind.writeSchema (write) and strictSchema (the server)', () => {
  it('accepts a complete event with read-only totals it ignores', () => {
    expect(
      issuePaths(eventKind.writeSchema, {
        identifiers: ['crm:e-1'],
        title: 'Park cleanup',
        type: 'ticketed',
        status: 'confirmed',
        instructions: 'Bring gloves.',
        start_date: START,
        end_date: END,
        all_day_date: '2026-05-02',
        all_day: false,
        capacity: 100,
        guests_can_invite_others: true,
        transparence: 'transparent',
        visibility: 'public',
        timezone_identifier: 'America/Chicago',
        location: {
          venue: 'Elm Park',
          address_lines: ['1 Elm St'],
          locality: 'Springfield',
          region: 'IL',
          postal_code: '62701',
          country: 'US',
          location: { latitude: 39.8, longitude: -89.6, accuracy: 'Rooftop' },
          public: true,
        },
        contact: {
          name: 'Ana Lopez',
          email_address: 'ana@example.org',
          phone_number: '12175550100',
          additional_info: 'Text first',
          public: false,
        },
        reminders: [
          { method: 'email', minutes: 1440 },
          { method: 'sms', minutes: 60 },
        ],
        ticket_levels: [
          { title: 'Adult', amount: 25, currency: 'USD', limit: 80, total_tickets: 20 },
          { title: 'Child', amount: 0, currency: 'USD', limit: 0, total_amount: 0 },
        ],
        share_options: [{ network_b_share: { message: 'Join the cleanup!' } }],
        total_accepted: 40,
        total_tickets: 20,
        total_amount: 500,
        total_shares: 3,
      }),
    ).toEqual([]);
    expect(eventKind.readOnly).toEqual(
      expect.arrayContaining(['total_accepted', 'total_tickets', 'total_amount', 'total_shares']),
    );
  });

  it('refuses values outside the closed enums on the server', () => {
    const event = {
      type: 'hybrid',
      status: 'postponed',
      transparence: 'busy',
      visibility: 'unlisted',
      reminders: [{ method: 'push' }],
    };
    expect(issuePaths(eventKind.strictSchema, event)).toEqual([
      'type',
      'status',
      'transparence',
      'visibility',
      'reminders.0.method',
    ]);
    // The server owns its vocabulary: the SDK sends these as given.
    expect(issuePaths(eventKind.writeSchema, event)).toEqual([]);
    expect(issuePaths(eventKind.writeSchema, { type: 1, reminders: [{ method: true }] })).toEqual([
      'type',
      'reminders.0.method',
    ]);
  });

  it('refuses negative or fractional counts, bad dates, currencies and contacts', () => {
    const event = {
      capacity: -1,
      start_date: '2026-05-02T09:00:00',
      all_day_date: '05/02/2026',
      reminders: [{ method: 'email', minutes: 1.5 }],
      ticket_levels: [{ title: 'A', limit: -2, amount: -5, currency: 'usd' }],
      contact: { email_address: 'ana', phone_number: '+1 217 555 0100' },
      location: { region: 'Illinois', status: 'Verified' },
    };
    // Values are the server's to judge; the unknown member of the location is not.
    expect(issuePaths(eventKind.writeSchema, event)).toEqual(['location']);
    expect(issuePaths(eventKind.strictSchema, event)).toEqual([
      'ticket_levels.0.amount',
      'ticket_levels.0.currency',
      'ticket_levels.0.limit',
      'start_date',
      'all_day_date',
      'capacity',
      'location.region',
      'location',
      'contact.email_address',
      'contact.phone_number',
      'reminders.0.minutes',
    ]);
  });

  it('reports start_date after end_date, compared as instants', () => {
    // 18:00 in New York is 22:00Z: after 21:00Z even though the string sorts before.
    const late = { start_date: '2026-05-01T18:00:00-04:00', end_date: '2026-05-01T21:00:00Z' };
    expect(issuesOf(eventKind.strictSchema, late)).toEqual([
      { path: 'start_date', code: 'custom', rule: RuleCode.START_DATE_AFTER_END_DATE },
    ]);
    // A cross-field rule is the server's: the SDK sends the event and lets it judge.
    expect(issuesOf(eventKind.writeSchema, late)).toEqual([]);
    // 23:00+02:00 is 21:00Z: before 22:00Z although the string sorts after.
    expect(
      issuePaths(eventKind.strictSchema, {
        start_date: '2026-05-01T23:00:00+02:00',
        end_date: '2026-05-01T22:00:00Z',
      }),
    ).toEqual([]);
    expect(issuePaths(eventKind.strictSchema, { start_date: START, end_date: START })).toEqual([]);
    expect(issuePaths(eventKind.strictSchema, { start_date: END })).toEqual([]);
  });

  it('reports the date rule beside other problems, with its hint', () => {
    const event = { title: 7, start_date: END, end_date: START };
    const result = eventKind.strictSchema.safeParse(event);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['title', 'start_date']);
    expect(result.error?.issues[1]).toMatchObject({
      params: { code: RuleCode.START_DATE_AFTER_END_DATE, hint: expect.any(String) },
    });
    expect(issuePaths(eventKind.writeSchema, event)).toEqual(['title']);
  });

  it('leaves dates that are not valid date-times to their own check', () => {
    expect(eventRuleIssues({ start_date: '2026-05-03', end_date: END })).toEqual([]);
    expect(eventRuleIssues({ start_date: 5, end_date: END })).toEqual([]);
    expect(eventRuleIssues({ start_date: END, end_date: START })).toHaveLength(1);
  });

  it('reports a repeated ticket level title at the second level', () => {
    const event = {
      ticket_levels: [{ title: 'Adult' }, { title: 'Child' }, { title: ' adult' }, {}, {}],
    };
    expect(issuesOf(eventKind.strictSchema, event)).toEqual([
      { path: 'ticket_levels.2.title', code: 'custom', rule: DUPLICATE_TICKET_LEVEL_TITLE },
    ]);
    expect(issuesOf(eventKind.writeSchema, event)).toEqual([]);
    expect(ticketLevelsSchema('read').safeParse([{ title: 'A' }, { title: 'A' }]).success).toBe(
      true,
    );
  });

  it('checks time zones against the IANA database on the server', () => {
    for (const zone of ['America/Chicago', 'UTC', 'Etc/GMT+5', 'Asia/Kolkata', 'Europe/Kyiv']) {
      expect(issuePaths(eventKind.strictSchema, { timezone_identifier: zone }), zone).toEqual([]);
    }
    for (const zone of ['Central Time', 'Mars/Olympus_Mons', '+05:00', '-0500', '', 'America/']) {
      expect(issuePaths(eventKind.strictSchema, { timezone_identifier: zone }), zone).toEqual([
        'timezone_identifier',
      ]);
      expect(issuePaths(eventKind.writeSchema, { timezone_identifier: zone }), zone).toEqual([]);
    }
    expect(issuePaths(eventKind.writeSchema, { timezone_identifier: -5 })).toEqual([
      'timezone_identifier',
    ]);
    expect(isIanaTimeZone('US/Eastern')).toBe(true);
    expect(isIanaTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('keeps the contact schema lenient on read', () => {
    expect(eventContactSchema('read').parse({ phone_number: '+1 217', pager: '1' })).toEqual({
      phone_number: '+1 217',
      pager: '1',
    });
  });
});

describe('EventResource', () => {
  it('links its creator, editor, sponsor and attendances', async () => {
    const { resource: event, requested } = fixture(
      eventKind,
      'events/1',
      {
        _links: {
          'std:creator': href('people/1'),
          'std:sponsor': href('organizations/1'),
          'std:attendances': href('events/1/attendances'),
        },
      },
      {
        'people/1': { given_name: 'Ana' },
        'organizations/1': { organization: 'SPA' },
        'events/1/attendances': {
          _embedded: { 'std:attendances': [{ status: 'accepted' }, { status: 'declined' }] },
        },
      },
    );
    expect((await event.creator())?.data.given_name).toBe('Ana');
    expect((await event.sponsor())?.data.organization).toBe('SPA');
    expect(await event.modifiedBy()).toBeUndefined();
    const attendances = await event.attendances().toArray();
    expect(attendances.map((a) => a.data.status)).toEqual(['accepted', 'declined']);
    expect(requested).toEqual(['people/1', 'organizations/1', 'events/1/attendances']);
  });
});

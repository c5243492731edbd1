import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  datetime,
  eventKind,
  messageKind,
  personKind,
  petitionKind,
} from '../../src/schema/index.js';
import { extendedHelperBodies, strictHelperBodies } from '../../src/server-kit/index.js';

// The `extended` side: what the reference server takes under a real server's preset.
// It holds the specification's formats, enums and rules like `strict`, and takes what
// Action Network documents beside them; date-times come out as ISO 8601 with an offset.

const anySchema = (schema: { safeParse(value: unknown): { success: boolean } }) => schema;

describe('what extended takes and strict refuses', () => {
  const samples = [
    ['a petition tag_list', petitionKind, { tag_list: ['county-board'] }, 'tag_list'],
    ['message targets', messageKind, { targets: [{ href: 'https://x.example/q/1' }] }, 'targets'],
    [
      'a phone status',
      personKind,
      { phone_numbers: [{ number: '12025550123', status: 'subscribed' }] },
      'phone_numbers.0.status',
    ],
    [
      'a phone status of Action Network',
      personKind,
      { phone_numbers: [{ number: '12025550123', status: 'previous bounce' }] },
      'phone_numbers.0.status',
    ],
    ...(['previous bounce', 'spam complaint', 'previous spam complaint'] as const).map(
      (status) =>
        [
          `the email status ${status}`,
          personKind,
          { email_addresses: [{ address: 'ana@example.org', status }] },
          'email_addresses.0.status',
        ] as const,
    ),
    ['a start date with a space', eventKind, { start_date: '2026-09-01 18:00:00' }, 'start_date'],
    ['a start date without offset', eventKind, { start_date: '2026-09-01T18:00:00' }, 'start_date'],
  ] as const;

  it.each(samples)('%s', (_, kind, body, path) => {
    const strict = anySchema(kind.strictSchema).safeParse(body) as {
      success: boolean;
      error?: { issues: { path: PropertyKey[] }[] };
    };
    expect(strict.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
    expect(anySchema(kind.extendedSchema).safeParse(body).success).toBe(true);
  });

  it('keeps the members and values it takes', () => {
    const person = personKind.extendedSchema.parse({
      email_addresses: [{ address: 'ana@example.org', status: 'spam complaint' }],
      phone_numbers: [{ number: '12025550123', status: 'unsubscribed' }],
    });
    expect(person.email_addresses?.[0]?.status).toBe('spam complaint');
    expect(person.phone_numbers?.[0]?.status).toBe('unsubscribed');
    expect(petitionKind.extendedSchema.parse({ tag_list: ['a', 'b'] }).tag_list).toEqual([
      'a',
      'b',
    ]);
  });

  it('helper bodies take remove_tags and a phone status', () => {
    const body = {
      person: { given_name: 'Ana', phone_numbers: [{ number: '12025550123', status: 'bouncing' }] },
      remove_tags: ['lapsed'],
    };
    const strict = strictHelperBodies().personSignup.safeParse(body);
    expect(strict.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'person.phone_numbers.0.status',
      '',
    ]);
    expect(strict.error?.issues[1]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['remove_tags'],
    });
    expect(extendedHelperBodies().personSignup.parse(body).remove_tags).toEqual(['lapsed']);
    expect(extendedHelperBodies().recordSignature.safeParse(body).success).toBe(true);
    expect(
      extendedHelperBodies().recordAttendance.parse({
        person: { given_name: 'Ana' },
        action_date: '2026-09-01 18:00:00',
      }).action_date,
    ).toBe('2026-09-01T18:00:00Z');
  });
});

describe('what both refuse', () => {
  const samples = [
    ['an email status nobody documents', personKind, { email_addresses: [{ status: 'maybe' }] }],
    ['a phone status nobody documents', personKind, { phone_numbers: [{ status: 'sometimes' }] }],
    ['a phone number with letters', personKind, { phone_numbers: [{ number: 'call me' }] }],
    ['a gender outside the enum', personKind, { gender: 'female' }],
    ['an unknown plain member', personKind, { favourite_colour: 'green' }],
    ['a tag_list of numbers', petitionKind, { tag_list: [1, 2] }],
    ['a date-time in words', eventKind, { start_date: 'next Tuesday' }],
    ['a date alone for a date-time', eventKind, { start_date: '2026-09-01' }],
    ['a date-time without seconds', eventKind, { start_date: '2026-09-01 18:00' }],
    ['a day that does not exist', eventKind, { start_date: '2026-02-30 10:00:00' }],
    ['an hour that does not exist', eventKind, { start_date: '2026-09-01 24:30:00' }],
    ['a date-time of the wrong type', eventKind, { start_date: 20260901 }],
    [
      'a start after the end',
      eventKind,
      { start_date: '2026-09-01 22:00:00', end_date: '2026-09-01 20:00:00' },
    ],
  ] as const;

  it.each(samples)('%s', (_, kind, body) => {
    expect(anySchema(kind.strictSchema).safeParse(body).success).toBe(false);
    expect(anySchema(kind.extendedSchema).safeParse(body).success).toBe(false);
  });

  it('remove_tags must be a list of names', () => {
    const body = { person: { given_name: 'Ana' }, remove_tags: 'lapsed' };
    expect(extendedHelperBodies().personSignup.safeParse(body).success).toBe(false);
  });
});

describe('date-times as Action Network takes them, stored as ISO 8601', () => {
  const extended = datetime('extended');
  const strict = datetime('strict');

  it.each([
    ['2026-09-01 18:00:00', '2026-09-01T18:00:00Z'],
    ['2026-09-01T18:00:00', '2026-09-01T18:00:00Z'],
    ['2026-09-01 18:00:00.250', '2026-09-01T18:00:00.250Z'],
    ['2026-09-01 18:00:00 +0200', '2026-09-01T18:00:00+02:00'],
    ['2026-09-01T18:00:00-0430', '2026-09-01T18:00:00-04:30'],
    ['2026-09-01T18:00:00z', '2026-09-01T18:00:00Z'],
    ['2026-09-01T18:00:00-04:00', '2026-09-01T18:00:00-04:00'],
  ])('%s is %s', (written, stored) => {
    expect(extended.parse(written)).toBe(stored);
  });

  const instant = fc.date({
    // A day inside the four-digit years, so that any offset keeps the local time in them.
    min: new Date(Date.UTC(1000, 0, 2)),
    max: new Date(Date.UTC(9999, 11, 30)),
    noInvalidDate: true,
  });
  const offsetMinutes = fc.integer({ min: -12 * 60, max: 14 * 60 });

  it('a time without offset is UTC, and written back in a format strict takes', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(' ', 'T'), (when, separator) => {
        const iso = when.toISOString(); // 2026-09-01T18:00:00.123Z
        const written = `${iso.slice(0, 10)}${separator}${iso.slice(11, 19)}`;
        const stored = extended.parse(written);
        expect(strict.parse(stored)).toBe(stored);
        expect(Date.parse(stored)).toBe(Math.floor(when.getTime() / 1000) * 1000);
      }),
    );
  });

  it('an offset, with or without its colon, is kept and means the same instant', () => {
    fc.assert(
      fc.property(instant, offsetMinutes, fc.boolean(), (when, minutes, colon) => {
        const local = new Date(when.getTime() + minutes * 60_000).toISOString();
        const sign = minutes < 0 ? '-' : '+';
        const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
        const rest = String(Math.abs(minutes) % 60).padStart(2, '0');
        const offset = `${sign}${hours}${colon ? ':' : ''}${rest}`;
        const written = `${local.slice(0, 10)} ${local.slice(11, 19)}${offset}`;
        const stored = extended.parse(written);
        expect(stored.endsWith(`${sign}${hours}:${rest}`)).toBe(true);
        expect(Date.parse(stored)).toBe(Math.floor(when.getTime() / 1000) * 1000);
      }),
    );
  });

  it('whatever it takes, strict takes as it is stored; what strict takes is kept as it is', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          instant.map((when) => when.toISOString()),
        ),
        (text) => {
          const taken = extended.safeParse(text);
          if (taken.success) expect(strict.parse(taken.data)).toBe(taken.data);
          const strictly = strict.safeParse(text);
          if (strictly.success) expect(extended.parse(text)).toBe(strictly.data);
        },
      ),
    );
  });
});

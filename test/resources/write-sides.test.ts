import { describe, expect, it } from 'vitest';
import {
  MessageScheduleSchema,
  messageKind,
  personKind,
  petitionKind,
} from '../../src/schema/index.js';

// Cases of the three schema sides that a generated document does not reach: members
// another server documents (written back, refused by the reference server), wrong
// types reported as such, and records read with both spellings of one member.

describe('members outside the specification', () => {
  const samples = [
    ['petition tag_list', petitionKind, { title: 'x', tag_list: ['county-board'] }, 'tag_list'],
    ['message targets', messageKind, { targets: [{ href: 'https://x.example/q/1' }] }, 'targets'],
    ['message tag_list', messageKind, { tag_list: ['news'] }, 'tag_list'],
    [
      'phone status',
      personKind,
      { phone_numbers: [{ number: '12025550123', status: 'subscribed' }] },
      'phone_numbers.0.status',
    ],
  ] as const;

  it.each(samples)(
    '%s: sent by the SDK, refused by the reference server',
    (_, kind, body, path) => {
      expect(kind.writeSchema.safeParse(body).success).toBe(true);
      const strict = kind.strictSchema.safeParse(body);
      expect(strict.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
      expect(strict.error?.issues[0]?.message).toContain('not a member of the specification');
    },
  );
});

describe('wrong types are reported as such', () => {
  it('a date-time of the wrong type names the type, on both sides', () => {
    const strict = personKind.strictSchema.safeParse({
      parties: [{ last_verified_date: 20260501 }],
    });
    expect(strict.error?.issues[0]).toMatchObject({ code: 'invalid_type', expected: 'string' });
    const written = personKind.writeSchema.safeParse({
      parties: [{ last_verified_date: 20260501 }],
    });
    expect(written.error?.issues[0]).toMatchObject({ code: 'invalid_type', expected: 'string' });
  });

  it('a Date is sent as ISO 8601; an invalid Date is refused', () => {
    const when = new Date(Date.UTC(2026, 8, 1, 18));
    expect(
      personKind.writeSchema.parse({ parties: [{ last_verified_date: when }] }).parties?.[0],
    ).toEqual({ last_verified_date: '2026-09-01T18:00:00.000Z' });
    expect(
      personKind.strictSchema.safeParse({ parties: [{ last_verified_date: new Date('nope') }] })
        .success,
    ).toBe(false);
  });
});

describe('written back as read', () => {
  it('gender pronouns read with both spellings go back with the wire spelling only', () => {
    const read = personKind.schema.parse({
      gender_pronouns: { possessive: 'His', posessive: 'Theirs' },
    });
    const written = personKind.writeSchema.parse(read);
    expect(written.gender_pronouns).toEqual({ posessive: 'Theirs' });
  });

  it('a schedule body takes vendor members, and refuses a misspelt one', () => {
    const start = '2027-05-01T09:00:00Z';
    expect(
      MessageScheduleSchema.parse({ scheduled_start_date: start, 'acme:batch': 'b1' }),
    ).toEqual({ scheduled_start_date: start, 'acme:batch': 'b1' });
    expect(
      MessageScheduleSchema.safeParse({ scheduled_start_date: start, scheduled_stat_date: start })
        .success,
    ).toBe(false);
  });

  it('the message kind builds the server schema on first use, not at import', () => {
    const descriptor = Object.getOwnPropertyDescriptor(messageKind, 'strictSchema');
    expect(typeof descriptor?.get).toBe('function');
  });
});

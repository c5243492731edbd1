import { describe, expect, it } from 'vitest';
import { amountValue, currency, money, ticketSchema } from '../../src/schema/action-fields.js';
import { answerKind } from '../../src/schema/kinds/answer.js';
import { attendanceKind } from '../../src/schema/kinds/attendance.js';
import { canvassKind } from '../../src/schema/kinds/canvass.js';
import { donationKind, recipientsProblem } from '../../src/schema/kinds/donation.js';
import { signatureKind } from '../../src/schema/kinds/signature.js';
import { submissionKind } from '../../src/schema/kinds/submission.js';
import { issuePaths, issuesOf } from './schema-issues.js';

const PERSON = 'https://api.example.org/api/v1/people/1';
const READ_ONLY = {
  created_date: '2026-01-01 10:00:00',
  modified_date: '2026-01-02T10:00:00Z',
  _embedded: { 'std:person': { given_name: 'Ana' } },
};

describe('action fields', () => {
  it('checks currencies and amounts for the reference server (strict) only', () => {
    expect(currency('strict').safeParse('EUR').success).toBe(true);
    expect(currency('strict').safeParse('eur').success).toBe(false);
    expect(currency('strict').safeParse('EURO').success).toBe(false);
    expect(money('strict').safeParse(-1).success).toBe(false);
    expect(money('strict').safeParse('five').success).toBe(false);
    // The server stores a decimal string as the number it stands for.
    expect(money('strict').parse('5.00')).toBe(5);
    // The SDK sends values as given (the server judges them), but checks JSON types.
    expect(currency('write').parse('eur')).toBe('eur');
    expect(currency('write').safeParse(978).success).toBe(false);
    expect(money('write').parse(-1)).toBe(-1);
    expect(money('write').parse('3.00')).toBe('3.00');
    expect(money('write').safeParse(true).success).toBe(false);
    // Read as sent, never converted; amountValue gives the number.
    expect(currency('read').parse('eur')).toBe('eur');
    expect(money('read').parse('-1.5')).toBe('-1.5');
    expect(amountValue(money('read').parse('-1.5'))).toBe(-1.5);
  });

  it("reads a ticket holder as the person's href, whatever the server sends", () => {
    const ticket = ticketSchema('read');
    expect(ticket.parse({ person: PERSON }).person).toBe(PERSON);
    expect(ticket.parse({ person: { href: PERSON } }).person).toBe(PERSON);
    expect(
      ticket.parse({ person: { given_name: 'Ana', _links: { self: { href: PERSON } } } }).person,
    ).toBe(PERSON);
    expect(ticket.safeParse({ person: { given_name: 'Ana' } }).success).toBe(false);
  });
});

describe('signature', () => {
  it('reads leniently: unknown members kept, any action_date, loose referrer data', () => {
    const signature = signatureKind.schema.parse({
      comments: 'Yes',
      action_date: '2026-03-01 10:00',
      referrer_data: { source: 'email', campaign: 'spring' },
      'vendor:score': 3,
    });
    expect(signature).toMatchObject({
      action_date: '2026-03-01 10:00',
      referrer_data: { source: 'email', campaign: 'spring' },
      'vendor:score': 3,
    });
  });

  it('accepts a complete create body with its person link and read-only members', () => {
    const body = {
      identifiers: ['crm:17'],
      origin_system: 'Kiosk',
      action_date: '2026-03-01T10:00:00+01:00',
      comments: 'The park matters.',
      referrer_data: { source: 'email-0412', referrer: 'group-7', website: 'example.org' },
      _links: { 'std:person': { href: PERSON } },
      ...READ_ONLY,
    };
    expect(issuePaths(signatureKind.writeSchema, body)).toEqual([]);
  });

  it('refuses what the spec forbids on write', () => {
    const body = {
      action_date: '2026-03-01 10:00',
      comments: 7,
      referrer_data: { campaign: 'spring' },
      signed: true,
    };
    expect(issuePaths(signatureKind.strictSchema, body)).toEqual([
      'action_date',
      'referrer_data',
      'comments',
      '',
    ]);
    // The date's format is the server's to judge; types and member names are checked.
    expect(issuePaths(signatureKind.writeSchema, body)).toEqual(['referrer_data', 'comments', '']);
  });
});

describe('submission', () => {
  it('keeps custom field values of any type on read and write, strings only on the server', () => {
    expect(submissionKind.schema.parse({ custom_fields: { guests: 2 } }).custom_fields).toEqual({
      guests: 2,
    });
    expect(issuePaths(submissionKind.strictSchema, { custom_fields: { guests: 2 } })).toEqual([
      'custom_fields.guests',
    ]);
    // What was read is written back as it was read.
    expect(issuePaths(submissionKind.writeSchema, { custom_fields: { guests: 2 } })).toEqual([]);
    expect(
      issuePaths(submissionKind.writeSchema, {
        custom_fields: { shirt_size: 'M' },
        referrer_data: { url: 'https://example.org/join' },
        ...READ_ONLY,
      }),
    ).toEqual([]);
  });
});

describe('donation', () => {
  const donation = {
    origin_system: 'Checkout',
    action_date: '2026-03-01T10:00:00Z',
    amount: 30,
    credited_amount: 0,
    credited_date: '2026-03-02T10:00:00Z',
    currency: 'USD',
    recipients: [
      { display_name: 'Park Fund', legal_name: 'Friends of the Park', amount: 20 },
      { display_name: 'Tree Fund', amount: 10 },
    ],
    payment: { method: 'Credit Card', reference_number: 'tx-881', authorization_stored: true },
    subscription_instance: '3',
    voided: false,
    url: 'https://example.org/give',
    referrer_data: { source: 'spring' },
    _links: { 'std:person': { href: PERSON } },
  };

  it('reads amounts as sent, open payment methods and string booleans', () => {
    const read = donationKind.schema.parse({
      amount: '25.50',
      recipients: [{ amount: '25.50', display_name: 'Park Fund' }],
      payment: { method: 'Crypto', processor: 'x' },
      voided: 'true',
      currency: 'usd',
    });
    expect(read).toMatchObject({
      amount: '25.50',
      recipients: [{ amount: '25.50' }],
      payment: { method: 'Crypto', processor: 'x' },
      voided: true,
      currency: 'usd',
    });
    expect(amountValue(read.amount)).toBe(25.5);
  });

  it('accepts a complete donation, another payment method and the read-only members', () => {
    expect(issuePaths(donationKind.writeSchema, { ...donation, ...READ_ONLY })).toEqual([]);
    expect(issuePaths(donationKind.writeSchema, { payment: { method: 'Money order' } })).toEqual(
      [],
    );
  });

  it('refuses bad currencies, negative amounts, dates and unknown members', () => {
    const body = {
      currency: 'usd',
      amount: -5,
      voided_date: 'yesterday',
      payment: { method: 'Check', check_number: '1' },
      recipients: [{ name: 'Park Fund' }],
      voided: 'true',
    };
    expect(issuePaths(donationKind.strictSchema, body)).toEqual([
      'amount',
      'currency',
      'recipients.0',
      'payment',
      'voided',
      'voided_date',
    ]);
    // Values are the server's to judge; unknown members and wrong types are refused.
    expect(issuePaths(donationKind.writeSchema, body)).toEqual([
      'recipients.0',
      'payment',
      'voided',
    ]);
  });

  it('refuses recipients that get more than was given, as a custom issue without rule code', () => {
    const over = { amount: 20, recipients: [{ amount: 15 }, { amount: 10 }] };
    expect(issuesOf(donationKind.strictSchema, over)).toEqual([
      { path: 'recipients', code: 'custom', rule: undefined },
    ]);
    // A cross-field rule is the server's: the SDK sends the record and lets it judge.
    expect(issuesOf(donationKind.writeSchema, over)).toEqual([]);
  });

  it('reports the recipients rule together with other problems', () => {
    const issues = issuesOf(donationKind.strictSchema, {
      amount: 20,
      currency: 'dollars',
      recipients: [{ amount: 15 }, { amount: 10 }],
    });
    expect(issues.map((issue) => issue.path)).toEqual(['currency', 'recipients']);
  });

  it('compares amounts with a tolerance for float sums', () => {
    expect(recipientsProblem(0.3, [{ amount: 0.1 }, { amount: 0.2 }])).toBeUndefined();
    expect(recipientsProblem(20, [{ amount: 15 }, { amount: 10 }])).toBe(
      "the recipients' amounts add up to 25, more than the amount 20",
    );
    expect(recipientsProblem(undefined, [{ amount: 15 }])).toBeUndefined();
    expect(recipientsProblem(-5, [{ amount: 15 }])).toBeUndefined();
    expect(recipientsProblem(20, [{ display_name: 'no amount' }, null])).toBeUndefined();
  });
});

describe('attendance', () => {
  it('reads open statuses, string amounts and ticket holders', () => {
    const attendance = attendanceKind.schema.parse({
      status: 'maybe',
      attended: 'false',
      tickets: [{ amount: '15', currency: 'usd', person: { href: PERSON }, seat: 'A4' }],
    });
    expect(attendance).toMatchObject({
      status: 'maybe',
      attended: false,
      tickets: [{ amount: '15', currency: 'usd', person: PERSON, seat: 'A4' }],
    });
    expect(amountValue(attendance.tickets?.[0]?.amount)).toBe(15);
  });

  it('accepts an RSVP and a ticketed attendance with the read-only members', () => {
    expect(
      issuePaths(attendanceKind.writeSchema, {
        status: 'needs action',
        attended: true,
        comment: 'Bringing a friend',
        referrer_data: { source: 'sms' },
        _links: { 'std:person': { href: PERSON } },
        ...READ_ONLY,
      }),
    ).toEqual([]);
    expect(
      issuePaths(attendanceKind.writeSchema, {
        status: 'accepted',
        tickets: [
          {
            title: 'General admission',
            description: 'Standing',
            amount: 15,
            currency: 'EUR',
            attended: false,
            person: PERSON,
          },
        ],
      }),
    ).toEqual([]);
    expect(attendanceKind.readOnly).toEqual([
      'created_date',
      'modified_date',
      'triggers',
      '_links',
      '_embedded',
    ]);
  });

  it('refuses statuses outside the list and malformed tickets', () => {
    const body = {
      status: 'maybe',
      attended: 'yes',
      tickets: [
        { amount: -1, currency: 'eur', person: '' },
        { title: 'VIP', seat: 'A4' },
      ],
    };
    expect(issuePaths(attendanceKind.strictSchema, body)).toEqual([
      'status',
      'attended',
      'tickets.0.amount',
      'tickets.0.currency',
      'tickets.0.person',
      'tickets.1',
    ]);
    // The status vocabulary and the values are the server's; types and names are checked.
    expect(issuePaths(attendanceKind.writeSchema, body)).toEqual(['attended', 'tickets.1']);
  });
});

describe('answer', () => {
  it('reads and writes responses as sent; the server refuses duplicates', () => {
    expect(answerKind.schema.parse({ responses: ['a', 'a'] }).responses).toEqual(['a', 'a']);
    expect(issuePaths(answerKind.strictSchema, { responses: ['a', 'a'] })).toEqual(['responses']);
    expect(issuePaths(answerKind.writeSchema, { responses: ['a', 'a'] })).toEqual([]);
    expect(
      issuePaths(answerKind.writeSchema, {
        origin_system: 'Canvass app',
        action_date: '2026-03-01T10:00:00Z',
        responses: ['yes', 'other'],
        value: 'More trees',
        _links: { 'std:question': { href: 'https://api.example.org/api/v1/questions/2' } },
        ...READ_ONLY,
      }),
    ).toEqual([]);
  });

  it('refuses a value that is not text and unknown members', () => {
    expect(
      issuePaths(answerKind.writeSchema, { value: 3, responses: 'yes', question: 'q' }),
    ).toEqual(['value', 'responses', '']);
  });
});

describe('canvass', () => {
  it('reads string booleans and any codes', () => {
    expect(canvassKind.schema.parse({ success: 'false', status_code: 'not_home', x: 1 })).toEqual({
      success: false,
      status_code: 'not_home',
      x: 1,
    });
  });

  it('accepts consistent success and status codes', () => {
    const base = { contact_type: 'door', input_type: 'mobile', ...READ_ONLY };
    for (const body of [
      { ...base, success: true },
      { ...base, success: true, status_code: '' },
      { ...base, success: true, status_code: null },
      { ...base, success: false, status_code: 'not_home' },
      { ...base, success: false },
      { ...base, status_code: 'refused' },
    ]) {
      expect(issuePaths(canvassKind.writeSchema, body)).toEqual([]);
    }
  });

  it('refuses a success that contradicts the status code, as a custom issue', () => {
    const contradiction = { success: true, status_code: 'not_home' };
    expect(issuesOf(canvassKind.strictSchema, contradiction)).toEqual([
      { path: 'status_code', code: 'custom', rule: undefined },
    ]);
    expect(issuePaths(canvassKind.strictSchema, { success: false, status_code: '' })).toEqual([
      'status_code',
    ]);
    // The rule is the server's: the SDK sends the record and lets it judge.
    expect(issuePaths(canvassKind.writeSchema, contradiction)).toEqual([]);
  });

  it('refuses wrong types and unknown members, with the rule reported too', () => {
    const body = { success: true, status_code: 'refused', contact_type: 3, canvasser: PERSON };
    expect(issuePaths(canvassKind.strictSchema, body)).toEqual(['contact_type', '', 'status_code']);
    expect(issuePaths(canvassKind.writeSchema, body)).toEqual(['contact_type', '']);
  });
});

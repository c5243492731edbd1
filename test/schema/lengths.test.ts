import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mode } from '../../src/schema/fields.js';
import {
  advocacyCampaignKind,
  eventKind,
  messageKind,
  organizationKind,
  outreachKind,
  personKind,
} from '../../src/schema/index.js';
import {
  EMAIL_ADDRESS_MAX,
  EMAIL_LOCAL_PART_MAX,
  SHORT_TEXT_MAX,
  shortText,
} from '../../src/schema/lengths.js';
import { emailText } from '../../src/schema/shared.js';
import { extendedHelperBodies, strictHelperBodies } from '../../src/server-kit/index.js';

// Length limits: the reference server's sides (strict, extended) hold email addresses to
// RFC 5321 (64 characters before the @, 254 in all) and names and other short texts to
// 255 characters; read and write take any length, so the SDK still reads (and writes
// back) what another server stores. Addresses and names are invented for the tests.

const SERVER_MODES = ['strict', 'extended'] as const satisfies readonly Mode[];
const CLIENT_MODES = ['read', 'write'] as const satisfies readonly Mode[];

type Parser = { safeParse(value: unknown): { success: boolean; error?: { issues: Issue[] } } };
type Issue = { path: PropertyKey[]; message: string };

/** The issues of `value` under `schema`, as `path: message`. */
function problems(schema: Parser, value: unknown): string[] {
  return (schema.safeParse(value).error?.issues ?? []).map(
    (issue) => `${issue.path.join('.')}: ${issue.message}`,
  );
}

/** An address of `local` characters before the @ and `total` characters in all. */
function address(local: number, total: number): string {
  const domain = total - local - 1; // `<label>.org`, the label at least one character
  expect(domain).toBeGreaterThanOrEqual(5);
  return `${'a'.repeat(local)}@${'d'.repeat(domain - 4)}.org`;
}

const LOCAL_TOO_LONG = `must have at most ${EMAIL_LOCAL_PART_MAX} characters before the @`;
const ADDRESS_TOO_LONG = `must be at most ${EMAIL_ADDRESS_MAX} characters`;
const TEXT_TOO_LONG = `must be at most ${SHORT_TEXT_MAX} characters`;

describe('email addresses within RFC 5321', () => {
  it('the limits are RFC 5321’s: 64 octets of local part, 254 of address', () => {
    expect([EMAIL_LOCAL_PART_MAX, EMAIL_ADDRESS_MAX]).toEqual([64, 254]);
  });

  it.each(SERVER_MODES)('%s takes 64 before the @ and 254 in all, refuses one more', (mode) => {
    const email = emailText(mode);
    expect(problems(email, address(64, 100))).toEqual([]);
    expect(problems(email, address(64, 254))).toEqual([]);
    expect(problems(email, address(65, 100))).toEqual([`: ${LOCAL_TOO_LONG}`]);
    expect(problems(email, address(60, 255))).toEqual([`: ${ADDRESS_TOO_LONG}`]);
    // The issue's own case: a 5,000-character local part breaks both limits.
    expect(problems(email, address(5000, 5100))).toEqual([
      `: ${ADDRESS_TOO_LONG}`,
      `: ${LOCAL_TOO_LONG}`,
    ]);
  });

  it('a long string without an @ is reported as no address, and as too long', () => {
    expect(problems(emailText('strict'), 'x'.repeat(300))).toEqual([
      ': must be an email address',
      `: ${ADDRESS_TOO_LONG}`,
    ]);
  });

  it.each(CLIENT_MODES)(
    '%s takes any length: a long address another server stores is read',
    (mode) => {
      expect(emailText(mode).safeParse(address(5000, 5100)).success).toBe(true);
      const person = { email_addresses: [{ address: address(5000, 5100) }] };
      expect(personKind[mode === 'read' ? 'schema' : 'writeSchema'].safeParse(person).success).toBe(
        true,
      );
    },
  );

  // Every member the server takes an email address in, each at its own path.
  const tooLong = address(65, 100);
  const emails = [{ address: tooLong }];
  const members: [string, Parser, unknown, string][] = [
    ['a person', personKind.strictSchema, { email_addresses: emails }, 'email_addresses.0.address'],
    [
      'an organization',
      organizationKind.strictSchema,
      { email_addresses: emails },
      'email_addresses.0.address',
    ],
    [
      'an event’s contact',
      eventKind.strictSchema,
      { contact: { email_address: tooLong } },
      'contact.email_address',
    ],
    ['a message’s reply_to', messageKind.strictSchema, { reply_to: tooLong }, 'reply_to'],
    [
      'an outreach’s target',
      outreachKind.strictSchema,
      { targets: [{ email_addresses: emails }] },
      'targets.0.email_addresses.0.address',
    ],
    [
      'an advocacy campaign’s target_list',
      advocacyCampaignKind.strictSchema,
      { target_list: [{ email_addresses: emails }] },
      'target_list.0.email_addresses.0.address',
    ],
    [
      'the signature helper’s person',
      strictHelperBodies().recordSignature,
      { person: { email_addresses: emails } },
      'person.email_addresses.0.address',
    ],
    [
      'the signup helper’s person (extended)',
      extendedHelperBodies().personSignup,
      { person: { email_addresses: emails } },
      'person.email_addresses.0.address',
    ],
    [
      'a ticket’s person in the attendance helper',
      strictHelperBodies().recordAttendance,
      { person: { given_name: 'Ana' }, tickets: [{ person: { email_addresses: emails } }] },
      'tickets.0.person.email_addresses.0.address',
    ],
    [
      'the canvass helper’s canvasser',
      strictHelperBodies().recordCanvass,
      { canvass: { canvasser: { email_addresses: emails } } },
      'canvass.canvasser.email_addresses.0.address',
    ],
    [
      'the outreach helper’s target',
      strictHelperBodies().recordOutreach,
      { person: { given_name: 'Ana' }, targets: [{ email_addresses: emails }] },
      'targets.0.email_addresses.0.address',
    ],
  ];

  it.each(members)('%s: refused at its path, saying the limit', (_, schema, body, path) => {
    expect(problems(schema, body)).toEqual([`${path}: ${LOCAL_TOO_LONG}`]);
  });
});

describe('names and other short texts', () => {
  it.each(SERVER_MODES)('%s takes 255 characters and refuses 256', (mode) => {
    expect(problems(shortText(mode), 'x'.repeat(255))).toEqual([]);
    expect(problems(shortText(mode), 'x'.repeat(256))).toEqual([`: ${TEXT_TOO_LONG}`]);
  });

  const personMembers = [
    'family_name',
    'given_name',
    'additional_name',
    'honorific_prefix',
    'honorific_suffix',
    'gender_identity',
    'source',
    'employer',
    'work_title',
    'work_department',
  ];

  it.each(personMembers)('a person’s %s is bounded for the server, not for the SDK', (member) => {
    const long = { [member]: 'x'.repeat(SHORT_TEXT_MAX + 1) };
    expect(problems(personKind.strictSchema, long)).toEqual([`${member}: ${TEXT_TOO_LONG}`]);
    expect(problems(personKind.extendedSchema, long)).toEqual([`${member}: ${TEXT_TOO_LONG}`]);
    expect(personKind.schema.safeParse(long).success).toBe(true);
    expect(personKind.writeSchema.safeParse(long).success).toBe(true);
  });

  it('bounds the short members of addresses, phones, profiles, targets and contacts', () => {
    const long = 'x'.repeat(SHORT_TEXT_MAX + 1);
    const person = {
      additional_gender_identities: ['ok', long],
      postal_addresses: [
        { venue: long, address_lines: [long], locality: long, postal_code: long, occupation: long },
      ],
      employer_address: { locality: long },
      phone_numbers: [{ extension: long, description: long, operator: long }],
      profiles: [{ provider: long, id: long, handle: long }],
    };
    expect(problems(personKind.strictSchema, person)).toEqual(
      [
        'additional_gender_identities.1',
        'employer_address.locality',
        'postal_addresses.0.venue',
        'postal_addresses.0.address_lines.0',
        'postal_addresses.0.locality',
        'postal_addresses.0.postal_code',
        'postal_addresses.0.occupation',
        'phone_numbers.0.extension',
        'phone_numbers.0.description',
        'phone_numbers.0.operator',
        'profiles.0.provider',
        'profiles.0.id',
        'profiles.0.handle',
      ].map((path) => `${path}: ${TEXT_TOO_LONG}`),
    );
    const target = { title: long, organization: long, given_name: long, family_name: long };
    expect(problems(outreachKind.strictSchema, { targets: [target] })).toHaveLength(4);
    expect(problems(eventKind.strictSchema, { contact: { name: long } })).toEqual([
      `contact.name: ${TEXT_TOO_LONG}`,
    ]);
  });

  it('a handle keeps its own rule beside the bound', () => {
    expect(problems(personKind.strictSchema, { profiles: [{ handle: '@ana' }] })).toEqual([
      'profiles.0.handle: must not start with @',
    ]);
  });
});

describe('the limits, for any address and any text (fast-check)', () => {
  const alnum = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
  /** `length` characters the email format takes anywhere in a local part or a label. */
  const word = (length: number) =>
    fc.array(alnum, { minLength: length, maxLength: length }).map((chars) => chars.join(''));
  /** An address of a local part of `local` characters and `total` in all, random letters. */
  const addressOf = (local: number, total: number) =>
    fc
      .tuple(word(local), word(total - local - 1 - 4))
      .map(([before, label]) => `${before}@${label}.org`);
  const mode = fc.constantFrom(...SERVER_MODES);

  it('an address at or under both limits is taken', () => {
    const within = fc
      .integer({ min: 1, max: EMAIL_LOCAL_PART_MAX })
      .chain((local) =>
        fc.tuple(fc.constant(local), fc.integer({ min: local + 6, max: EMAIL_ADDRESS_MAX })),
      )
      .chain(([local, total]) => addressOf(local, total));
    fc.assert(
      fc.property(within, mode, (email, side) => {
        expect(problems(emailText(side), email)).toEqual([]);
      }),
    );
  });

  it('a local part over 64 is refused, whatever the rest', () => {
    const over = fc
      .integer({ min: EMAIL_LOCAL_PART_MAX + 1, max: 400 })
      .chain((local) => fc.tuple(fc.constant(local), fc.integer({ min: local + 6, max: 600 })))
      .chain(([local, total]) => addressOf(local, total));
    fc.assert(
      fc.property(over, mode, (email, side) => {
        expect(problems(emailText(side), email)).toContain(`: ${LOCAL_TOO_LONG}`);
      }),
    );
  });

  it('an address over 254 is refused, whatever its local part', () => {
    const over = fc
      .integer({ min: 1, max: EMAIL_LOCAL_PART_MAX })
      .chain((local) =>
        fc.tuple(fc.constant(local), fc.integer({ min: EMAIL_ADDRESS_MAX + 1, max: 2000 })),
      )
      .chain(([local, total]) => addressOf(local, total));
    fc.assert(
      fc.property(over, mode, (email, side) => {
        expect(problems(emailText(side), email)).toEqual([`: ${ADDRESS_TOO_LONG}`]);
      }),
    );
  });

  it('any string over 254 is refused by the server, and read and written by the SDK', () => {
    const long = fc.string({ minLength: EMAIL_ADDRESS_MAX + 1, maxLength: 2000 });
    fc.assert(
      fc.property(long, mode, fc.constantFrom(...CLIENT_MODES), (text, side, client) => {
        expect(problems(emailText(side), text)).toContain(`: ${ADDRESS_TOO_LONG}`);
        expect(emailText(client).safeParse(text).success).toBe(true);
      }),
    );
  });

  it('a short text of at most 255 characters is taken, a longer one refused', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: SHORT_TEXT_MAX }), mode, (text, side) => {
        expect(shortText(side).safeParse(text).success).toBe(true);
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ minLength: SHORT_TEXT_MAX + 1, maxLength: 3000 }),
        mode,
        fc.constantFrom(...CLIENT_MODES),
        (text, side, client) => {
          expect(problems(shortText(side), text)).toEqual([`: ${TEXT_TOO_LONG}`]);
          expect(shortText(client).safeParse(text).success).toBe(true);
        },
      ),
    );
  });
});

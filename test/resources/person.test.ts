import { describe, expect, it } from 'vitest';
import { personKind } from '../../src/schema/kinds/person.js';

/** The paths of the problems the write side (or the reference server's strict side) finds. */
function issuePaths(input: unknown, side: 'write' | 'strict' = 'write'): string[] {
  const schema = side === 'write' ? personKind.writeSchema : personKind.strictSchema;
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('personKind.schema (read)', () => {
  it('keeps unknown members, including vendor fields', () => {
    const person = personKind.schema.parse({ given_name: 'Ana', 'vendor:score': 7, nickname: 'A' });
    expect(person).toMatchObject({ given_name: 'Ana', 'vendor:score': 7, nickname: 'A' });
  });

  it('accepts any string for flexenums and enums', () => {
    const person = personKind.schema.parse({
      gender: 'female',
      party_identification: 'Green',
      email_addresses: [{ address: 'a@example.org', address_type: 'school', status: 'pending' }],
    });
    expect(person.gender).toBe('female');
    expect(person.party_identification).toBe('Green');
    expect(person.email_addresses?.[0]?.status).toBe('pending');
  });

  it('reads the variant spellings of READING-NOTES.md', () => {
    const person = personKind.schema.parse({
      gender_pronouns: { subject: 'She', possessive: 'Hers' },
      phone_numbers: [
        { primary: 'true', number: 12025550123 },
        { primary: 'false', number: '442071234567' },
      ],
    });
    expect(person.gender_pronouns?.posessive).toBe('Hers');
    expect(person.phone_numbers?.[0]).toMatchObject({ primary: true, number: '12025550123' });
    expect(person.phone_numbers?.[1]?.primary).toBe(false);
  });

  it('accepts null for unset members and numeric strings for birthdate parts', () => {
    const person = personKind.schema.parse({
      family_name: null,
      birthdate: { year: '1990', month: 4 },
    });
    expect(person.family_name).toBeNull();
    expect(person.birthdate?.year).toBe(1990);
  });

  it('still rejects a member of the wrong kind, naming its path', () => {
    const result = personKind.schema.safeParse({ email_addresses: 'a@example.org' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['email_addresses']);
  });
});

describe('personKind.writeSchema (write)', () => {
  it('accepts a complete valid person', () => {
    const result = personKind.writeSchema.safeParse({
      identifiers: ['crm:881'],
      given_name: 'Ana',
      family_name: 'Lopez',
      gender: 'Female',
      gender_pronouns: { subject: 'She', object: 'Her', posessive: 'Hers' },
      languages_spoken: ['en', 'es-MX'],
      birthdate: { year: 1990, month: 4, day: 12 },
      postal_addresses: [
        {
          primary: true,
          address_lines: ['1 Main St'],
          locality: 'Springfield',
          region: 'IL',
          postal_code: '62701',
          country: 'US',
        },
      ],
      email_addresses: [{ primary: true, address: 'ana@example.org', status: 'subscribed' }],
      phone_numbers: [
        { primary: true, number: '12175550123', number_type: 'Mobile', sms_capable: true },
      ],
      profiles: [{ provider: 'Mastodon', handle: 'ana' }],
      custom_fields: { shift: 'morning' },
    });
    expect(result.success).toBe(true);
  });

  it('rejects invalid phone numbers, emails, enums and ISO codes with their paths (server)', () => {
    const person = {
      gender: 'female',
      email_addresses: [{ address: 'not-an-email' }],
      phone_numbers: [{ number: '+1 (217) 555-0123' }],
      postal_addresses: [{ country: 'USA', region: 'Illinois' }],
    };
    expect(issuePaths(person, 'strict').sort()).toEqual([
      'email_addresses.0.address',
      'gender',
      'phone_numbers.0.number',
      'postal_addresses.0.country',
      'postal_addresses.0.region',
    ]);
    // Formats and vocabulary are the server's to judge; the SDK sends them as given.
    expect(issuePaths(person)).toEqual([]);
  });

  it('rejects wrong JSON types before sending, with their paths', () => {
    expect(
      issuePaths({
        gender: 1,
        email_addresses: [{ address: ['ana@example.org'] }],
        phone_numbers: [{ number: 12175550123 }],
        postal_addresses: { country: 'US' },
      }).sort(),
    ).toEqual([
      'email_addresses.0.address',
      'gender',
      'phone_numbers.0.number',
      'postal_addresses',
    ]);
  });

  it('rejects unknown members, which are usually typos', () => {
    const result = personKind.writeSchema.safeParse({ given_nme: 'Ana' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      code: 'unrecognized_keys',
      keys: ['given_nme'],
    });
  });

  it('allows at most one primary email, phone and address (server)', () => {
    const person = {
      email_addresses: [
        { primary: true, address: 'a@example.org' },
        { primary: true, address: 'b@example.org' },
      ],
      phone_numbers: [
        { primary: true, number: '12175550123' },
        { primary: false, number: '12175550124' },
      ],
    };
    expect(issuePaths(person, 'strict')).toEqual(['email_addresses.1.primary']);
    // The rule is the server's: the SDK sends the record and lets it judge.
    expect(issuePaths(person)).toEqual([]);
  });

  it('rejects duplicated identifiers and malformed ones (server)', () => {
    expect(issuePaths({ identifiers: ['crm:1', 'crm:1'] }, 'strict')).toEqual(['identifiers']);
    expect(issuePaths({ identifiers: ['no-system'] }, 'strict')).toEqual(['identifiers.0']);
    expect(issuePaths({ identifiers: ['crm:1', 'crm:1'] })).toEqual([]);
    expect(issuePaths({ identifiers: ['no-system'] })).toEqual([]);
    expect(issuePaths({ identifiers: 'crm:1' })).toEqual(['identifiers']);
  });

  it('accepts null to clear a field on update, and ignores read-only dates', () => {
    expect(issuePaths({ family_name: null, created_date: 'whatever' })).toEqual([]);
  });

  it('rejects a profile handle with a leading @ and an impossible birth month (server)', () => {
    const person = { profiles: [{ handle: '@ana' }], birthdate: { month: 13 } };
    expect(issuePaths(person, 'strict').sort()).toEqual(['birthdate.month', 'profiles.0.handle']);
    expect(issuePaths(person)).toEqual([]);
    expect(issuePaths({ birthdate: { month: 'April' } })).toEqual(['birthdate.month']);
  });
});

describe('personKind.writeSchema normalisation', () => {
  it('reports a second primary together with other problems, with a stable code (server)', () => {
    const result = personKind.strictSchema.safeParse({
      gender: 'female',
      phone_numbers: [
        { primary: true, number: '12025550123' },
        { primary: true, number: '12025550124' },
      ],
    });
    const issues = result.success ? [] : result.error.issues;
    expect(issues.map((issue) => issue.path.join('.')).sort()).toEqual([
      'gender',
      'phone_numbers.1.primary',
    ]);
    const primary = issues.find((issue) => issue.path.at(-1) === 'primary');
    expect(primary && 'params' in primary ? primary.params : undefined).toEqual({
      code: 'MULTIPLE_PRIMARY',
    });
  });

  it('accepts "true"/"false" for a phone primary and `possessive`, and outputs the wire forms', () => {
    const parsed = personKind.writeSchema.parse({
      phone_numbers: [{ primary: 'true', number: '12025550123' }],
      gender_pronouns: { possessive: 'Theirs' },
    });
    expect(parsed.phone_numbers?.[0]?.primary).toBe(true);
    expect(parsed.gender_pronouns).toEqual({ posessive: 'Theirs' });
  });
});

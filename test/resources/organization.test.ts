import { describe, expect, it } from 'vitest';
import { organizationKind } from '../../src/schema/kinds/organization.js';
import { fixture, href } from './content-fixtures.js';
import { issuePaths, issuesOf } from './schema-issues.js';

describe('organizationKind.schema (read)', () => {
  it('keeps unknown members and any legal status or party', () => {
    const organization = organizationKind.schema.parse({
      organization: 'SPA',
      legal_status: '501(c)(3)',
      party_identification: 'Green',
      languages_spoken: ['en', 'en'],
      phone_numbers: [{ number: 12175550100, primary: 'true' }],
      'vendor:members': 1200,
    });
    expect(organization).toMatchObject({
      legal_status: '501(c)(3)',
      party_identification: 'Green',
      'vendor:members': 1200,
      phone_numbers: [{ number: '12175550100', primary: true }],
    });
  });
});

describe('organizationKind.writeSchema (write)', () => {
  it('accepts a complete organization', () => {
    expect(
      issuePaths(organizationKind.writeSchema, {
        identifiers: ['crm:org-1'],
        organization: 'SPA',
        legal_status: 'c4',
        logo_image_url: 'https://parks.example.org/logo.png',
        site_url: 'https://parks.example.org',
        summary: 'Springfield Parks Alliance',
        description: 'Keeps the parks of Springfield public.',
        party_identification: 'None',
        source: 'import-2026',
        languages_spoken: ['en', 'es-MX'],
        browser_url: 'https://parks.example.org/about',
        administrative_url: 'https://admin.example.org/orgs/1',
        postal_addresses: [{ primary: true, locality: 'Springfield', region: 'IL', country: 'US' }],
        email_addresses: [{ primary: true, address: 'info@parks.example.org' }],
        phone_numbers: [{ primary: true, number: '12175550100' }],
        profiles: [{ provider: 'Mastodon', handle: 'parks' }],
        custom_fields: { chapter: 'north' },
        created_date: '2026-01-01T00:00:00Z',
      }),
    ).toEqual([]);
    expect(organizationKind.readOnly).toEqual(
      expect.arrayContaining(['created_date', 'modified_date']),
    );
  });

  it('accepts legal statuses and parties beyond the listed ones (flexenums)', () => {
    expect(
      issuePaths(organizationKind.writeSchema, {
        legal_status: 'coop',
        party_identification: 'Green',
      }),
    ).toEqual([]);
  });

  it('refuses duplicate or malformed languages, bad contacts and unknown members', () => {
    const organization = {
      languages_spoken: ['en', 'en'],
      email_addresses: [{ address: 'not-an-email' }],
      phone_numbers: [{ number: '555' }],
      profiles: [{ handle: '@parks' }],
    };
    expect(issuePaths(organizationKind.strictSchema, organization).sort()).toEqual([
      'email_addresses.0.address',
      'languages_spoken',
      'phone_numbers.0.number',
      'profiles.0.handle',
    ]);
    expect(issuePaths(organizationKind.strictSchema, { languages_spoken: ['english'] })).toEqual([
      'languages_spoken.0',
    ]);
    // Formats and uniqueness are the server's to judge; JSON types and names are checked.
    expect(issuePaths(organizationKind.writeSchema, organization)).toEqual([]);
    expect(issuePaths(organizationKind.writeSchema, { languages_spoken: ['english'] })).toEqual([]);
    expect(
      issuePaths(organizationKind.writeSchema, {
        languages_spoken: 'en',
        profiles: [{ handle: 1 }],
      }),
    ).toEqual(['languages_spoken', 'profiles.0.handle']);
    expect(issuesOf(organizationKind.writeSchema, { name: 'SPA' })).toEqual([
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
  });

  it('allows one primary phone only, with the MULTIPLE_PRIMARY code', () => {
    const organization = {
      phone_numbers: [
        { primary: true, number: '12175550100' },
        { primary: true, number: '12175550101' },
      ],
    };
    expect(issuesOf(organizationKind.strictSchema, organization)).toEqual([
      { path: 'phone_numbers.1.primary', code: 'custom', rule: 'MULTIPLE_PRIMARY' },
    ]);
    // The rule is the server's: the SDK sends the record and lets it judge.
    expect(issuesOf(organizationKind.writeSchema, organization)).toEqual([]);
  });
});

describe('OrganizationResource', () => {
  it('links its editor and the collections of records that link it', async () => {
    const links: Record<string, { href: string }> = {};
    const plurals = [
      'events',
      'petitions',
      'donations',
      'submissions',
      'attendances',
      'signatures',
      'outreaches',
      'answers',
      'taggings',
      'items',
    ] as const;
    for (const plural of plurals) links[`std:${plural}`] = href(`organizations/1/${plural}`);
    const { resource: organization } = fixture(
      organizationKind,
      'organizations/1',
      { organization: 'SPA', _links: { ...links, 'std:modified_by': href('people/3') } },
      { 'people/3': { given_name: 'Dee' } },
    );
    for (const plural of plurals) {
      expect(await organization[plural]().url()).toBe(links[`std:${plural}`]?.href);
      expect(organization[plural]().itemRelation).toBe(`std:${plural}`);
    }
    expect((await organization.modifiedBy())?.data.given_name).toBe('Dee');
  });
});

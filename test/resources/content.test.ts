import { describe, expect, it } from 'vitest';
import {
  computedMember,
  shareOptionSchema,
  targetSchema,
} from '../../src/schema/content-fields.js';
import { integer } from '../../src/schema/fields.js';
import { advocacyCampaignKind } from '../../src/schema/kinds/advocacy-campaign.js';
import { formKind } from '../../src/schema/kinds/form.js';
import { fundraisingPageKind } from '../../src/schema/kinds/fundraising-page.js';
import { petitionKind } from '../../src/schema/kinds/petition.js';
import { sharePageKind } from '../../src/schema/kinds/share-page.js';
import { fixture, href } from './content-fixtures.js';
import { issuePaths, issuesOf } from './schema-issues.js';

const CONTENT = {
  origin_system: 'Parks CRM',
  name: 'park-2026',
  title: 'Save Elm Park',
  description: '<p>Keep Elm Park public.</p>',
  summary: 'Keep Elm Park public.',
  browser_url: 'https://parks.example.org/elm',
  administrative_url: 'https://admin.parks.example.org/elm',
  featured_image_url: 'https://parks.example.org/elm.jpg',
};

describe('share options', () => {
  const write = shareOptionSchema('write');
  const strict = shareOptionSchema('strict');
  const read = shareOptionSchema('read');

  it('reads every network, named or not, and numeric-string totals', () => {
    const option = read.parse({
      network_a_share: { title: 'Save the park', total_shares: '12', extra: true },
      facebook_share: { title: 'Save the park', total_shares: 4 },
      note: 'kept',
    });
    expect(option.network_a_share?.total_shares).toBe(12);
    expect(option.network_a_share).toMatchObject({ extra: true });
    expect(option).toMatchObject({ facebook_share: { total_shares: 4 }, note: 'kept' });
  });

  it('accepts the named networks and other <network>_share objects on write', () => {
    expect(
      issuePaths(write, {
        network_a_share: { title: 'T', description: 'D', image: 'https://x.org/i.png' },
        network_b_share: { message: 'Join us', share_url: 'https://x.org/s' },
        email_share: { subject: 'Sign', body: 'Please sign' },
        facebook_share: { title: 'T', description: null },
        twitter_share: { message: 'Join us' },
      }),
    ).toEqual([]);
  });

  it('takes share counts per network on write (the sharing system reports them)', () => {
    expect(
      issuePaths(write, {
        network_b_share: { message: 'M', total_shares: 10 },
        facebook_share: { title: 'T', total_shares: 3 },
      }),
    ).toEqual([]);
    const counts = { network_b_share: { total_shares: -1 }, facebook_share: { total_shares: '3' } };
    expect(issuePaths(strict, counts)).toEqual([
      'network_b_share.total_shares',
      'facebook_share.total_shares',
    ]);
    // Both are the server's to refuse: a network the spec does not name is read as it
    // came (a count as a string included), so it is written back as it came.
    expect(issuePaths(write, counts)).toEqual([]);
    expect(computedMember(integer('read'), 'write').parse('anything')).toBe('anything');
  });

  it('checks the named networks strictly and other networks as objects (of strings, on the server)', () => {
    const option = {
      network_a_share: { titel: 'T' },
      email_share: { subject: 5 },
      twitter_share: { message: 5 },
      mastodon_share: 'not an object',
    };
    expect(issuesOf(strict, option)).toEqual([
      { path: 'network_a_share', code: 'unrecognized_keys', rule: undefined },
      { path: 'email_share.subject', code: 'invalid_type', rule: undefined },
      { path: 'twitter_share.message', code: 'custom', rule: undefined },
      { path: 'mastodon_share', code: 'custom', rule: undefined },
    ]);
    // An unnamed network is written back as it was read, whatever it holds; the named
    // ones keep their member names and types.
    expect(issuesOf(write, option)).toEqual([
      { path: 'network_a_share', code: 'unrecognized_keys', rule: undefined },
      { path: 'email_share.subject', code: 'invalid_type', rule: undefined },
    ]);
    // Vendor members of an unnamed network are not held to strings, even on the server.
    expect(issuesOf(strict, { facebook_share: { 'acme:score': 3 } })).toEqual([]);
  });

  it('refuses members that are not share networks, naming them', () => {
    const result = write.safeParse({
      network_a_share: { title: 'T' },
      titel: 'x',
      Big_share: {},
      constructor: {},
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['titel'], path: [] }),
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['Big_share'], path: [] }),
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['constructor'], path: [] }),
    ]);
  });

  it('still checks unknown members when a named network has a wrong type', () => {
    expect(issuePaths(write, { network_b_share: 'text', typo: 1 })).toEqual([
      'network_b_share',
      '',
    ]);
  });
});

describe('target', () => {
  it('applies the person rules to addresses, emails and phones on the server', () => {
    const target = {
      title: 'Senator',
      ocdid: 'ocd-division/country:us/state:il',
      email_addresses: [
        { primary: true, address: 's@senate.example.gov' },
        { primary: true, address: 'office@senate.example.gov' },
      ],
      phone_numbers: [{ number: '(217) 555-0100' }],
      postal_addresses: [{ country: 'USA' }],
    };
    expect(issuePaths(targetSchema('strict'), target).sort()).toEqual([
      'email_addresses.1.primary',
      'phone_numbers.0.number',
      'postal_addresses.0.country',
    ]);
    // Formats and rules are the server's; member names and types are checked before sending.
    expect(issuePaths(targetSchema('write'), target)).toEqual([]);
    expect(
      issuePaths(targetSchema('write'), {
        email_addresses: [{ address: 5 }],
        phone_numbers: [{ numbr: '12175550100' }],
      }).sort(),
    ).toEqual(['email_addresses.0.address', 'phone_numbers.0']);
  });

  it('reads leniently', () => {
    const target = targetSchema('read').parse({
      family_name: 'Lopez',
      party: 'Green',
      phone_numbers: [{ number: 12175550100, primary: 'true' }],
    });
    expect(target).toMatchObject({ party: 'Green', phone_numbers: [{ number: '12175550100' }] });
  });
});

describe('petition', () => {
  it('reads leniently: unknown members, numeric-string totals, loose targets', () => {
    const petition = petitionKind.schema.parse({
      ...CONTENT,
      total_signatures: '1042',
      total_shares: 7,
      target: [{ name: 'City Council', district: 4 }],
      'vendor:goal': 2000,
    });
    expect(petition.total_signatures).toBe(1042);
    expect(petition.target?.[0]).toMatchObject({ name: 'City Council', district: 4 });
    expect(petition['vendor:goal']).toBe(2000);
  });

  it('accepts a complete petition, and read-only totals it ignores', () => {
    expect(
      issuePaths(petitionKind.writeSchema, {
        ...CONTENT,
        identifiers: ['crm:p-12'],
        petition_text: 'We ask the council to keep Elm Park public.',
        target: [{ name: 'City Council' }],
        share_url: 'https://parks.example.org/elm/share',
        share_options: [{ email_share: { subject: 'Sign', total_shares: 3 } }],
        total_signatures: 1042,
        total_shares: 7,
        created_date: '2026-01-01T00:00:00Z',
        _links: { self: href('petitions/1') },
      }),
    ).toEqual([]);
    expect(petitionKind.readOnly).toEqual(
      expect.arrayContaining(['total_signatures', 'total_shares', 'created_date']),
    );
  });

  it('refuses unknown members, wrong types and targets with other members', () => {
    expect(
      issuesOf(petitionKind.writeSchema, {
        titel: 'typo',
        petition_text: 12,
        target: [{ name: 'Council', title: 'x' }],
      }),
    ).toEqual([
      { path: 'petition_text', code: 'invalid_type', rule: undefined },
      { path: 'target.0', code: 'unrecognized_keys', rule: undefined },
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
  });

  it('links its creator, sponsor, editor, signatures and taggings', async () => {
    const { resource: petition, requested } = fixture(
      petitionKind,
      'petitions/1',
      {
        title: 'Save Elm Park',
        _links: {
          self: href('petitions/1'),
          'std:creator': href('people/1'),
          'std:sponsor': href('organizations/1'),
          'std:signatures': href('petitions/1/signatures'),
          'std:taggings': href('petitions/1/taggings'),
        },
        _embedded: {
          'std:sponsor': { organization: 'SPA', _links: { self: href('organizations/1') } },
        },
      },
      {
        'people/1': { given_name: 'Ana', _links: { self: href('people/1') } },
        'petitions/1/signatures': {
          _embedded: {
            'std:signatures': [
              { comments: 'Yes!', _links: { self: href('petitions/1/signatures/9') } },
            ],
          },
        },
      },
    );
    expect((await petition.sponsor())?.data.organization).toBe('SPA');
    expect(requested).toEqual([]);
    expect((await petition.creator())?.data.given_name).toBe('Ana');
    expect(await petition.modifiedBy()).toBeUndefined();
    const signatures = await petition.signatures().toArray();
    expect(signatures.map((s) => s.data.comments)).toEqual(['Yes!']);
    expect(requested).toEqual(['people/1', 'petitions/1/signatures']);
    expect(await petition.taggings().url()).toBe(href('petitions/1/taggings').href);
  });
});

describe('form', () => {
  it('reads call_to_action and a numeric-string total_submissions', () => {
    const form = formKind.schema.parse({
      ...CONTENT,
      call_to_action: 'Sign up',
      total_submissions: '5',
    });
    expect(form).toMatchObject({ call_to_action: 'Sign up', total_submissions: 5 });
  });

  it('accepts read-only totals on write and refuses unknown members', () => {
    expect(
      issuePaths(formKind.writeSchema, { ...CONTENT, total_submissions: 5, total_shares: 1 }),
    ).toEqual([]);
    expect(issuesOf(formKind.writeSchema, { call_to_acton: 'x' })).toEqual([
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
    expect(formKind.readOnly).toContain('total_submissions');
  });

  it('links its submissions and taggings', async () => {
    const { resource: form } = fixture(
      formKind,
      'forms/1',
      {
        _links: {
          'std:submissions': href('forms/1/submissions'),
          'std:taggings': href('forms/1/taggings'),
          'std:modified_by': href('people/2'),
        },
      },
      { 'people/2': { given_name: 'Bo' } },
    );
    expect(await form.submissions().url()).toBe(href('forms/1/submissions').href);
    expect(await form.taggings().url()).toBe(href('forms/1/taggings').href);
    expect((await form.modifiedBy())?.data.given_name).toBe('Bo');
    expect(await form.creator()).toBeUndefined();
  });
});

describe('fundraising page', () => {
  it('reads totals from numeric strings and any currency', () => {
    const page = fundraisingPageKind.schema.parse({
      currency: 'usd',
      total_donations: '3',
      total_amount: '1250.50',
    });
    expect(page).toMatchObject({ currency: 'usd', total_donations: 3, total_amount: '1250.50' }); // money as given
  });

  it('requires an ISO 4217 currency on the server and ignores totals', () => {
    expect(
      issuePaths(fundraisingPageKind.strictSchema, { currency: 'USD', total_amount: 5 }),
    ).toEqual([]);
    for (const currency of ['usd', 'US$', 'DOLLAR']) {
      expect(issuePaths(fundraisingPageKind.strictSchema, { currency })).toEqual(['currency']);
      // The currency is the server's to judge.
      expect(issuePaths(fundraisingPageKind.writeSchema, { currency })).toEqual([]);
    }
    expect(issuePaths(fundraisingPageKind.writeSchema, { currency: 840 })).toEqual(['currency']);
  });

  it('links its donations', async () => {
    const { resource: page } = fixture(fundraisingPageKind, 'fundraising_pages/1', {
      _links: { 'std:donations': href('fundraising_pages/1/donations') },
    });
    expect(await page.donations().url()).toBe(href('fundraising_pages/1/donations').href);
  });
});

describe('share page', () => {
  it('has the content fields without featured_image_url', () => {
    const { featured_image_url: _image, ...fields } = CONTENT;
    expect(issuePaths(sharePageKind.writeSchema, { ...fields, total_shares: 3 })).toEqual([]);
    expect(issuesOf(sharePageKind.writeSchema, { featured_image_url: 'x' })).toEqual([
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
    // Not a share page member, so not in its type (a typo stays a compile error); the
    // read side keeps it all the same.
    const read = sharePageKind.schema.parse({ featured_image_url: 'x' }) as Record<string, unknown>;
    expect(read.featured_image_url).toBe('x');
    expect(sharePageKind.readOnly).toContain('total_shares');
  });

  it('checks its share options', () => {
    expect(
      issuePaths(sharePageKind.writeSchema, {
        share_options: [{ email_share: { subject: 'Hi' } }, { network_b_share: { text: 'x' } }],
      }),
    ).toEqual(['share_options.1.network_b_share']);
  });

  it('links its creator and taggings', async () => {
    const { resource: page } = fixture(sharePageKind, 'share_pages/1', {
      _links: { 'std:taggings': href('share_pages/1/taggings') },
      _embedded: { 'std:creator': { given_name: 'Cy' } },
    });
    expect((await page.creator())?.data.given_name).toBe('Cy');
    expect(await page.taggings().url()).toBe(href('share_pages/1/taggings').href);
  });
});

describe('advocacy campaign', () => {
  it('reads templates, the targets description, the target list and any type', () => {
    const campaign = advocacyCampaignKind.schema.parse({
      templates: ['Hello'],
      targets: 'Illinois state senators',
      target_list: [{ family_name: 'Lopez', party: 'D' }],
      type: 'carrier pigeon',
      total_outreaches: '40',
    });
    expect(campaign).toMatchObject({
      targets: 'Illinois state senators',
      type: 'carrier pigeon',
      total_outreaches: 40,
    });
    expect(campaign.target_list?.[0]).toMatchObject({ party: 'D' });
  });

  it('accepts any type on write (flexenum) and checks targets and templates', () => {
    expect(
      issuePaths(advocacyCampaignKind.writeSchema, {
        ...CONTENT,
        type: 'text message',
        templates: ['Call script'],
        targets: 'State senators',
        target_list: [{ title: 'Senator', family_name: 'Lopez' }],
        total_outreaches: 40,
      }),
    ).toEqual([]);
    expect(
      issuePaths(advocacyCampaignKind.writeSchema, {
        templates: 'one script',
        // A description or Target objects (Action Network's): not a number.
        targets: 7,
        target_list: [{ name: 'Lopez' }],
      }),
    ).toEqual(['templates', 'targets', 'target_list.0']);
  });

  it('links its outreaches', async () => {
    const { resource: campaign } = fixture(advocacyCampaignKind, 'advocacy_campaigns/1', {
      _links: { 'std:outreaches': href('advocacy_campaigns/1/outreaches') },
    });
    expect(await campaign.outreaches().url()).toBe(href('advocacy_campaigns/1/outreaches').href);
    expect(await campaign.creator()).toBeUndefined();
  });
});

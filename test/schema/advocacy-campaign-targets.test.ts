import { describe, expect, it } from 'vitest';
import { advocacyCampaignKind } from '../../src/schema/index.js';

// An advocacy campaign's `targets`: a description of the target universe in the spec
// (the targets themselves are `target_list`), an array of Target objects at Action
// Network. The SDK reads and writes back either as it came; the reference server takes
// the array only under a real server's preset (extended). Data invented for the tests.

const described = { title: 'Call the water board', targets: 'The five water board members' };

const asObjects = {
  title: 'Write to the transit board',
  targets: [
    {
      title: 'Commissioner',
      organization: 'Harbor Transit Board',
      given_name: 'Pat',
      family_name: 'Lindqvist',
      ocdid: 'ocd-division/country:us/state:or/county:multnomah',
      email_addresses: [{ address: 'p.lindqvist@transit.example.org' }],
      phone_numbers: [{ number: '15035550144' }],
      postal_addresses: [{ locality: 'Portland', postal_code: '97204', country: 'US' }],
    },
  ],
};

describe('advocacy campaign targets', () => {
  it.each([
    ['a description', described],
    ['an array of Target objects', asObjects],
  ])('%s is read and written back as it came', (_, document) => {
    const read = advocacyCampaignKind.schema.parse(document);
    expect(read.targets).toEqual(document.targets);
    expect(advocacyCampaignKind.writeSchema.parse(read).targets).toEqual(document.targets);
  });

  it('keeps the vendor members of a target read from Action Network', () => {
    const document = { targets: [{ family_name: 'Lindqvist', 'action_network:district': '3' }] };
    const read = advocacyCampaignKind.schema.parse(document);
    expect(read.targets).toEqual(document.targets);
    expect(advocacyCampaignKind.writeSchema.parse(read).targets).toEqual(document.targets);
  });

  it('strict takes a description and refuses the array, as the spec has it', () => {
    expect(advocacyCampaignKind.strictSchema.parse(described).targets).toBe(described.targets);
    const refused = advocacyCampaignKind.strictSchema.safeParse(asObjects);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.code])).toEqual([
      ['targets', 'invalid_type'],
    ]);
  });

  it('extended takes both, a target held to the rules of target_list', () => {
    expect(advocacyCampaignKind.extendedSchema.parse(described).targets).toBe(described.targets);
    expect(advocacyCampaignKind.extendedSchema.parse(asObjects).targets).toEqual(asObjects.targets);
    const badEmail = { targets: [{ email_addresses: [{ address: 'not an address' }] }] };
    const refused = advocacyCampaignKind.extendedSchema.safeParse(badEmail);
    expect(refused.success).toBe(false);
    expect(
      advocacyCampaignKind.strictSchema.safeParse({ target_list: badEmail.targets }).success,
    ).toBe(false);
  });

  it('neither side takes another type', () => {
    for (const schema of [advocacyCampaignKind.writeSchema, advocacyCampaignKind.extendedSchema]) {
      expect(schema.safeParse({ targets: 7 }).success).toBe(false);
    }
  });
});

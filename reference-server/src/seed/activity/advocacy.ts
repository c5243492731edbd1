/** An advocacy campaign to call the council member, and 8–16 calls made for it. */
import { type Step, THE_ACTOR } from '../steps.js';
import { PARK_SITE } from './group.js';

/** The officials the campaign targets. */
const COUNCIL_MEMBER = {
  title: 'Council Member',
  organization: 'New York City Council',
  given_name: 'Denise',
  family_name: 'Harlow',
  ocdid: 'ocd-division/country:us/state:ny/place:new_york/council_district:35',
  email_addresses: [{ primary: true, address: 'district35@council.example.gov' }],
  phone_numbers: [{ primary: true, number: '17185550135', number_type: 'Work' }],
  postal_addresses: [
    {
      primary: true,
      address_type: 'Work',
      address_lines: ['1 Hanson Place, Suite 304'],
      locality: 'Brooklyn',
      region: 'NY',
      postal_code: '11243',
      country: 'US',
    },
  ],
};
const BOROUGH_PRESIDENT = {
  title: 'Borough President',
  organization: 'Office of the Brooklyn Borough President',
  given_name: 'Marcus',
  family_name: 'Whitfield',
  ocdid: 'ocd-division/country:us/state:ny/place:new_york/borough:brooklyn',
  phone_numbers: [{ primary: true, number: '17185550100', number_type: 'Work' }],
};

/** What callers report. */
const CALL_NOTES = [
  'Staffer took my name and said the Council Member is still undecided.',
  'Left a voicemail with the script.',
  'Spoke to the scheduler; asked for a meeting with the park coalition.',
  'They said they have received many calls about the park.',
  'Line was busy twice, got through on the third try.',
];

/** Creates `call harlow campaign`, then its calls. */
export const ADVOCACY_STEPS: readonly Step[] = [
  {
    create: 'advocacy_campaign',
    name: 'call harlow campaign',
    fields: {
      title: 'Call Council Member Harlow: No Lease for the North Meadow',
      name: 'call-harlow',
      summary: 'The council votes on the lease next month. Ask your council member to vote no.',
      type: 'phone',
      templates: [
        'Hello, my name is {given_name} and I live in District 35. I am calling to ask the Council ' +
          'Member to vote NO on the Willow Bend Park north meadow lease. Thank you.',
      ],
      targets: 'Brooklyn elected officials who decide on the park lease',
      target_list: [COUNCIL_MEMBER, BOROUGH_PRESIDENT],
      browser_url: `${PARK_SITE}/call`,
    },
    links: { creator: 'organizer' },
  },
  {
    act: 'outreach',
    by: { count: [8, 16] },
    fields: ({ choose, recently }) => {
      const target = choose.chance(0.75) ? COUNCIL_MEMBER : BOROUGH_PRESIDENT;
      return {
        action_date: recently(14),
        type: 'phone',
        duration: choose.int(25, 420),
        notes: choose.pick(CALL_NOTES),
        targets: [
          { title: target.title, given_name: target.given_name, family_name: target.family_name },
        ],
      };
    },
    links: { person: THE_ACTOR, advocacy_campaign: 'call harlow campaign' },
  },
];

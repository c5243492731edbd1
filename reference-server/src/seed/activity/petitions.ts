/**
 * Three petitions, each signed by 10–40 people: one sponsored by the park friends with
 * share counts, one of the tenants' union, one for safer crosswalks.
 */
import type { JsonObject } from '../../storage/storage.js';
import { ANYONE, type Step, THE_ACTOR } from '../steps.js';
import { PARK_SITE, REFERRERS, UNION_SITE } from './group.js';
import { type ShareText, shareOptions } from './share-options.js';

/** A petition: its fields, who sponsors it, how it is shared and what signers say. */
interface PetitionSpec {
  /** The name later steps link to it by. */
  name: string;
  /** Name of the sponsoring organization, if any. */
  sponsor?: string;
  fields: JsonObject & { browser_url?: string; featured_image_url?: string };
  share?: ShareText;
  /** Comments some signers leave. */
  comments: readonly string[];
}

const PETITIONS: readonly PetitionSpec[] = [
  {
    name: 'park petition',
    comments: [
      'My kids learned to ride their bikes in Willow Bend.',
      'We need more green space, not another parking garage.',
      'I walk my dog there every morning. Keep it public!',
      'The old oaks by the pond are irreplaceable.',
      'Parks are for people, not developers.',
      'Our block has no other place to breathe in the summer.',
    ],
    sponsor: 'park friends',
    fields: {
      title: 'Keep Willow Bend Park Public',
      name: 'willow-bend-2026',
      summary: 'Stop the sale of the north meadow of Willow Bend Park.',
      description:
        'The city plans to lease the north meadow, a quarter of the park, to a developer ' +
        'for a parking garage. Tell the Borough President and the Parks Department: no sale.',
      petition_text:
        'We, residents of Brooklyn, ask the Borough President and the NYC Parks Department to ' +
        'withdraw the proposed lease of the Willow Bend Park north meadow and keep the whole ' +
        'park public, green and open to all.',
      target: [
        { name: 'Brooklyn Borough President' },
        { name: 'NYC Department of Parks & Recreation' },
      ],
      browser_url: `${PARK_SITE}/petition`,
      featured_image_url: `${PARK_SITE}/images/north-meadow.jpg`,
      share_url: `${PARK_SITE}/petition`,
    },
    share: {
      title: 'Keep Willow Bend Park Public',
      description: 'A quarter of our park could become a parking garage. Sign to stop it.',
      message: 'I just signed to keep Willow Bend Park public. Will you?',
      subject: 'Save the north meadow of Willow Bend Park',
      body: 'Hi! The city wants to lease part of Willow Bend Park to a developer. Please sign: {share_url}',
    },
  },
  {
    name: 'rent petition',
    comments: [
      'My rent went up 18% last year with no repairs.',
      'We have lived in Riverside Towers for 22 years. We want to stay.',
      'Stable rents keep our neighbourhood together.',
      'The heat was off for two weeks in January.',
      'Seniors in our building are being pushed out.',
    ],
    fields: {
      title: 'Fair Rents and Real Repairs at Riverside Towers',
      name: 'riverside-rents',
      summary: 'Tenants ask the owner for a rent freeze until repairs are made.',
      petition_text:
        'We, the tenants of Riverside Towers, ask Harborline Properties to freeze rents until ' +
        'every open repair request is fixed, and the Rent Guidelines Board to hold the owner to it.',
      target: [{ name: 'Harborline Properties LLC' }, { name: 'NYC Rent Guidelines Board' }],
      browser_url: `${UNION_SITE}/petition`,
    },
  },
  {
    name: 'crosswalk petition',
    comments: [
      'A car nearly hit my daughter at this corner.',
      'Drivers never stop at Atlantic and Vanderbilt.',
      'Please add a leading pedestrian interval.',
      'I cross here with a stroller every day. It is terrifying.',
    ],
    fields: {
      title: 'Safe Crosswalks on Atlantic Avenue',
      name: 'atlantic-crosswalks',
      summary: 'Daylighting and a signal at Atlantic and Vanderbilt before someone is hurt.',
      petition_text:
        'We ask the Department of Transportation to install a pedestrian signal, daylighting and ' +
        'a raised crosswalk at Atlantic Avenue and Vanderbilt Avenue this year.',
      target: [
        { name: 'NYC Department of Transportation' },
        { name: 'Council Member, District 35' },
      ],
    },
  },
];

/** A petition, then its signatures: 10–40 people, each at most once. */
function petitionWithSignatures(spec: PetitionSpec): Step[] {
  return [
    {
      create: 'petition',
      name: spec.name,
      fields: ({ choose }) => {
        const fields: JsonObject = { ...spec.fields };
        if (spec.share) {
          fields.share_options = shareOptions(
            choose,
            spec.share,
            String(spec.fields.browser_url),
            String(spec.fields.featured_image_url),
          );
        }
        return fields;
      },
      links: spec.sponsor ? { creator: ANYONE, sponsor: spec.sponsor } : { creator: ANYONE },
    },
    {
      act: 'signature',
      by: { count: [10, 40] },
      fields: ({ choose, recently }) => {
        const signature: JsonObject = {
          action_date: recently(30),
          origin_system: 'ADIS demo',
          referrer_data: { ...choose.pick(REFERRERS) },
        };
        if (choose.chance(0.35)) signature.comments = choose.pick(spec.comments);
        return signature;
      },
      links: { person: THE_ACTOR, petition: spec.name },
    },
  ];
}

/** Creates `park petition`, `rent petition` and `crosswalk petition`, each with its signatures. */
export const PETITION_STEPS: readonly Step[] = PETITIONS.flatMap(petitionWithSignatures);

/**
 * Four tags and their taggings: 10–18 volunteers (not the people canvassers will
 * visit, whom a successful visit tags), every donor, 5 building captains, and the
 * first two petitions as priority campaigns.
 */
import { type Step, THE_ACTOR } from '../steps.js';
import { CANVASS_TARGETS } from './canvasses.js';

/** Creates `volunteer tag`, `donor tag`, `captain tag` and `priority tag`, then the taggings. */
export const TAG_STEPS: readonly Step[] = [
  {
    create: 'tag',
    name: 'volunteer tag',
    fields: {
      name: 'Volunteer',
      description: 'Has volunteered at a cleanup, phone bank or event.',
    },
  },
  {
    create: 'tag',
    name: 'donor tag',
    fields: { name: 'Donor', description: 'Has made at least one donation that was not voided.' },
  },
  {
    create: 'tag',
    name: 'captain tag',
    fields: {
      name: 'Building captain',
      description: 'Organizes a floor or building at Riverside Towers.',
    },
  },
  {
    create: 'tag',
    name: 'priority tag',
    fields: {
      name: 'Priority campaign',
      description: 'A campaign the steering committee focuses on this season.',
    },
  },
  {
    act: 'tagging',
    by: { count: [10, 18], except: CANVASS_TARGETS },
    fields: { origin_system: 'ADIS demo' },
    links: { tag: 'volunteer tag', person: THE_ACTOR },
  },
  {
    act: 'tagging',
    by: { group: 'donors' },
    fields: {},
    links: { tag: 'donor tag', person: THE_ACTOR },
  },
  {
    act: 'tagging',
    by: { count: 5 },
    fields: {},
    links: { tag: 'captain tag', person: THE_ACTOR },
  },
  { create: 'tagging', fields: {}, links: { tag: 'priority tag', petition: 'park petition' } },
  { create: 'tagging', fields: {}, links: { tag: 'priority tag', petition: 'rent petition' } },
];

/** Two forms, a volunteer sign-up and a repair survey, each with 8–18 submissions. */
import { type Step, THE_ACTOR } from '../steps.js';
import { PARK_SITE, REFERRERS, UNION_SITE } from './group.js';

/** Creates `cleanup form` and `repair form`, then their submissions. */
export const FORM_STEPS: readonly Step[] = [
  {
    create: 'form',
    name: 'cleanup form',
    fields: {
      title: 'Volunteer for the Park Cleanup Day',
      name: 'cleanup-volunteers',
      summary: 'Gloves, bags and coffee provided.',
      description: 'Tell us when you can help and what you would like to do on cleanup day.',
      call_to_action: 'Sign me up',
      browser_url: `${PARK_SITE}/volunteer`,
    },
    links: { creator: 'organizer' },
  },
  {
    create: 'form',
    name: 'repair form',
    fields: {
      title: 'Riverside Towers Repair Survey',
      name: 'repair-survey',
      summary: 'Document every repair the landlord owes, apartment by apartment.',
      description:
        'We bring these reports to the owner and to HPD. Your answers are shared only with the ' +
        'union repair committee.',
      call_to_action: 'Report a repair',
      browser_url: `${UNION_SITE}/repairs`,
    },
    links: { creator: 'second organizer' },
  },
  {
    act: 'submission',
    by: { count: [8, 18] },
    fields: ({ choose, recently }) => ({
      action_date: recently(21),
      referrer_data: { ...choose.pick(REFERRERS) },
      custom_fields: {
        availability: choose.pick(['morning', 'afternoon', 'all day']),
        task: choose.pick(['litter pickup', 'planting', 'registration table', 'photography']),
        shirt_size: choose.pick(['S', 'M', 'L', 'XL']),
      },
    }),
    links: { person: THE_ACTOR, form: 'cleanup form' },
  },
  {
    act: 'submission',
    by: { count: [8, 18] },
    fields: ({ choose, recently }) => ({
      action_date: recently(45),
      custom_fields: {
        building: choose.pick(['A', 'B', 'C']),
        floor: String(choose.int(1, 14)),
        issue: choose.pick(['no heat', 'leak', 'mold', 'pests', 'broken intercom', 'elevator']),
        reported_to_landlord: choose.pick(['yes', 'no']),
      },
    }),
    links: { person: THE_ACTOR, form: 'repair form' },
  },
];

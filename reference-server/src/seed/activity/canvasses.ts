/**
 * Door-knocking canvasses: three people visited (set aside before the tags, so the
 * volunteer tag leaves them to the canvass), two conversations and one nobody home. A
 * successful visit records the person's answers to both questions and tags them as a
 * volunteer, each linked to the canvass.
 */
import type { StoredRecord } from '../../storage/storage.js';
import type { ChooseStep, Step } from '../steps.js';
import { SOMEONE_ELSE, THE_ACT, THE_ACTOR } from '../steps.js';
import { gardenChoice, REPAIRS } from './questions.js';

/** The group of the people the canvassers will visit. */
export const CANVASS_TARGETS = 'canvass targets';

/** How each visit went, in the order of the targets. */
const VISITS = [
  { success: true, contact_type: 'door', input_type: 'mobile_app' },
  { success: true, contact_type: 'phone', input_type: 'data_entry' },
  { success: false, contact_type: 'door', input_type: 'paper_scan', status_code: 'not_home' },
] as const;

/** Sets aside who the canvassers will visit, one per visit. */
export const CHOOSE_CANVASS_TARGETS: ChooseStep = { choose: CANVASS_TARGETS, count: VISITS.length };

function fullName(person: StoredRecord): string {
  return [person.doc.given_name, person.doc.family_name].filter(Boolean).join(' ');
}

/** Visits each target with another person as canvasser, and what a good visit records. */
export const CANVASS_STEPS: readonly Step[] = [
  {
    act: 'canvass',
    by: { group: CANVASS_TARGETS },
    links: { target: THE_ACTOR, canvasser: SOMEONE_ELSE },
    fields: ({ recently, index }) => ({
      ...VISITS[index],
      action_date: recently(10),
      origin_system: 'ADIS demo canvassing app',
    }),
    followUps: [
      {
        create: 'answer',
        when: ({ act }) => act.success === true,
        fields: ({ act, choose }) => ({
          action_date: act.action_date,
          responses: [gardenChoice(choose)],
        }),
        links: { person: THE_ACTOR, question: 'garden question', canvass: THE_ACT },
      },
      {
        create: 'answer',
        when: ({ act }) => act.success === true,
        fields: ({ act, choose, person }) => ({
          action_date: act.action_date,
          value: `${fullName(person).split(' ')[0] ?? 'They'} said: ${choose.pick(REPAIRS)}`,
        }),
        links: { person: THE_ACTOR, question: 'repair question', canvass: THE_ACT },
      },
      {
        create: 'tagging',
        when: ({ act }) => act.success === true,
        fields: { origin_system: 'ADIS demo canvassing app' },
        links: { tag: 'volunteer tag', person: THE_ACTOR, canvass: THE_ACT },
      },
    ],
  },
];

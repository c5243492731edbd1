/**
 * Two survey questions, a single choice (the garden) and a paragraph (repairs), each
 * with answers from event sign-in sheets; canvasses (canvasses.ts) record more.
 */
import type { Chooser } from '../chooser.js';
import { type Step, THE_ACTOR } from '../steps.js';

/**
 * A response to the garden question, mostly yes.
 */
export function gardenChoice(choose: Chooser): string {
  return choose.weighted([
    ['yes', 7],
    ['no', 1],
    ['unsure', 2],
  ] as const);
}

/** What tenants answer to the repair question. */
export const REPAIRS = [
  'The radiator in the bedroom has not worked since November.',
  'Water leaks from the upstairs bathroom into our kitchen ceiling.',
  'Mice in the kitchen; the exterminator never came back.',
  'The front door lock is broken, anyone can walk in.',
  'Black mold behind the shower tiles.',
  'The elevator is out every other week and I live on the 11th floor.',
];

/** Creates `garden question` and `repair question`, then their answers. */
export const QUESTION_STEPS: readonly Step[] = [
  {
    create: 'question',
    name: 'garden question',
    fields: {
      title: 'Should the old parking lot by the park become a community garden?',
      name: 'garden-support',
      description: 'Asked at the door and at events, to show the council there is support.',
      question_type: 'SingleChoice',
      responses: [
        { key: 'yes', name: 'Supports the garden', title: 'Yes' },
        { key: 'no', name: 'Opposes the garden', title: 'No' },
        { key: 'unsure', name: 'Undecided', title: 'Not sure yet' },
      ],
    },
    links: { creator: 'organizer' },
  },
  {
    create: 'question',
    name: 'repair question',
    fields: {
      title: 'What repair does your apartment need most urgently?',
      name: 'urgent-repair',
      question_type: 'Paragraph',
    },
    links: { creator: 'second organizer' },
  },
  {
    act: 'answer',
    by: { count: [10, 20] },
    fields: ({ choose, recently }) => ({
      action_date: recently(20),
      origin_system: 'Event sign-in sheet',
      responses: [gardenChoice(choose)],
    }),
    links: { person: THE_ACTOR, question: 'garden question' },
  },
  {
    act: 'answer',
    by: { count: [6, 12] },
    fields: ({ choose, recently }) => ({
      action_date: recently(30),
      value: choose.pick(REPAIRS),
    }),
    links: { person: THE_ACTOR, question: 'repair question' },
  },
];

/**
 * The demo activity (seed-activity.ts) as steps: what a small community-organizing
 * group does with its people, in the order it is created. The order is part of the
 * data: each step draws its choices from the PRNG after the steps before it.
 */
import { ADVOCACY_STEPS } from './activity/advocacy.js';
import { CANVASS_STEPS, CHOOSE_CANVASS_TARGETS } from './activity/canvasses.js';
import { EVENT_STEPS } from './activity/events.js';
import { FORM_STEPS } from './activity/forms.js';
import { FUNDRAISING_STEPS } from './activity/fundraising.js';
import { LIST_STEPS, QUERY_STEPS } from './activity/lists.js';
import { MESSAGE_STEPS, WRAPPER_STEPS } from './activity/messages.js';
import { ORGANIZATION_STEPS } from './activity/organizations.js';
import { PETITION_STEPS } from './activity/petitions.js';
import { QUESTION_STEPS } from './activity/questions.js';
import { SHARE_PAGE_STEPS } from './activity/share-page.js';
import { TAG_STEPS } from './activity/tags.js';
import type { Step } from './steps.js';

/** Every step of the demo activity, in order. */
export const ACTIVITY_STEPS: readonly Step[] = [
  ...ORGANIZATION_STEPS,
  ...PETITION_STEPS,
  ...FORM_STEPS,
  ...FUNDRAISING_STEPS,
  ...SHARE_PAGE_STEPS,
  ...ADVOCACY_STEPS,
  ...EVENT_STEPS,
  ...QUESTION_STEPS,
  ...WRAPPER_STEPS,
  CHOOSE_CANVASS_TARGETS,
  ...TAG_STEPS,
  ...LIST_STEPS,
  ...QUERY_STEPS,
  ...MESSAGE_STEPS,
  ...CANVASS_STEPS,
];

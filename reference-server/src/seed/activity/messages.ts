/**
 * Message wrappers (an email frame, an SMS sign-off) and two draft messages that use
 * them, addressed to the lists and the saved query (lists.ts).
 */
import type { RecordStep } from '../steps.js';

/** Creates `email wrapper` and `sms wrapper`. */
export const WRAPPER_STEPS: readonly RecordStep[] = [
  {
    create: 'wrapper',
    name: 'email wrapper',
    fields: {
      name: 'Standard email wrapper',
      wrapper_type: 'email',
      default: true,
      header:
        '<div style="background:#2f6b3b;color:#fff;padding:12px"><strong>Friends of Willow Bend Park</strong></div>',
      footer:
        '<p style="font-size:12px">Friends of Willow Bend Park · PO Box 2231 · Brooklyn, NY 11217<br>' +
        '<a href="{unsubscribe_url}">Unsubscribe</a></p>',
    },
  },
  {
    create: 'wrapper',
    name: 'sms wrapper',
    fields: {
      name: 'SMS sign-off',
      wrapper_type: 'sms',
      default: false,
      header: 'Riverside Tenants:',
      footer: 'Reply STOP to opt out.',
    },
  },
];

/**
 * Creates two draft messages: never scheduled nor sent. A message's status is the
 * server's own (read-only); one that no helper has scheduled is a draft.
 */
export const MESSAGE_STEPS: readonly RecordStep[] = [
  {
    create: 'message',
    fields: {
      name: 'Park hearing alert',
      type: 'email',
      subject: 'The park hearing is next week: can you be there?',
      body:
        '<p>Hi {given_name},</p><p>The Parks Department hearing on the north meadow lease is ' +
        'next Thursday at 6pm. Please come, or call five neighbours from the phone tree.</p>',
      from: 'Friends of Willow Bend Park <hello@willowbendpark.example.org>',
      reply_to: 'hello@willowbendpark.example.org',
    },
    links: { creator: 'organizer', wrapper: 'email wrapper', list: 'phone tree' },
  },
  {
    create: 'message',
    fields: {
      name: 'Dinner reminder (SMS)',
      type: 'sms',
      body: 'Community Dinner this Friday 6:30pm at St. Brendan’s Hall. Tickets: riversidetenants.example.org/dinner',
      from: 'RTU',
    },
    links: {
      creator: 'second organizer',
      wrapper: 'sms wrapper',
      list: 'residents',
      query: 'recent query',
    },
  },
];

/**
 * The audiences of the draft messages: two lists (each with its organization and
 * 8–18 people) and a saved query of recently active supporters.
 */
import { ago } from '../dates.js';
import { type Step, THE_ACTOR } from '../steps.js';

/** Creates `phone tree` and `residents`, then their items. */
export const LIST_STEPS: readonly Step[] = [
  {
    create: 'list',
    name: 'phone tree',
    fields: {
      name: 'Park hearing phone tree',
      title: 'Willow Bend Park hearing phone tree',
      description: 'Neighbours who will call five others before the lease hearing.',
    },
    links: { creator: 'organizer' },
  },
  {
    create: 'list',
    name: 'residents',
    fields: {
      name: 'Riverside Towers residents',
      description: 'Union members and contacts living in buildings A, B and C.',
    },
    links: { creator: 'second organizer' },
  },
  { create: 'item', fields: {}, links: { list: 'phone tree', organization: 'park friends' } },
  {
    act: 'item',
    by: { count: [8, 14] },
    fields: {},
    links: { list: 'phone tree', person: THE_ACTOR },
  },
  { create: 'item', fields: {}, links: { list: 'residents', organization: 'tenants union' } },
  {
    act: 'item',
    by: { count: [10, 18] },
    fields: {},
    links: { list: 'residents', person: THE_ACTOR },
  },
];

/** Creates `recent query`: people added or changed in the 30 days before `now`. */
export const QUERY_STEPS: readonly Step[] = [
  {
    create: 'query',
    name: 'recent query',
    fields: ({ now }) => ({
      name: 'Recently active supporters',
      title: 'People added or changed in the last 30 days',
      description: 'Used for the weekly welcome email.',
      filter: `modified_date gt '${ago(now, 30)}'`,
    }),
    links: { creator: 'organizer' },
  },
];

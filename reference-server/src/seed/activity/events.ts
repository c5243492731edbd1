/**
 * Three events, each with its attendances: a ticketed community dinner (10–20 buyers,
 * tickets by level), an open park cleanup (15–30 RSVPs of every status) and an all-day
 * rights fair (4–10 RSVPs). Events fall in the weeks after `now`, on fixed weekdays.
 */
import type { JsonObject } from '../../storage/storage.js';
import { dayAfter, nextWeekday } from '../dates.js';
import { type Step, THE_ACTOR } from '../steps.js';
import { inZone, PARK_SITE, REFERRERS, UNION_ROOM, UNION_SITE, ZONE } from './group.js';

/** The dinner's ticket levels. */
const TICKET_LEVELS = [
  {
    title: 'Sliding scale',
    description: 'Pay what you can; no one turned away.',
    amount: 15,
    currency: 'USD',
    limit: 80,
  },
  {
    title: 'Supporter',
    description: 'Covers your dinner and a neighbour’s.',
    amount: 40,
    currency: 'USD',
    limit: 40,
  },
  {
    title: 'Building sponsor',
    description: 'Dinner plus a shout-out for your building.',
    amount: 100,
    currency: 'USD',
    limit: 10,
  },
];

/** What some cleanup volunteers add to their RSVP. */
const RSVP_COMMENTS = [
  'Bringing my two kids.',
  'I can bring extra rakes.',
  'Might be late, coming from work.',
  'Happy to help with registration.',
];

/** Creates `dinner`, `cleanup` and `rights fair`, each followed by its attendances. */
export const EVENT_STEPS: readonly Step[] = [
  {
    create: 'event',
    name: 'dinner',
    fields: ({ now }) => {
      const dinnerDay = nextWeekday(now, 18, 5);
      return {
        title: 'Riverside Tenants Union Community Dinner',
        name: 'community-dinner',
        summary: 'Food, music and a year of tenant wins. Tickets fund the relief fund.',
        description:
          'Join your neighbours for a home-cooked dinner from the Towers’ best cooks, a short ' +
          'program on the rent campaign, and live music from the Bergen Street Band.',
        type: 'ticketed',
        ticket_levels: TICKET_LEVELS,
        status: 'confirmed',
        start_date: inZone(now, dinnerDay, 18, 30),
        end_date: inZone(now, dinnerDay, 21, 30),
        timezone_identifier: ZONE,
        capacity: 130,
        visibility: 'public',
        instructions: 'Enter through the courtyard door; the hall is step-free.',
        location: {
          venue: 'St. Brendan’s Community Hall',
          address_lines: ['210 Dean Street'],
          locality: 'Brooklyn',
          region: 'NY',
          postal_code: '11217',
          country: 'US',
          location: { latitude: 40.6835, longitude: -73.9799, accuracy: 'Rooftop' },
          public: true,
        },
        contact: {
          name: 'Riverside Tenants Union events team',
          email_address: 'events@riversidetenants.example.org',
          phone_number: '17185550178',
          public: true,
        },
        reminders: [
          { method: 'email', minutes: 2880 },
          { method: 'sms', minutes: 120 },
        ],
        browser_url: `${UNION_SITE}/dinner`,
      };
    },
    links: { creator: 'second organizer', sponsor: 'tenants union' },
  },
  {
    act: 'attendance',
    by: { count: [10, 20] },
    fields: ({ choose, recently }) => {
      const tickets: JsonObject[] = [];
      const count = choose.weighted([
        [1, 5],
        [2, 4],
        [3, 1],
      ] as const);
      for (let i = 0; i < count; i++) {
        const level = choose.weighted([
          [TICKET_LEVELS[0], 6],
          [TICKET_LEVELS[1], 3],
          [TICKET_LEVELS[2], 1],
        ] as const);
        if (!level) continue;
        tickets.push({ title: level.title, amount: level.amount, currency: level.currency });
      }
      return {
        action_date: recently(10),
        status: 'accepted',
        tickets,
        referrer_data: { ...choose.pick(REFERRERS) },
      };
    },
    links: { person: THE_ACTOR, event: 'dinner' },
  },
  {
    create: 'event',
    name: 'cleanup',
    fields: ({ now }) => {
      const cleanupDay = nextWeekday(now, 9, 6);
      return {
        title: 'Cleanup Day at Willow Bend Park',
        name: 'park-cleanup',
        summary: 'Four hours, fifty neighbours, one cleaner park.',
        description:
          'We will clear litter from the pond edge, mulch the new trees and weed the native plant beds along ' +
          'the north meadow path. Kids welcome with an adult.',
        type: 'open',
        status: 'confirmed',
        start_date: inZone(now, cleanupDay, 10),
        end_date: inZone(now, cleanupDay, 14),
        timezone_identifier: ZONE,
        capacity: 60,
        guests_can_invite_others: true,
        visibility: 'public',
        instructions: 'Meet at the boathouse. Wear closed shoes; gloves are provided.',
        location: {
          venue: 'Willow Bend Park boathouse',
          address_lines: ['Willow Bend Park, Prospect Place entrance'],
          locality: 'Brooklyn',
          region: 'NY',
          postal_code: '11238',
          country: 'US',
          location: { latitude: 40.6761, longitude: -73.9665, accuracy: 'Approximate' },
          public: true,
        },
        contact: {
          name: 'Friends of Willow Bend Park',
          email_address: 'hello@willowbendpark.example.org',
          public: true,
        },
        reminders: [{ method: 'email', minutes: 1440 }],
        browser_url: `${PARK_SITE}/cleanup`,
      };
    },
    links: { creator: 'organizer', sponsor: 'park friends' },
  },
  {
    act: 'attendance',
    by: { count: [15, 30] },
    fields: ({ choose, recently }) => {
      const status = choose.weighted([
        ['accepted', 12],
        ['tentative', 3],
        ['declined', 3],
        ['needs action', 2],
      ] as const);
      const rsvp: JsonObject = { action_date: recently(7), status };
      if (status === 'accepted' && choose.chance(0.25)) rsvp.comment = choose.pick(RSVP_COMMENTS);
      return rsvp;
    },
    links: { person: THE_ACTOR, event: 'cleanup' },
  },
  {
    create: 'event',
    name: 'rights fair',
    fields: ({ now }) => {
      const rightsDay = nextWeekday(now, 30, 6);
      return {
        title: 'Know Your Rights Day for Tenants',
        name: 'know-your-rights',
        summary: 'Free legal clinics, repair-log workshops and translation all day.',
        description:
          'Drop in any time: volunteer lawyers answer questions on leases, repairs and evictions. ' +
          'Workshops in English, Spanish and Mandarin.',
        type: 'open',
        status: 'tentative',
        all_day: true,
        all_day_date: dayAfter(now, rightsDay),
        timezone_identifier: ZONE,
        transparence: 'transparent',
        visibility: 'public',
        location: {
          ...UNION_ROOM,
          language: 'en',
          public: false,
        },
        contact: {
          name: 'Union repair committee',
          email_address: 'repairs@riversidetenants.example.org',
          additional_info: 'Call or text for interpretation requests.',
          phone_number: '17185550179',
          public: false,
        },
        reminders: [
          { method: 'email', minutes: 10080 },
          { method: 'sms', minutes: 1440 },
        ],
      };
    },
    links: { creator: 'second organizer', sponsor: 'tenants union' },
  },
  {
    act: 'attendance',
    by: { count: [4, 10] },
    fields: ({ choose, recently }) => ({
      action_date: recently(5),
      status: choose.pick(['accepted', 'tentative'] as const),
    }),
    links: { person: THE_ACTOR, event: 'rights fair' },
  },
];

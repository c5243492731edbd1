import * as z from 'zod/mini';
import { money } from '../action-fields.js';
import {
  contentFields,
  eventContactSchema,
  eventLocationSchema,
  nonNegativeInteger,
  reminderSchema,
  SHARING_TOTALS,
  sharingFields,
  ticketLevelsSchema,
} from '../content-fields.js';
import {
  bool,
  commonFields,
  date,
  datetime,
  enumeration,
  integer,
  isServerMode,
  type Mode,
  optional,
} from '../fields.js';
import { defineKind, many, one, recordHelper } from '../kind.js';
import { addRuleIssue, RuleCode, type RuleIssue } from '../rules.js';
import type { VendorMembers } from '../vendor.js';

/** Time zones already checked, so a page of events does not build a formatter each. */
const timeZoneCache = new Map<string, boolean>();

/**
 * Whether `name` is an IANA time zone identifier the runtime knows (`America/New_York`,
 * `UTC`, and the database's links such as `Asia/Calcutta` or `US/Eastern`).
 *
 * The check asks `Intl.DateTimeFormat` rather than `Intl.supportedValuesOf('timeZone')`:
 * the latter lists only one canonical name per zone, and which one depends on the ICU
 * version (Node 20 lists `Asia/Calcutta` and `Europe/Kiev` but not `Asia/Kolkata` or
 * `Europe/Kyiv`, nor `UTC`), so it would refuse the names the IANA database now
 * recommends. Offsets such as `+05:00`, which newer runtimes also accept as a time
 * zone, are refused: they are not IANA identifiers. Like the database, the check is
 * case-insensitive.
 *
 * @example
 * ```ts
 * import { isIanaTimeZone } from 'adis-sdk/schema';
 *
 * isIanaTimeZone('Europe/Kyiv'); // true
 * isIanaTimeZone('Mars/Olympus_Mons'); // false
 * ```
 */
export function isIanaTimeZone(name: string): boolean {
  const known = timeZoneCache.get(name);
  if (known !== undefined) return known;
  let valid = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name);
  if (valid) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
    } catch {
      valid = false;
    }
  }
  timeZoneCache.set(name, valid);
  return valid;
}

/** An IANA time zone identifier for the reference server, any string on read and write. */
function timeZone(mode: Mode) {
  return isServerMode(mode)
    ? z
        .string()
        .check(z.refine(isIanaTimeZone, 'must be an IANA time zone such as America/New_York'))
    : z.string();
}

/** The event's writable fields as the spec's Event table lists them. */
function eventShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(mode),
    type: optional(enumeration(['ticketed', 'open'], mode)),
    ticket_levels: optional(ticketLevelsSchema(mode)),
    status: optional(enumeration(['confirmed', 'tentative', 'cancelled'], mode)),
    instructions: optional(z.string()),
    start_date: optional(datetime(mode)),
    end_date: optional(datetime(mode)),
    all_day_date: optional(date(mode)),
    all_day: optional(bool(mode)),
    capacity: optional(nonNegativeInteger(mode)),
    guests_can_invite_others: optional(bool(mode)),
    // Opaque (blocks time on calendars) when unset, as the spec says; not defaulted
    // here so that a PUT without it leaves the stored value alone.
    transparence: optional(enumeration(['opaque', 'transparent'], mode)),
    visibility: optional(enumeration(['public', 'private'], mode)),
    location: optional(eventLocationSchema(mode)),
    contact: optional(eventContactSchema(mode)),
    reminders: optional(z.array(reminderSchema(mode))),
    timezone_identifier: optional(timeZone(mode)),
    ...sharingFields(mode),
  };
}

/** What {@link eventRuleIssues} reads: members may be missing or of any type. */
export interface EventRuleInput {
  /** The event's start; compared with `end_date` when both are date-times. */
  start_date?: unknown;
  /** The event's end. */
  end_date?: unknown;
}

const writtenDateTime = datetime('strict');

/**
 * The cross-field rules of an event: `start_date` may not be after `end_date`
 * (compared as instants, so offsets are taken into account). Only dates that are
 * valid ISO 8601 date-times are compared; others are reported by their own check.
 * The strict schema applies these rules, so the reference server re-parsing a merged
 * document after a partial update (a PUT that only moves `end_date`) finds them too.
 *
 * @example
 * ```ts
 * import { eventRuleIssues } from 'adis-sdk/server-kit';
 *
 * eventRuleIssues({ start_date: '2026-05-01T18:00:00-04:00', end_date: '2026-05-01T21:00:00Z' });
 * // [{ code: 'START_DATE_AFTER_END_DATE', path: ['start_date'], ... }]
 * ```
 */
export function eventRuleIssues(event: EventRuleInput): RuleIssue[] {
  const { start_date: start, end_date: end } = event;
  if (!writtenDateTime.safeParse(start).success || !writtenDateTime.safeParse(end).success) {
    return [];
  }
  if (Date.parse(start as string) <= Date.parse(end as string)) return [];
  return [
    {
      code: RuleCode.START_DATE_AFTER_END_DATE,
      message: 'start_date is after end_date',
      path: ['start_date'],
      hint: 'start_date must be at or before end_date',
    },
  ];
}

/**
 * The event kind: an event people attend by RSVP. Read with `schema` (unknown members
 * kept, enums open, dates as sent, counts read from numeric strings, `total_amount` kept as given); sent with
 * `writeSchema` (member names and JSON types: no unknown plain members, vendor
 * `<prefix>:<name>` members pass; a date-time may be a `Date`, sent as ISO 8601); the
 * reference server checks `strictSchema` (closed enums for type, status, transparence,
 * visibility and reminder method, ISO 8601 dates with an offset, an IANA
 * `timezone_identifier`, ISO 4217 ticket currencies, counts at least 0, unique ticket
 * level titles, and `start_date` not after `end_date`, `params.code`
 * START_DATE_AFTER_END_DATE: see {@link eventRuleIssues}). The totals are computed:
 * accepted and ignored, at the top level and inside ticket levels and share options.
 *
 * @example
 * ```ts
 * import { eventKind } from 'adis-sdk/schema';
 *
 * const late = { start_date: '2026-05-02T13:00:00Z', end_date: '2026-05-02T12:00:00Z' };
 * eventKind.writeSchema.safeParse(late).success; // true: the server decides
 * eventKind.strictSchema.safeParse(late).success; // false: START_DATE_AFTER_END_DATE
 * eventKind.writeSchema.parse({
 *   title: 'Park cleanup',
 *   type: 'open',
 *   status: 'confirmed',
 *   start_date: '2026-05-02T09:00:00-05:00',
 *   end_date: '2026-05-02T12:00:00-05:00',
 *   timezone_identifier: 'America/Chicago',
 *   location: { venue: 'Elm Park', locality: 'Springfield', region: 'IL', country: 'US', public: true },
 *   reminders: [{ method: 'email', minutes: 1440 }],
 * });
 * ```
 */
export const eventKind = defineKind({
  singular: 'event',
  plural: 'events',
  description: 'An event people attend by RSVP',
  shape: eventShape,
  computed: {
    total_accepted: optional(integer('read')),
    total_tickets: optional(integer('read')),
    total_amount: optional(money('read')),
    ...SHARING_TOTALS,
  },
  relations: {
    /** The person who created the event (`std:creator`), if the server links one. */
    creator: one('person'),
    /** The person who last modified the event (`std:modified_by`), if the server says. */
    modifiedBy: one('person'),
    /** The organization sponsoring the event (`std:sponsor`), if any. */
    sponsor: one('organization'),
    /** The RSVPs to the event (`std:attendances`). */
    attendances: many('attendance'),
  },
  helpers: {
    /**
     * Records an attendance of this event (an RSVP, or tickets bought) through its
     * `std:record_attendance_helper`: the attendee or buyer (`person`), and each ticket's
     * holder (`tickets[].person`), are created or matched and updated, and the action
     * functions are applied. Checked first; resolves with the attendance and the person,
     * `complete: false` when an action function failed; an atomic error rejects with an
     * HTTPError. `authenticate: false` sends no key.
     */
    recordAttendance: recordHelper('record_attendance_helper', 'recordAttendance', 'attendance', {
      anonymous: true,
    }),
  },
  check: (event, ctx) => {
    for (const issue of eventRuleIssues(event)) addRuleIssue(ctx, issue);
  },
});

/** An event as read from a server: the output of `eventKind.schema`. */
export interface Event extends z.output<typeof eventKind.schema> {}
/** What a client sends to create or update an event: the input of `eventKind.writeSchema`. */
export interface EventInput extends z.input<typeof eventKind.writeSchema>, VendorMembers {}
/** A ticket level of an event, as read. */
export type TicketLevel = NonNullable<Event['ticket_levels']>[number];

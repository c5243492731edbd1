import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import { RecordAttendanceBodySchema, type RecordAttendanceInput } from '../helpers/bodies.js';
import type { HelperOptions } from '../helpers/navigator.js';
import type { HelperResult } from '../helpers/result.js';
import type { CallOptions, NavigatorContext } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { type AttendanceResource, attendanceKind } from './attendance.js';
import {
  contentFields,
  EVEN_WITH_INVALID_MEMBERS,
  eventContactSchema,
  eventLocationSchema,
  nonNegativeInteger,
  reminderSchema,
  SHARING_TOTALS,
  sharingFields,
  ticketLevelsSchema,
} from './content-fields.js';
import {
  bool,
  commonFields,
  date,
  datetime,
  enumeration,
  float,
  integer,
  type Mode,
  optional,
  resourceSchemas,
} from './fields.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';
import { addRuleIssue, RuleCode, type RuleIssue } from './rules.js';

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

/** An IANA time zone identifier on write, any string on read. */
function timeZone(mode: Mode) {
  return mode === 'write'
    ? z
        .string()
        .check(z.refine(isIanaTimeZone, 'must be an IANA time zone such as America/New_York'))
    : z.string();
}

/** The event's writable fields as the spec's Event table lists them. */
function eventShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...contentFields(),
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

const eventSchemas = resourceSchemas(eventShape, {
  total_accepted: optional(integer('read')),
  total_tickets: optional(integer('read')),
  total_amount: optional(float('read')),
  ...SHARING_TOTALS,
});

/** What {@link eventRuleIssues} reads: members may be missing or of any type. */
export interface EventRuleInput {
  /** The event's start; compared with `end_date` when both are date-times. */
  start_date?: unknown;
  /** The event's end. */
  end_date?: unknown;
}

const writtenDateTime = datetime('write');

/**
 * The cross-field rules of an event: `start_date` may not be after `end_date`
 * (compared as instants, so offsets are taken into account). Only dates that are
 * valid ISO 8601 date-times are compared; others are reported by their own check.
 * The write schema applies these rules, so a server re-parsing a merged document
 * after a partial update (a PUT that only moves `end_date`) finds them too.
 *
 * @example
 * ```ts
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
 * An event as the SDK reads it from any server: unknown members kept, enums open,
 * dates as sent, totals read from numeric strings.
 *
 * @example
 * ```ts
 * import { EventSchema } from 'adis-sdk';
 * const event = EventSchema.parse(json);
 * console.log(event.title, event.start_date, event.location?.locality, event.total_accepted);
 * ```
 */
export const EventSchema = eventSchemas.read;

/**
 * An event as a client sends it and the reference server accepts it: closed enums
 * (type, status, transparence, visibility, reminder method), ISO 8601 dates with an
 * offset, an IANA `timezone_identifier`, ISO 4217 ticket currencies, counts at least
 * 0, unique ticket level titles, no unknown members, and `start_date` not after
 * `end_date` (`params.code` START_DATE_AFTER_END_DATE). The totals are computed:
 * accepted and ignored, at the top level and inside ticket levels and share options.
 *
 * @example
 * ```ts
 * import { EventWriteSchema } from 'adis-sdk';
 * EventWriteSchema.parse({
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
export const EventWriteSchema = eventSchemas.write.check(
  z.superRefine((event, ctx) => {
    for (const issue of eventRuleIssues(event)) addRuleIssue(ctx, issue);
  }, EVEN_WITH_INVALID_MEMBERS),
);

/**
 * Fields of an event that a client may not set (dates, totals, HAL members).
 *
 * @example
 * ```ts
 * EVENT_READ_ONLY_FIELDS.includes('total_accepted'); // true
 * ```
 */
export const EVENT_READ_ONLY_FIELDS = eventSchemas.readOnly;

/** An event read from a server. Derived from {@link EventSchema}. */
export type Event = z.output<typeof EventSchema>;
/** The fields a client may send to create or update an event. Derived from {@link EventWriteSchema}. */
export type EventInput = z.input<typeof EventWriteSchema>;
/** A ticket level of an event, as read. */
export type TicketLevel = NonNullable<Event['ticket_levels']>[number];

/**
 * An event read from a server, with a method per link relation.
 *
 * @example
 * ```ts
 * const event = await client.events.get(url);
 * for await (const attendance of event.attendances()) console.log(attendance.data.status);
 * ```
 */
export class EventResource extends Resource<Event, EventInput> {
  /**
   * The person who created the event (`std:creator`), if the server links one.
   *
   * @example
   * ```ts
   * const host = await event.creator();
   * console.log(host?.primaryEmail);
   * ```
   */
  creator(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:creator', options);
  }

  /**
   * The person who last modified the event (`std:modified_by`), if the server says.
   *
   * @example
   * ```ts
   * const editor = await event.modifiedBy();
   * ```
   */
  modifiedBy(options?: CallOptions): Promise<PersonResource | undefined> {
    return this.optionalLinkedResource(personKind, 'std:modified_by', options);
  }

  /**
   * The organization sponsoring the event (`std:sponsor`), if any.
   *
   * @example
   * ```ts
   * const sponsor = await event.sponsor();
   * console.log(sponsor?.data.organization ?? 'no sponsor');
   * ```
   */
  sponsor(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:sponsor', options);
  }

  /**
   * The RSVPs to the event (`std:attendances`).
   *
   * @example
   * ```ts
   * const going = (await event.attendances().toArray()).filter((a) => a.data.status === 'accepted');
   * ```
   */
  attendances() {
    return this.linkedCollection(attendanceKind, 'std:attendances');
  }

  /**
   * Records an attendance of this event (an RSVP, or tickets bought) through its
   * `std:record_attendance_helper`: the attendee or buyer (`person`), and each ticket's
   * holder (`tickets[].person`), are created or matched and updated, and the action
   * functions are applied. Checked first; resolves with the attendance and the person,
   * `complete: false` when an action function failed; an atomic error rejects with an
   * HTTPError. `authenticate: false` sends no key.
   *
   * @example
   * ```ts
   * const { record, person } = await event.recordAttendance({
   *   status: 'accepted',
   *   person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
   * });
   * console.log(record?.data.status, person?.data.given_name);
   * ```
   */
  recordAttendance(
    input: RecordAttendanceInput,
    options?: HelperOptions,
  ): Promise<HelperResult<AttendanceResource, PersonResource>> {
    return this.callHelper(
      'std:record_attendance_helper',
      RecordAttendanceBodySchema,
      input,
      { record: attendanceKind, person: personKind },
      options,
    );
  }
}

/**
 * The event kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const events = new Collection(context, locate, eventKind);
 * ```
 */
export const eventKind: ResourceKind<Event, EventInput, EventResource> = {
  singular: 'event',
  plural: 'events',
  schema: EventSchema,
  writeSchema: EventWriteSchema,
  wrap: (context: NavigatorContext, document: HalDocument) =>
    new EventResource(context, document, eventKind),
};

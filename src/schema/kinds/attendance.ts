import * as z from 'zod/mini';
import { referredActionFields, ticketSchema } from '../action-fields.js';
import {
  bool,
  commonFields,
  enumeration,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
} from '../fields.js';
import { defineKind, one } from '../kind.js';
import type { VendorMembers } from '../vendor.js';

/**
 * The RSVP states of an attendance, as the spec's States table lists them for the
 * record attendance helper. Closed for the reference server, open on read and write.
 */
export const ATTENDANCE_STATUSES = ['declined', 'tentative', 'accepted', 'needs action'] as const;

/**
 * The attendance's fields: those of the Record Attendance Helper body, less the inlined
 * person (a stored attendance links the person who RSVPed or bought the tickets as
 * `std:person`). A ticket names its holder by href: see {@link ticketSchema}.
 */
function attendanceShape(mode: Mode) {
  return {
    ...commonFields(mode),
    ...referredActionFields(mode),
    status: optional(enumeration(ATTENDANCE_STATUSES, mode)),
    attended: optional(bool(mode)),
    comment: optional(z.string()),
    tickets: optional(z.array(ticketSchema(mode))),
  };
}

/**
 * The attendance kind: an RSVP to an event, or the tickets bought for a ticketed event.
 * Read with `schema` (unknown members kept, `status` open, ticket amounts as numbers or
 * decimal strings, kept as given, a ticket's `person` as an href); sent with
 * `writeSchema` (on create, with `_links['std:person']`; no unknown plain members,
 * vendor `<prefix>:<name>` members pass); the reference server checks `strictSchema`
 * (`status` one of {@link ATTENDANCE_STATUSES}, ticket amounts not negative, ISO 4217
 * ticket currencies).
 *
 * @example
 * ```ts
 * import { attendanceKind } from 'adis-sdk/schema';
 *
 * const data = attendanceKind.schema.parse({ status: 'accepted', tickets: [{ amount: '15' }] });
 * data.tickets?.[0]?.amount; // '15'
 * ```
 */
export const attendanceKind = defineKind({
  singular: 'attendance',
  plural: 'attendances',
  description: 'An RSVP to an event by a person, or the tickets bought for it',
  shape: attendanceShape,
  computed: HELPER_COMPUTED_FIELDS,
  relations: {
    /**
     * The person who RSVPed, or who bought the tickets (`std:person`). A ticket's holder
     * is in the ticket's `person` href.
     */
    person: one('person', { required: true }),
    /** The event attended (`std:event`). */
    event: one('event', { required: true }),
    /**
     * The organization that RSVPed, when an organization took the action
     * (`std:organization`); undefined otherwise.
     */
    organization: one('organization'),
  },
});

/** An attendance as read from a server: the output of `attendanceKind.schema`. */
export interface Attendance extends z.output<typeof attendanceKind.schema> {}
/** What a client sends to create or update an attendance: the input of `attendanceKind.writeSchema`. */
export interface AttendanceInput
  extends z.input<typeof attendanceKind.writeSchema>,
    VendorMembers {}

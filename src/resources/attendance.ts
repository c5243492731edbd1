import * as z from 'zod/mini';
import type { CallOptions } from '../navigator/context.js';
import type { ResourceKind } from '../navigator/kind.js';
import { Resource } from '../navigator/resource.js';
import { referredActionFields, ticketSchema } from './action-fields.js';
import { type EventResource, eventKind } from './event.js';
import {
  bool,
  commonFields,
  enumeration,
  HELPER_COMPUTED_FIELDS,
  type Mode,
  optional,
  resourceSchemas,
} from './fields.js';
import { type OrganizationResource, organizationKind } from './organization.js';
import { type PersonResource, personKind } from './person-resource.js';

/**
 * The RSVP states of an attendance, as the spec's States table lists them for the
 * record attendance helper. Closed on write, open on read.
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

const attendanceSchemas = resourceSchemas(attendanceShape, HELPER_COMPUTED_FIELDS);

/**
 * An attendance (an RSVP, or the tickets bought for a ticketed event) as the SDK reads
 * it from any server: unknown members kept, `status` open, ticket amounts as numbers or
 * numeric strings, a ticket's `person` as an href.
 *
 * @example
 * ```ts
 * import { AttendanceSchema } from 'adis-sdk';
 * const attendance = AttendanceSchema.parse({ status: 'accepted', tickets: [{ amount: '15' }] });
 * attendance.tickets?.[0]?.amount; // 15
 * ```
 */
export const AttendanceSchema = attendanceSchemas.read;

/**
 * An attendance as a client sends it on create (with `_links['std:person']`) and
 * update: `status` one of {@link ATTENDANCE_STATUSES}, ticket amounts not negative, ISO
 * 4217 ticket currencies, no unknown members.
 *
 * @example
 * ```ts
 * import { AttendanceWriteSchema } from 'adis-sdk';
 * AttendanceWriteSchema.parse({
 *   status: 'accepted',
 *   comment: 'Bringing a friend',
 *   _links: { 'std:person': { href: person.url } },
 * });
 * ```
 */
export const AttendanceWriteSchema = attendanceSchemas.write;

/**
 * Members of an attendance the server owns: ignored on create and update.
 *
 * @example
 * ```ts
 * ATTENDANCE_READ_ONLY_FIELDS.includes('_links'); // true
 * ```
 */
export const ATTENDANCE_READ_ONLY_FIELDS = attendanceSchemas.readOnly;

/**
 * An attendance read from a server. Derived from {@link AttendanceSchema}.
 *
 * @example
 * ```ts
 * const going = attendance.data.status === 'accepted';
 * ```
 */
export type Attendance = z.output<typeof AttendanceSchema>;

/**
 * What a client sends to create or update an attendance. Derived from
 * {@link AttendanceWriteSchema}.
 *
 * @example
 * ```ts
 * const input: AttendanceInput = { status: 'tentative', _links: { 'std:person': linkTo(person) } };
 * ```
 */
export type AttendanceInput = z.input<typeof AttendanceWriteSchema>;

/**
 * An attendance read from a server, with a method per link relation of an attendance.
 *
 * @example
 * ```ts
 * for await (const attendance of event.attendances()) {
 *   const attendee = await attendance.person();
 *   console.log(attendee.data.given_name, attendance.data.status);
 * }
 * ```
 */
export class AttendanceResource extends Resource<Attendance, AttendanceInput> {
  /**
   * The person who RSVPed, or who bought the tickets (`std:person`). A ticket's holder
   * is in the ticket's `person` href.
   *
   * @example
   * ```ts
   * const attendee = await attendance.person();
   * ```
   */
  person(options?: CallOptions): Promise<PersonResource> {
    return this.linkedResource(personKind, 'std:person', options);
  }

  /**
   * The event attended (`std:event`).
   *
   * @example
   * ```ts
   * console.log((await attendance.event()).data.start_date);
   * ```
   */
  event(options?: CallOptions): Promise<EventResource> {
    return this.linkedResource(eventKind, 'std:event', options);
  }

  /**
   * The organization that RSVPed, when an organization took the action
   * (`std:organization`); undefined otherwise.
   *
   * @example
   * ```ts
   * const delegation = await attendance.organization();
   * ```
   */
  organization(options?: CallOptions): Promise<OrganizationResource | undefined> {
    return this.optionalLinkedResource(organizationKind, 'std:organization', options);
  }
}

/**
 * The attendance kind: relation names, schemas and wrapper.
 *
 * @example
 * ```ts
 * const attendances = new Collection(context, locate, attendanceKind);
 * ```
 */
export const attendanceKind: ResourceKind<Attendance, AttendanceInput, AttendanceResource> = {
  singular: 'attendance',
  plural: 'attendances',
  schema: AttendanceSchema,
  writeSchema: AttendanceWriteSchema,
  wrap: (context, document) => new AttendanceResource(context, document, attendanceKind),
};

/**
 * The record attendance helper's own rules. The spec: "The body for ticketed events
 * differs from non-ticketed events by carrying the tickets", and for ticketed events
 * `attended` is "absent, superseded by the ticket's attended". So:
 *
 * - a ticketed event (`type: 'ticketed'`) needs tickets (400 TICKETS_REQUIRED), unless
 *   the person declines, and refuses a top-level `attended` (400 ATTENDED_NOT_ALLOWED);
 * - any other event (open, or no type) refuses tickets (400 TICKETS_NOT_ALLOWED).
 *
 * Each ticket's inlined `person` (the ticket holder, who may differ from the buyer) is
 * matched or created like the buyer and stored as the href of that person, the stored
 * ticket's shape. Ticket levels and their limits are the catalog's checks on create.
 */
import type { JsonObject, StoredRecord } from '../../storage/storage.js';
import { ApiError, ErrorCode, type ErrorDescription } from '../errors.js';
import { isPlainObject } from '../merge.js';
import { personKind } from '../person.js';
import type { HelperContext } from './context.js';
import { type HelperBody, helperPerson, type PreparedRecord, personAction } from './main-record.js';

/**
 * What is wrong with an attendance's tickets for its event.
 *
 * @example
 * ```ts
 * import { ticketProblems } from './attendance.js';
 *
 * ticketProblems({ type: 'ticketed' }, { status: 'accepted' });
 * // [{ error_code: 'TICKETS_REQUIRED', … }]
 * ```
 */
export function ticketProblems(event: JsonObject, attendance: JsonObject): ErrorDescription[] {
  const tickets = Array.isArray(attendance.tickets) ? attendance.tickets : [];
  const problems: ErrorDescription[] = [];
  if (event.type === 'ticketed') {
    if (tickets.length === 0 && attendance.status !== 'declined') {
      problems.push({
        error_code: ErrorCode.TICKETS_REQUIRED,
        description: 'the event is ticketed: send one entry in tickets per ticket',
        properties: ['tickets'],
        hint: 'tickets: [{ "title": "<a ticket level title>", "person": { … } }]',
      });
    }
    if (attendance.attended !== undefined && attendance.attended !== null) {
      problems.push({
        error_code: ErrorCode.ATTENDED_NOT_ALLOWED,
        description: 'the event is ticketed: attendance is recorded per ticket',
        properties: ['attended'],
        hint: 'send tickets[].attended instead',
      });
    }
  } else if (tickets.length > 0) {
    problems.push({
      error_code: ErrorCode.TICKETS_NOT_ALLOWED,
      description: 'the event is not ticketed: an RSVP carries no tickets',
      properties: ['tickets'],
      hint: 'leave tickets out, or make the event ticketed first',
    });
  }
  return problems;
}

/**
 * Prepares an attendance: the buyer, the ticket rules, then each ticket's holder.
 */
export async function prepareAttendance(
  context: HelperContext,
  body: HelperBody,
  event: StoredRecord,
): Promise<PreparedRecord> {
  const problems = ticketProblems(event.doc, body);
  if (problems.length > 0) throw new ApiError(400, problems, 'std:attendance');
  const prepared = await personAction(context, body);
  if (Array.isArray(prepared.fields.tickets)) {
    const tickets: unknown[] = [];
    for (const ticket of prepared.fields.tickets) {
      if (!isPlainObject(ticket) || !isPlainObject(ticket.person)) {
        tickets.push(ticket);
        continue;
      }
      const holder = await helperPerson(context, ticket.person);
      tickets.push({ ...ticket, person: context.hrefOf(personKind.plural, holder.record.id) });
    }
    prepared.fields.tickets = tickets;
  }
  return prepared;
}

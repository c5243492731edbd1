/**
 * The life of a message: draft → scheduled → sending → sent, or stopped, moved by the
 * send and schedule helpers. The spec gives the helper calls and leaves the states
 * open; the SDK names them (`MESSAGE_STATUSES`).
 *
 * Sending is simulated: nothing leaves the server. A message going out is stored once,
 * when it starts (or is scheduled), with its recipient count and a send rate; where it
 * stands at any later moment is a pure function of that and the clock
 * ({@link messageProgress}), used both to render the message and by the helpers to
 * know the current state before they act. A helper that changes the course of a send
 * (stopping it) stores the state it froze.
 */

import type { MESSAGE_STATUSES, MessageSchedule } from 'adis-sdk/schema';
import * as z from 'zod';
import type { JsonObject, RecordFilter, StoredRecord, Tenant } from '../storage/storage.js';
import { writeDateTime } from './date-times.js';
import { ApiError, ErrorCode, type ErrorDescription } from './errors.js';
import { PERSON_FILTER_FIELDS, parseFilter } from './filter.js';
import type { References, ResourceKind } from './kinds.js';
import { type RecordService, referencesOf, SERVER_STATE } from './records/index.js';

/**
 * A message's status: draft, scheduled, sending, sent or stopped.
 */
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * What the helpers store about a message's sending (in the record's server state).
 * A message without it is a draft.
 */
const SendStateSchema = z.object({
  /** As stored: `scheduled` and `sending` move on with time, the others are final. */
  status: z.enum(['scheduled', 'sending', 'sent', 'stopped']),
  /** People the message goes to, counted when it was sent or scheduled. */
  total_targeted: z.number().int().nonnegative(),
  /** Recipients per second. */
  send_rate: z.number().positive(),
  scheduled_start_date: z.string().optional(),
  scheduled_stop_date: z.string().optional(),
  /** When sending began (`sending`, `sent`, `stopped`). */
  sent_start_date: z.string().optional(),
  /** When sending ended (frozen `sent` and `stopped`). */
  sent_end_date: z.string().optional(),
  /** Recipients reached (frozen `sent` and `stopped`). */
  total_sent: z.number().int().nonnegative().optional(),
});

/**
 * The stored sending state of a message. Derived from the stored shape.
 */
export type SendState = z.output<typeof SendStateSchema>;

/**
 * The public, read-only members of a message at one moment.
 */
export interface MessageProgress {
  status: MessageStatus;
  scheduled_start_date?: string;
  scheduled_stop_date?: string;
  sent_start_date?: string;
  sent_end_date?: string;
  total_targeted?: number;
  total_sent?: number;
}

/**
 * The sending state stored in a message document, or undefined for a draft (or a
 * state this server version cannot read, which is then shown as a draft too).
 */
export function sendStateOf(doc: JsonObject): SendState | undefined {
  const raw = doc[SERVER_STATE];
  if (raw === undefined) return undefined;
  const parsed = SendStateSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The members every state after draft shows, when set. */
function known(state: SendState): MessageProgress {
  const out: MessageProgress = { status: state.status, total_targeted: state.total_targeted };
  if (state.scheduled_start_date) out.scheduled_start_date = state.scheduled_start_date;
  if (state.scheduled_stop_date) out.scheduled_stop_date = state.scheduled_stop_date;
  if (state.sent_start_date) out.sent_start_date = state.sent_start_date;
  if (state.sent_end_date) out.sent_end_date = state.sent_end_date;
  if (state.total_sent !== undefined) out.total_sent = state.total_sent;
  return out;
}

/**
 * Where a message stands at `now`. A scheduled message starts sending at its
 * scheduled start; sending goes out at the stored rate, so `total_sent` grows with
 * time until every recipient is reached (`sent`, with `sent_end_date` the moment the
 * last one went out); a scheduled stop that comes first ends it as `stopped`. `sent`
 * and `stopped` are final. Pure: the same state and moment give the same answer.
 *
 * @example
 * ```ts
 * import { messageProgress, type SendState } from './messages.js';
 *
 * const state: SendState = { status: 'sending', total_targeted: 100, send_rate: 10, sent_start_date: '2026-05-01T09:00:00.000Z' };
 * messageProgress(state, new Date('2026-05-01T09:00:04Z')); // { status: 'sending', total_sent: 40, … }
 * messageProgress(state, new Date('2026-05-01T09:00:30Z')); // { status: 'sent', total_sent: 100, sent_end_date: '2026-05-01T09:00:10.000Z', … }
 * ```
 */
export function messageProgress(state: SendState | undefined, now: Date): MessageProgress {
  if (!state) return { status: 'draft' };
  if (state.status === 'sent' || state.status === 'stopped') return known(state);
  const startDate =
    state.status === 'scheduled' ? state.scheduled_start_date : state.sent_start_date;
  const start = startDate === undefined ? Number.NaN : Date.parse(startDate);
  if (Number.isNaN(start)) return known(state);
  const at = now.getTime();
  if (at < start) return known(state);
  const targeted = state.total_targeted;
  const perMs = state.send_rate / 1000;
  const sentBy = (ms: number) => Math.min(targeted, Math.floor((ms - start) * perMs));
  // The moment the last recipient is reached.
  const finish = start + Math.ceil(targeted / perMs);
  const stop = state.scheduled_stop_date ? Date.parse(state.scheduled_stop_date) : Number.NaN;
  const base = { ...known(state), sent_start_date: iso(start) };
  if (!Number.isNaN(stop) && stop < finish && at >= stop) {
    return { ...base, status: 'stopped', total_sent: sentBy(stop), sent_end_date: iso(stop) };
  }
  if (at >= finish) {
    return { ...base, status: 'sent', total_sent: targeted, sent_end_date: iso(finish) };
  }
  return { ...base, status: 'sending', total_sent: sentBy(at) };
}

/**
 * The message kind's `view`: the stored document with its sending state replaced by
 * the public members of {@link messageProgress} at `now`. A draft shows
 * `status: 'draft'` and nothing else.
 *
 * @example
 * ```ts
 * import { messageView } from './messages.js';
 *
 * messageView({ subject: 'Hi' }, new Date()); // { subject: 'Hi', status: 'draft' }
 * ```
 */
export function messageView(doc: JsonObject, now: Date): JsonObject {
  const { [SERVER_STATE]: _state, ...fields } = doc;
  return { ...fields, ...messageProgress(sendStateOf(doc), now) };
}

/** Whether a person record matches every condition of a query's filter. */
function matches(
  person: StoredRecord,
  personKind: ResourceKind,
  filters: readonly RecordFilter[],
): boolean {
  const keys = personKind.lookupKeys(person.doc);
  return filters.every((filter) => {
    if ('key' in filter) {
      return keys.some((key) => key.name === filter.key && key.value === filter.value);
    }
    const value = person[filter.column];
    switch (filter.op) {
      case 'eq':
        return value === filter.value;
      case 'ne':
        return value !== filter.value;
      case 'gt':
        return value > filter.value;
      case 'ge':
        return value >= filter.value;
      case 'lt':
        return value < filter.value;
      case 'le':
        return value <= filter.value;
      default:
        return false;
    }
  });
}

/** Ids of the people with an item on a list (organizations on it receive nothing). */
async function peopleOnList(
  records: RecordService,
  tenant: Tenant,
  listId: string,
): Promise<Set<string>> {
  const people = new Set<string>();
  let after = 0;
  for (;;) {
    const page = await records.storage.records.list({
      tenantId: tenant.id,
      kind: 'item',
      parent: { kind: 'list', id: listId },
      limit: 500,
      after,
    });
    for (const item of page) {
      const person = referencesOf(item.doc).person;
      if (person) people.add(person.id);
    }
    const last = page[page.length - 1];
    if (!last || page.length < 500) return people;
    after = last.seq;
  }
}

/**
 * How many people a message goes to: the people with an item on its list (`std:list`)
 * and the people its query (`std:query`) selects, each counted once. A query
 * without a filter selects every person of the tenant.
 */
export async function countRecipients(
  records: RecordService,
  tenant: Tenant,
  refs: References,
): Promise<number> {
  const personKind = records.registry.bySingular('person');
  const onList = refs.list ? await peopleOnList(records, tenant, refs.list.id) : new Set<string>();
  const query = refs.query
    ? await records.storage.records.get(tenant.id, refs.query.kind, refs.query.id)
    : undefined;
  if (!query || !personKind) return onList.size;
  const filter = typeof query.doc.filter === 'string' ? query.doc.filter.trim() : '';
  // The query's filter was checked when the query was written.
  const filters = filter === '' ? [] : parseFilter(filter, PERSON_FILTER_FIELDS, 'std:query');
  const selected = await records.storage.records.count({
    tenantId: tenant.id,
    kind: 'person',
    ...(filters.length ? { filters } : {}),
  });
  let onlyOnList = 0;
  for (const id of onList) {
    const person = await records.storage.records.get(tenant.id, 'person', id);
    if (person && !matches(person, personKind, filters)) onlyOnList += 1;
  }
  return selected + onlyOnList;
}

/**
 * What a helper call asks of a message.
 */
export type MessageAction =
  | { type: 'send' }
  | { type: 'stop' }
  | { type: 'schedule'; schedule: MessageSchedule }
  | { type: 'unschedule' };

/**
 * Options of {@link actOnMessage}.
 */
export interface MessageActionOptions {
  /** Recipients per second of a send started now. */
  sendRate: number;
  /** The moment of the call. Default: now. */
  now?: Date;
}

function conflict(code: string, description: string): ApiError {
  return new ApiError(409, [{ error_code: code, description }], 'std:message');
}

/** 409 for a message that is past draft and scheduled. */
function refuseUnlessDraftOrScheduled(progress: MessageProgress, doing: string): void {
  if (progress.status === 'sending') {
    throw conflict(
      ErrorCode.MESSAGE_ALREADY_SENDING,
      `the message is being sent (${progress.total_sent ?? 0} of ${progress.total_targeted ?? 0}); it cannot ${doing}`,
    );
  }
  if (progress.status === 'sent' || progress.status === 'stopped') {
    throw conflict(
      ErrorCode.MESSAGE_ALREADY_SENT,
      `the message was already sent (${progress.status}); it cannot ${doing}`,
    );
  }
}

/**
 * The recipients of a message that is about to go out, or a 400 listing every reason
 * it cannot: no body text (`MESSAGE_INCOMPLETE`), no list or query, or nobody on them
 * (`MESSAGE_HAS_NO_TARGETS`).
 */
async function readyRecipients(
  records: RecordService,
  tenant: Tenant,
  message: StoredRecord,
): Promise<number> {
  const errors: ErrorDescription[] = [];
  const body = message.doc.body;
  if (typeof body !== 'string' || body.trim() === '') {
    errors.push({
      error_code: ErrorCode.MESSAGE_INCOMPLETE,
      description: 'the message has no body text to send',
      properties: ['body'],
      hint: 'PUT the message with a body first',
    });
  }
  const refs = referencesOf(message.doc);
  if (!refs.list && !refs.query) {
    errors.push({
      error_code: ErrorCode.MESSAGE_HAS_NO_TARGETS,
      description: 'the message has no target: link a std:list or a std:query',
      properties: ['_links.std:list', '_links.std:query'],
      hint: 'PUT the message with _links: { "std:list": { "href": "<a list\'s self href>" } }',
    });
    throw new ApiError(400, errors, 'std:message');
  }
  const recipients = await countRecipients(records, tenant, refs);
  if (recipients === 0) {
    errors.push({
      error_code: ErrorCode.MESSAGE_HAS_NO_TARGETS,
      description: "nobody is on the message's list or selected by its query",
      properties: refs.list ? ['_links.std:list'] : ['_links.std:query'],
      hint: 'add people to the list, or target another list or query',
    });
  }
  if (errors.length > 0) throw new ApiError(400, errors, 'std:message');
  return recipients;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * Carries out a send or schedule helper call on a message of the tenant and stores
 * the result, in one transaction. Returns the `notice` of the answer.
 *
 * - `send`: draft or scheduled → sending (a schedule is replaced). 409
 *   `MESSAGE_ALREADY_SENDING` / `MESSAGE_ALREADY_SENT` past that; 400
 *   `MESSAGE_INCOMPLETE` / `MESSAGE_HAS_NO_TARGETS` when it cannot go out.
 * - `stop`: sending → stopped, keeping how many were reached; else 409 `MESSAGE_NOT_SENDING`.
 * - `schedule`: draft or scheduled → scheduled; a start in the past is 400
 *   `SCHEDULE_IN_PAST`; the same checks as `send`.
 * - `unschedule`: scheduled → draft; else 409 `MESSAGE_NOT_SCHEDULED`.
 */
export async function actOnMessage(
  records: RecordService,
  tenant: Tenant,
  id: string,
  action: MessageAction,
  options: MessageActionOptions,
): Promise<string> {
  const kind = records.registry.bySingular('message');
  if (!kind) throw new Error('the message kind is not registered');
  const now = options.now ?? new Date();
  return records.storage.transaction(async () => {
    const message = await records.get(tenant, kind, id, { forUpdate: true });
    const state = sendStateOf(message.doc);
    const progress = messageProgress(state, now);
    const store = async (next: SendState | undefined) => {
      const { [SERVER_STATE]: _old, ...fields } = message.doc;
      const identifiers = Array.isArray(message.doc.identifiers)
        ? message.doc.identifiers.filter((value): value is string => typeof value === 'string')
        : [];
      await records.replace(tenant, kind, message, {
        identifiers,
        fields: next ? { ...fields, [SERVER_STATE]: next } : fields,
        now,
      });
    };
    switch (action.type) {
      case 'send': {
        refuseUnlessDraftOrScheduled(progress, 'be sent again');
        const recipients = await readyRecipients(records, tenant, message);
        await store({
          status: 'sending',
          total_targeted: recipients,
          send_rate: options.sendRate,
          sent_start_date: now.toISOString(),
        });
        return `Sending started: ${plural(recipients, 'recipient')} at ${options.sendRate} per second${
          progress.status === 'scheduled' ? ' (the schedule is replaced)' : ''
        }`;
      }
      case 'stop': {
        if (progress.status !== 'sending' || !state) {
          throw conflict(
            ErrorCode.MESSAGE_NOT_SENDING,
            `the message is ${progress.status}, not sending: there is nothing to stop`,
          );
        }
        const reached = progress.total_sent ?? 0;
        await store({
          ...state,
          status: 'stopped',
          sent_start_date: progress.sent_start_date,
          sent_end_date: now.toISOString(),
          total_sent: reached,
        });
        return `Sending stopped: ${reached} of ${plural(state.total_targeted, 'recipient')} reached`;
      }
      case 'schedule': {
        refuseUnlessDraftOrScheduled(progress, 'be scheduled');
        const start = Date.parse(action.schedule.scheduled_start_date);
        if (start < now.getTime()) {
          throw new ApiError(
            400,
            [
              {
                error_code: ErrorCode.SCHEDULE_IN_PAST,
                description: `scheduled_start_date ${action.schedule.scheduled_start_date} is in the past`,
                properties: ['scheduled_start_date'],
                hint: 'schedule a later start, or send the message now with the send helper',
              },
            ],
            'std:message',
          );
        }
        const recipients = await readyRecipients(records, tenant, message);
        const stopDate =
          'scheduled_stop_date' in action.schedule
            ? action.schedule.scheduled_stop_date
            : undefined;
        const next: SendState = {
          status: 'scheduled',
          total_targeted: recipients,
          send_rate: options.sendRate,
          scheduled_start_date: iso(start),
        };
        if (stopDate !== undefined) next.scheduled_stop_date = iso(Date.parse(stopDate));
        await store(next);
        // The notice names the dates as the message's record writes them.
        const shown = (date: string | undefined) =>
          date === undefined ? '' : writeDateTime(date, kind.dateTimes);
        return `Scheduled to start at ${shown(next.scheduled_start_date)}${
          next.scheduled_stop_date ? ` and stop at ${shown(next.scheduled_stop_date)}` : ''
        }: ${plural(recipients, 'recipient')}`;
      }
      case 'unschedule': {
        if (progress.status !== 'scheduled') {
          throw conflict(
            ErrorCode.MESSAGE_NOT_SCHEDULED,
            `the message is ${progress.status}, not scheduled: there is no schedule to cancel`,
          );
        }
        await store(undefined);
        return 'Schedule cancelled: the message is a draft again';
      }
    }
  });
}

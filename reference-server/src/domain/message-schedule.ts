/**
 * The schedule helper's body as the server checks it: the SDK's `MessageScheduleSchema`
 * (ISO 8601 date-times, the stop after the start), under a real server's preset
 * (vocabulary `extended`) after its date-time spellings are read as ISO 8601
 * (`2026-09-01 18:00:00` is `2026-09-01T18:00:00Z`), as the record schemas read them.
 */
import { datetime, type MessageSchedule, MessageScheduleSchema } from 'adis-sdk/schema';
import type { JsonObject } from '../storage/storage.js';
import { parseOrThrow } from './validation.js';
import type { Vocabulary } from './vocabulary.js';

/** The body's date-time members. */
const DATE_MEMBERS = ['scheduled_start_date', 'scheduled_stop_date', 'scheduled_end_date'];

/** The extended side's reading of a date-time, built on first use. */
let extendedDatetime: ReturnType<typeof datetime> | undefined;

/** The body with each date-time the extended side reads as ISO 8601; others as sent. */
function withIsoDates(body: JsonObject): JsonObject {
  extendedDatetime ??= datetime('extended');
  const out: JsonObject = { ...body };
  for (const member of DATE_MEMBERS) {
    const read = extendedDatetime.safeParse(body[member]);
    if (read.success) out[member] = read.data;
  }
  return out;
}

/**
 * Checks a schedule helper body under `vocabulary` (400 `std:error` naming the member
 * when it does not fit) and answers the schedule.
 *
 * @example
 * ```ts
 * import { checkMessageSchedule } from './message-schedule.js';
 *
 * checkMessageSchedule({ scheduled_start_date: '2026-09-01T18:00:00Z' });
 * checkMessageSchedule({ scheduled_start_date: '2026-09-01 18:00:00' }, 'extended');
 * // { scheduled_start_date: '2026-09-01T18:00:00Z' }
 * ```
 */
export function checkMessageSchedule(
  body: JsonObject,
  vocabulary: Vocabulary = 'strict',
): MessageSchedule {
  const sent = vocabulary === 'extended' ? withIsoDates(body) : body;
  return parseOrThrow(MessageScheduleSchema, sent, 'std:message');
}

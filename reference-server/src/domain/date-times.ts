/**
 * How the server writes the date-times it renders: a domain fact the preset chooses
 * (`ServingPreset.dateTimes`), declared here, below the presets, because the record
 * rules read it too (a donation's `created_date` sent back is compared at the precision
 * it was written in, `records/created-date.ts`).
 *
 * Only what is written changes, never what is stored. Storage keeps every date-time
 * as it keeps it today (the server's own as `toISOString` text, to the millisecond),
 * because storage compares and orders `created_date` and `modified_date` as that text:
 *
 * - Filters compare instants at the stored precision, whatever the preset writes.
 *   `modified_date gt '2026-01-01T10:00:00Z'` names the instant 10:00:00.000 and still
 *   finds a record modified at 10:00:00.400, which Action Network's style writes
 *   `2026-01-01T10:00:00Z`. An incremental sync that filters `gt` the latest
 *   `modified_date` it read therefore never misses a change made later in that second;
 *   it may read again the records of that one second. Stored at whole seconds, the
 *   same filter would have missed them. The price: `eq` and `le` with a value read
 *   from a record find only the records of the second's first millisecond. To take a
 *   whole second, filter `ge` it and `lt` the next.
 * - Paging cursors are records' seqs (`after`, `before`), not dates: nothing to keep.
 * - A fraction is dropped, never rounded. The instant written is then at or before the
 *   one stored, in the same second, so `ge` the written value finds the record, and
 *   a date never moves into the next second, minute or day.
 */
import type { JsonObject } from '../storage/storage.js';

/** How a preset's server writes the date-times it renders. */
export type DateTimeStyle =
  /**
   * As stored (the plain server): the server's own dates as `toISOString` gives them
   * (`2026-01-01T10:00:00.000Z`), a client's as it sent them (`2026-05-01T18:00:00+02:00`).
   */
  | 'as-stored'
  /**
   * In UTC to the whole second, `2026-01-01T10:00:00Z`, as Action Network writes them
   * (`2013-01-01T00:00:00Z` in its documentation's samples): a date sent with an offset
   * is written as the same instant in UTC, a fraction of a second is dropped.
   */
  | 'utc-seconds';

/**
 * Whether `style` writes date-times otherwise than stored. Absent is `as-stored`, the
 * plain server's: every writer below takes it so, and callers pass a preset's or a
 * kind's `dateTimes` as they find it.
 */
export function respells(style: DateTimeStyle | undefined): style is 'utc-seconds' {
  return style !== undefined && style !== 'as-stored';
}

/**
 * What names a member as a date-time. OSDI names every one `…_date` (`created_date`,
 * `start_date`, `action_date`, a postal address's `last_verified_date`, a message's
 * `sent_end_date`…), and so do the SDK's declarations. The one `_date` member that is a
 * calendar date, an event's `all_day_date` (`2026-05-01`), has no time of day, so the
 * value check ({@link DATE_TIME}) leaves it alone.
 */
const DATE_TIME_SUFFIX = '_date';

/**
 * Members whose contents are the client's own: custom fields hold whatever a client
 * named and wrote (a field `renewal_date` holding `2026-01-01T10:00:00.000Z` is its
 * text, not the server's date), so nothing below them is rewritten.
 */
const CLIENT_MEMBERS: ReadonlySet<string> = new Set(['custom_fields']);

/**
 * An RFC 3339 date-time as stored: date, `T`, hours and minutes, optional seconds and
 * fraction, `Z` or an offset (`±hh:mm`, `±hhmm`, `±hh`). The groups are the parts
 * rebuilt for `Date.parse`, which reads the ECMAScript format only (`±hh:mm`).
 */
const DATE_TIME =
  /^((\d{4}-\d\d-\d\d)T\d\d:\d\d)(?::(\d\d)(?:\.\d+)?)?(?:(Z)|([+-]\d\d)(?::?(\d\d))?)$/i;

/**
 * Milliseconds since the epoch in `style` (an instant the server made itself: a
 * delivery attempt, a subscription's creation).
 *
 * @example
 * ```ts
 * import { writeInstant } from './date-times.js';
 *
 * writeInstant(Date.UTC(2026, 0, 1, 10, 0, 0, 400), 'utc-seconds'); // '2026-01-01T10:00:00Z'
 * writeInstant(Date.UTC(2026, 0, 1, 10, 0, 0, 400), 'as-stored'); // '2026-01-01T10:00:00.400Z'
 * ```
 */
export function writeInstant(ms: number, style: DateTimeStyle | undefined): string {
  const iso = new Date(ms).toISOString();
  // `toISOString` always ends in `.mmmZ`, whatever the year's width.
  return respells(style) ? `${iso.slice(0, -5)}Z` : iso;
}

/**
 * A stored date-time in `style`; text that is not an RFC 3339 date-time (a calendar
 * date, a client's other text) as it is, so writing it twice changes nothing.
 *
 * @example
 * ```ts
 * import { writeDateTime } from './date-times.js';
 *
 * writeDateTime('2026-01-01T10:00:00.400Z', 'utc-seconds'); // '2026-01-01T10:00:00Z'
 * writeDateTime('2026-05-01T18:00:00.750+02:00', 'utc-seconds'); // '2026-05-01T16:00:00Z'
 * writeDateTime('2026-05-01', 'utc-seconds'); // '2026-05-01'
 * ```
 */
export function writeDateTime(text: string, style: DateTimeStyle | undefined): string {
  if (!respells(style)) return text;
  const match = DATE_TIME.exec(text);
  if (!match) return text;
  const [, minute, day, seconds = '00', z, offsetHours, offsetMinutes = '00'] = match;
  // `Date.parse` rolls a day the month does not have over (`02-30` is 2 March): such a
  // date is not respelled as another one.
  const midnight = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day) return text;
  // The fraction is left out before the offset is applied: offsets are whole minutes,
  // so this drops it from the instant, towards the start of its second.
  const zone = z ? 'Z' : `${offsetHours}:${offsetMinutes}`;
  const instant = Date.parse(`${minute}:${seconds}${zone}`);
  return Number.isNaN(instant) ? text : writeInstant(instant, style);
}

/**
 * A document with every date-time member (named `…_date`, at any depth, not inside
 * custom fields) in `style`: a copy where something changes, else the same object.
 *
 * @example
 * ```ts
 * import { writeDateTimes } from './date-times.js';
 *
 * writeDateTimes(
 *   { created_date: '2026-01-01T10:00:00.400Z', postal_addresses: [{ last_verified_date: '2026-01-02T08:00:00.000Z' }] },
 *   'utc-seconds',
 * );
 * // { created_date: '2026-01-01T10:00:00Z', postal_addresses: [{ last_verified_date: '2026-01-02T08:00:00Z' }] }
 * ```
 */
export function writeDateTimes(doc: JsonObject, style: DateTimeStyle | undefined): JsonObject {
  if (!respells(style)) return doc;
  return written(doc, style) as JsonObject;
}

/** {@link writeDateTimes} of any JSON value: arrays and objects walked, the rest as is. */
function written(value: unknown, style: DateTimeStyle): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((element, index) => {
      const next = written(element, style);
      if (next !== element) {
        out ??= [...value];
        out[index] = next;
      }
    });
    return out ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  let out: Record<string, unknown> | undefined;
  for (const [name, member] of Object.entries(value)) {
    if (CLIENT_MEMBERS.has(name)) continue;
    const next =
      typeof member === 'string'
        ? name.endsWith(DATE_TIME_SUFFIX)
          ? writeDateTime(member, style)
          : member
        : written(member, style);
    if (next !== member) {
      out ??= { ...value };
      out[name] = next;
    }
  }
  return out ?? value;
}

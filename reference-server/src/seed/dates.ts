/**
 * Dates of the demo data, relative to the seed's `now`: actions in the weeks before it,
 * events in the weeks after it, so the data looks current whenever it is seeded.
 */

/** One day, in milliseconds. */
export const DAY = 86_400_000;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** UTC offset of `timeZone` at `at`, as `-04:00`. */
function offsetOf(timeZone: string, at: Date): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  return /GMT([+-]\d{2}:\d{2})/.exec(name ?? '')?.[1] ?? '+00:00';
}

/**
 * An ISO instant `days` (fractional) before `now`.
 *
 * @example
 * ```ts
 * import { ago } from './dates.js';
 *
 * ago(new Date('2026-04-15T16:00:00Z'), 1.5); // '2026-04-14T04:00:00.000Z'
 * ```
 */
export function ago(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY).toISOString();
}

/**
 * The calendar day `days` after `now` (UTC), as `YYYY-MM-DD`.
 *
 * @example
 * ```ts
 * import { dayAfter } from './dates.js';
 *
 * dayAfter(new Date('2026-04-15T16:00:00Z'), 30); // '2026-05-15'
 * ```
 */
export function dayAfter(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY).toISOString().slice(0, 10);
}

/**
 * How many days after `now` falls the first day, at least `minDays` after it, that is a
 * `weekday` (0 = Sunday).
 *
 * @example
 * ```ts
 * import { nextWeekday } from './dates.js';
 *
 * nextWeekday(new Date('2026-04-15T16:00:00Z'), 18, 5); // 23: the first Friday 18 days on
 * ```
 */
export function nextWeekday(now: Date, minDays: number, weekday: number): number {
  let days = minDays;
  while (new Date(now.getTime() + days * DAY).getUTCDay() !== weekday) days += 1;
  return days;
}

/**
 * Wall-clock time in `timeZone` on the day `days` after `now`, with that day's offset.
 *
 * @example
 * ```ts
 * import { localTime } from './dates.js';
 *
 * localTime('America/New_York', new Date('2026-04-15T16:00:00Z'), 3, 18, 30);
 * // '2026-04-18T18:30:00-04:00'
 * ```
 */
export function localTime(
  timeZone: string,
  now: Date,
  days: number,
  hour: number,
  minute = 0,
): string {
  const day = dayAfter(now, days);
  const offset = offsetOf(timeZone, new Date(`${day}T12:00:00Z`));
  return `${day}T${pad(hour)}:${pad(minute)}:00${offset}`;
}

/**
 * A record's own `created_date`, for the kinds whose declaration lets a client give it
 * (`clientCreatedDate`: a donation imported with the date it was made, as Action
 * Network documents on the donation's create). The specification calls `created_date`
 * read-only, and lets each system choose which fields are writable; this server takes
 * it where the SDK's declaration says so, and never ignores it there: a date it cannot
 * keep is refused (400), so that no import is silently re-dated.
 *
 * - On create, the date given is stored, as the instant in `toISOString` form: storage
 *   compares and orders `created_date` as text (filters, listings), so every stored date
 *   has one spelling. It must not lie after the time of the write. Without one (or with
 *   `null`), the record is dated at the write, as any other record.
 * - On update, the stored date sent back (in any spelling of the same instant) is taken,
 *   and so is the stored date as the kind writes it (under Action Network's preset the
 *   whole second, `domain/date-times.ts`), so a record read can be written back; the
 *   stored date is kept either way. Another date is refused: a record's own date
 *   is set when it is recorded (storage keeps `created_date` from the insert on), and a
 *   wrong one is corrected by deleting the record and recording it again.
 *
 * The spelling itself (an RFC 3339 date-time with an offset; under Action Network's
 * preset also its own, read as UTC) is checked earlier, by the declaration's schema.
 */
import type { JsonObject, StoredRecord } from '../../storage/storage.js';
import { writeDateTime } from '../date-times.js';
import { ErrorCode, type ErrorDescription } from '../errors.js';
import type { ResourceKind } from '../kinds.js';

/** The member, as errors name it. */
const MEMBER = 'created_date';

/** The instant a given date names, in milliseconds; undefined when it names none. */
function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? undefined : instant;
}

/**
 * The `created_date` to store for a record of `kind` created at `now`: the date `input`
 * gives, when the kind takes one from the client, as `toISOString` text; else `now`'s.
 * A given date that names no instant, or one after `now`, is reported in `errors` (the
 * create then fails) and `now`'s is returned.
 *
 * @example
 * ```ts
 * import { donationKind, petitionKind } from 'adis-sdk/schema';
 * import { type ErrorDescription, serveKind } from 'adis-server';
 * import { createdDateOf } from './created-date.js';
 *
 * const now = new Date();
 * const errors: ErrorDescription[] = [];
 * createdDateOf(serveKind(donationKind), { created_date: '2023-11-05T15:30:00+01:00' }, now, errors);
 * // '2023-11-05T14:30:00.000Z'
 * createdDateOf(serveKind(petitionKind), { created_date: '2023-11-05T14:30:00Z' }, now, errors);
 * // now.toISOString()
 * ```
 */
export function createdDateOf(
  kind: ResourceKind,
  input: JsonObject,
  now: Date,
  errors: ErrorDescription[],
): string {
  const stamp = now.toISOString();
  const given = input[MEMBER];
  if (!kind.clientCreatedDate || given === undefined || given === null) return stamp;
  const instant = instantOf(given);
  if (instant === undefined) {
    errors.push({
      error_code: ErrorCode.INVALID_PROPERTY,
      description: `${MEMBER}: must be an RFC 3339 date-time with Z or an offset (the ${kind.singular}'s own date), not ${JSON.stringify(given)}`,
      properties: [MEMBER],
      hint: 'such as 2024-05-01T12:00:00Z; leave it out to date the record now',
    });
    return stamp;
  }
  if (instant > now.getTime()) {
    errors.push({
      error_code: ErrorCode.INVALID_PROPERTY,
      description: `${MEMBER}: ${String(given)} is in the future (the server's time is ${written(kind, stamp)}); a ${kind.singular}'s created_date is the date it was made`,
      properties: [MEMBER],
      hint: 'give a date at or before now, or leave created_date out to date the record now',
    });
    return stamp;
  }
  return new Date(instant).toISOString();
}

/**
 * Checks the `created_date` an update of a record of `kind` sends: for a kind that takes
 * it from the client, it must name the instant stored (`current.created_date`) or the
 * one the kind writes for it (`dateTimes`: to the second under Action Network's preset),
 * else an error in `errors`. `null` or none leaves the stored date, as for any other kind.
 */
export function checkCreatedDateKept(
  kind: ResourceKind,
  patch: JsonObject,
  current: StoredRecord,
  errors: ErrorDescription[],
): void {
  const sent = patch[MEMBER];
  if (!kind.clientCreatedDate || sent === undefined || sent === null) return;
  const instant = instantOf(sent);
  const shown = written(kind, current.created_date);
  // A client holds the date as it was written to it; the stored one is kept either way.
  if (instant === instantOf(current.created_date) || instant === instantOf(shown)) return;
  errors.push({
    error_code: ErrorCode.INVALID_PROPERTY,
    description: `${MEMBER}: a ${kind.singular}'s created_date is set when it is recorded and cannot change (stored ${shown}, sent ${JSON.stringify(sent)})`,
    properties: [MEMBER],
    hint: `send the stored created_date or leave it out; to date the ${kind.singular} otherwise, delete it and record it again`,
  });
}

/** A stored date-time as the kind writes it (its `dateTimes`), for answers and errors. */
function written(kind: ResourceKind, stored: string): string {
  return writeDateTime(stored, kind.dateTimes);
}

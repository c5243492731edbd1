import * as z from 'zod/mini';
import { closedObject, openObject, type VendorObject } from './vendor.js';

/**
 * Which side of the wire a schema serves, and how strictly.
 *
 * One field definition builds three schemas:
 * - `read` is what the SDK accepts from any server: liberal (unknown members kept, enums
 *   open, variant spellings and types coerced).
 * - `write` is what the SDK checks before sending: strict about member names (an unknown
 *   plain member is a typo, refused before it is sent) and about JSON types, open about
 *   values (vocabularies, formats, cross-field rules belong to the server). Vendor
 *   members (`<prefix>:<name>`) pass at any depth. Everything `read` produces passes it:
 *   a record read from a server can be written back to it unchanged (the round-trip
 *   rule, docs/round-trip.md).
 * - `strict` is what the reference server accepts: `write` plus the specification's
 *   formats (ISO dates, codes, digit-only phone numbers), closed enums and rules.
 * - `extended` is what the reference server accepts under a real server's preset
 *   (`--preset action-network`): `strict`, plus what real servers document beside the
 *   specification: the members declared with {@link outsideSpec}, their enum values
 *   (email statuses such as `previous bounce`) and their date-time spellings
 *   (`2026-09-01 18:00:00`, read as UTC and parsed to ISO 8601 with an offset).
 *
 * Building them all from one definition is what keeps the SDK and the server from
 * drifting apart.
 */
export type Mode = 'read' | 'write' | 'strict' | 'extended';

/**
 * Whether `mode` is one of the reference server's (`strict`, `extended`): the
 * specification's formats, closed enums and rules hold in both.
 *
 * @example
 * ```ts
 * import type { Mode } from 'adis-sdk/schema';
 * import { isServerMode } from 'adis-sdk/server-kit';
 * import * as z from 'zod/mini';
 *
 * const name = (mode: Mode) => (isServerMode(mode) ? z.string().check(z.trim()) : z.string());
 * ```
 */
export function isServerMode(mode: Mode): mode is 'strict' | 'extended' {
  return mode === 'strict' || mode === 'extended';
}

/**
 * A string that is one of `values` or, because the spec calls it a flexenum, any other
 * string. The type keeps the known values for editor completion.
 *
 * @example
 * ```ts
 * import { flexenum } from 'adis-sdk/schema';
 *
 * const numberType = flexenum(['Home', 'Work', 'Mobile']);
 * numberType.parse('Pager'); // 'Pager'
 * ```
 */
export function flexenum<const T extends readonly string[]>(
  _values: T,
): z.ZodMiniType<T[number] | (string & {}), string> {
  // The values are documentation for the type only: a flexenum accepts any string on
  // both sides of the wire.
  return z.string() as z.ZodMiniType<T[number] | (string & {}), string>;
}

/**
 * A closed enum for the reference server (`strict`), an open one on `read` and `write`:
 * a server in the wild that sends `female` instead of `Female` must not make a whole
 * page of people unreadable, and what was read must be writable back (the server owns
 * its vocabulary). Typed as `values` or any string, so editors complete the values.
 *
 * @example
 * ```ts
 * import { enumeration } from 'adis-sdk/schema';
 *
 * enumeration(['Female', 'Male', 'Other'], 'strict').parse('Female');
 * enumeration(['Female', 'Male', 'Other'], 'write').parse('female'); // passes: the server decides
 * ```
 */
export function enumeration<const T extends readonly [string, ...string[]]>(
  values: T,
  mode: Mode,
): z.ZodMiniType<T[number] | (string & {}), T[number] | (string & {})> {
  return isServerMode(mode) ? (z.enum(values) as z.ZodMiniType<string, string>) : flexenum(values);
}

/**
 * Types a lenient read schema by the input a client should send (`number`, not
 * `unknown`). One field definition serves both sides, and the write side's input type
 * is what `XInput` types show; without this, a coercing read schema would make every
 * numeric or boolean member of every `XInput` accept anything at compile time.
 */
function asInput<T>(schema: z.ZodMiniType<T, unknown>): z.ZodMiniType<T, T> {
  return schema as z.ZodMiniType<T, T>;
}

/**
 * Runs `fn` on the raw value before `schema` parses it: zod/mini's spelling of classic
 * zod's `z.preprocess` (a pipe from a transform into the schema, as zod builds it).
 */
export function preprocess<U extends z.core.$ZodType, B = unknown>(
  fn: (value: B) => unknown,
  schema: U,
): z.ZodMiniPipe<z.ZodMiniTransform<unknown, B>, U> {
  return z.pipe(z.transform(fn), schema);
}

const TRUE_STRINGS = new Set(['true', '1', 'yes']);
const FALSE_STRINGS = new Set(['false', '0', 'no']);

/**
 * A boolean. On read the strings `"true"`/`"false"` are accepted too: the spec's table
 * types a phone number's `primary` as a string while every other `primary` is boolean.
 *
 * @example
 * ```ts
 * import { bool } from 'adis-sdk/schema';
 *
 * bool('read').parse('true'); // true
 * ```
 */
export function bool(mode: Mode): z.ZodMiniType<boolean, boolean> {
  if (mode !== 'read') return z.boolean();
  // Typed by what a client should send (a boolean); the read side accepts more.
  return asInput<boolean>(
    preprocess((value) => {
      if (typeof value !== 'string') return value;
      const lower = value.trim().toLowerCase();
      if (TRUE_STRINGS.has(lower)) return true;
      if (FALSE_STRINGS.has(lower)) return false;
      return value;
    }, z.boolean()),
  );
}

/**
 * An integer. On read a numeric string is accepted, as some servers serialise counts
 * as strings; on write any number (what was read), an integer for the server.
 *
 * @example
 * ```ts
 * import { integer } from 'adis-sdk/schema';
 *
 * integer('read').parse('12'); // 12
 * ```
 */
export function integer(mode: Mode): z.ZodMiniType<number, number> {
  if (isServerMode(mode)) return z.number().check(z.int());
  if (mode === 'write') return z.number();
  return asInput<number>(
    preprocess(
      (value) =>
        typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value,
      z.number(),
    ),
  );
}

/**
 * A float (money, coordinates). On read a numeric string is accepted.
 *
 * @example
 * ```ts
 * import { float } from 'adis-sdk/schema';
 *
 * float('read').parse('10.50'); // 10.5
 * ```
 */
export function float(mode: Mode): z.ZodMiniType<number, number> {
  if (mode !== 'read') return z.number();
  return asInput<number>(
    preprocess(
      (value) =>
        typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
          ? Number(value)
          : value,
      z.number(),
    ),
  );
}

/**
 * A valid `Date` as its ISO 8601 date-time in UTC; anything else as it is (an invalid
 * Date then fails the string check, as any other non-string does).
 */
function fromDate(value: unknown): unknown {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : value;
}

/**
 * A date-time as Action Network takes it (a space or `T` between date and time; then
 * `Z`, `±hh:mm` or `±hhmm`, after a space or not, or no offset for UTC) spelled as
 * ISO 8601 with an offset, for the extended mode: what is stored, filtered and ordered
 * is then one format. What does not look like one is left as it is, for the ISO check.
 */
function fromLenientText(value: unknown): unknown {
  return typeof value === 'string'
    ? value.replace(
        /^(\d{4}-\d\d-\d\d)[T ]([\d:.]+) ?(?:Z|([+-]\d\d):?(\d\d))?$/i,
        (_, day: string, time: string, hours?: string, minutes?: string) =>
          `${day}T${time}${hours ? `${hours}:${minutes}` : 'Z'}`,
      )
    : fromDate(value);
}

/**
 * An ISO 8601 date-time. On read any string, because servers in the wild send
 * `2026-01-01 10:00:00` and similar; on write any string too (what was read goes back
 * as it came) or a `Date`, sent as ISO 8601; for the reference server (`strict`) an
 * ISO 8601 date-time with an offset, or a `Date`; under a real server's preset
 * (`extended`) also Action Network's spellings (`2026-01-01 10:00:00`, without an
 * offset: UTC), parsed to ISO 8601 with an offset.
 *
 * @example
 * ```ts
 * import { datetime } from 'adis-sdk/schema';
 *
 * datetime('write').parse(new Date(Date.UTC(2026, 0, 1, 10))); // '2026-01-01T10:00:00.000Z'
 * datetime('strict').parse('2026-01-01T10:00:00Z');
 * datetime('extended').parse('2026-01-01 10:00:00'); // '2026-01-01T10:00:00Z'
 * ```
 */
export function datetime(mode: Mode): z.ZodMiniType<string, string | Date> {
  if (mode === 'read') return z.string();
  return dateTimeText(mode, isServerMode(mode) ? z.iso.datetime({ offset: true }) : z.string());
}

/**
 * A date-time on a side that sends (write) or takes (strict, extended) one: a `Date` sent
 * as ISO 8601, Action Network's spellings read as ISO 8601 under a real server's preset,
 * then checked by `text`. Shared by {@link datetime} and {@link givenCreatedDate}, which
 * differ only in their check.
 */
function dateTimeText(
  mode: Exclude<Mode, 'read'>,
  text: z.ZodMiniType<string>,
): z.ZodMiniType<string, string | Date> {
  // A preprocess, not a union: a wrong type is then reported as such ("expected
  // string"), not as a bare "Invalid input".
  return preprocess(
    mode === 'extended' ? fromLenientText : fromDate,
    text,
  ) as unknown as z.ZodMiniType<string, string | Date>;
}

/**
 * A member some real server documents that the specification does not have (Action
 * Network's `tag_list`, a phone's `status`, a message's `targets`): declared on read and
 * write, so that what such a server sends is written back, refused by the reference
 * server (`strict`), which keeps to the specification, and taken by it under a real
 * server's preset (`extended`).
 *
 * @example
 * ```ts
 * import { type Mode, optional, outsideSpec } from 'adis-sdk/schema';
 * import * as z from 'zod/mini';
 *
 * const shape = (mode: Mode) => ({ tag_list: optional(outsideSpec(z.array(z.string()), mode)) });
 * ```
 */
export function outsideSpec<T extends z.ZodMiniType>(schema: T, mode: Mode): T {
  if (mode !== 'strict') return schema;
  return z.undefined({
    error: 'is not a member of the specification (another server documents it)',
  }) as unknown as T;
}

/**
 * An ISO 8601 calendar date (`YYYY-MM-DD`) for the reference server; any string on
 * read and write.
 */
export function date(mode: Mode): z.ZodMiniType<string, string> {
  return isServerMode(mode) ? z.iso.date() : z.string();
}

/**
 * A string matching `pattern` for the reference server (ISO codes and the like), any
 * string on read and write.
 */
export function code(pattern: RegExp, what: string, mode: Mode): z.ZodMiniType<string, string> {
  return isServerMode(mode) ? z.string().check(z.regex(pattern, `must be an ${what}`)) : z.string();
}

/**
 * An array whose members must be unique for the reference server (identifiers,
 * ethnicities, languages).
 */
export function uniqueStrings(mode: Mode, item: z.ZodMiniType<string, string> = z.string()) {
  const list = z.array(item);
  if (!isServerMode(mode)) return list;
  return list.check(
    z.refine((values) => new Set(values).size === values.length, {
      message: 'must not contain the same value twice',
    }),
  );
}

/**
 * An object of `shape`: loose on read (unknown members are kept, so nothing a server
 * sends is lost), closed on write (an unknown plain member is almost always a typo, and
 * silently dropping it would lose data) but open to vendor members (`<prefix>:<name>`,
 * kept as sent at any depth). Typed with {@link VendorMembers} on both sides, so
 * `data.givn_name` does not compile while `data['action_network:hidden']` does.
 */
export function object<S extends z.core.$ZodShape>(shape: S, mode: Mode): VendorObject<S> {
  return mode === 'read' ? openObject(shape) : closedObject(shape);
}

/**
 * An optional member that may also be `null`: `null` is how a PUT clears a field, and
 * some servers send `null` for "unset".
 */
export function optional<T extends z.core.SomeType>(schema: T) {
  return z.nullish(schema);
}

/** Identifier of the form `<system name>:<id>`, as the spec's common fields define it. */
export const IDENTIFIER_PATTERN = /^[^:\s]+:\S.*$/;

/**
 * The writable field every resource has: `identifiers`. The read-only common fields
 * (`created_date`, `modified_date`) are added by `resourceSchemas`.
 */
export function commonFields(mode: Mode) {
  return {
    identifiers: optional(
      uniqueStrings(
        mode,
        code(IDENTIFIER_PATTERN, 'identifier of the form <system name>:<id>', mode),
      ),
    ),
  };
}

/**
 * The read-only fields every resource has. Read as any string: servers in the wild
 * send dates without an offset. A kind declared with `clientCreatedDate` takes
 * `created_date` from the client instead (see `givenCreatedDate`).
 */
export const COMMON_COMPUTED_FIELDS = {
  created_date: optional(z.string()),
  modified_date: optional(z.string()),
};

/** {@link COMMON_COMPUTED_FIELDS} without `created_date`: those of a kind that takes it. */
const { created_date: _createdDate, ...ALWAYS_COMPUTED_FIELDS } = COMMON_COMPUTED_FIELDS;

/**
 * A date and a time of day in the spellings servers send: ISO 8601 with `T` or Action
 * Network's space between them, seconds and fractions optional, then `Z`, `±hh:mm`,
 * `±hhmm`, `±hh` or no offset. What the SDK checks a given `created_date` against
 * before sending: not a format of its own, but "a date-time at all".
 */
const DATE_TIME_TEXT =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)? ?(?:Z|[+-]\d\d(?::?\d\d)?)?$/i;

/** Why a given `created_date` is refused before sending: what a date-time is, with an example. */
const NOT_A_DATE_TIME = "must be a date-time (the record's own date), such as 2024-05-01T12:00:00Z";

/** Why the reference server refuses a given `created_date`'s spelling. */
const NOT_RFC_3339 =
  "must be an RFC 3339 date-time with Z or an offset (the record's own date), such as 2024-05-01T12:00:00Z";

/**
 * The `created_date` of a kind whose records carry their own date (a donation's, given
 * when past donations are imported; see `clientCreatedDate` of `defineKind`). On read
 * any string, as every read-only date; on write a date-time in any spelling servers
 * send (`DATE_TIME_TEXT`) or a `Date`, sent as ISO 8601 in UTC: anything
 * else ("yesterday", "") is refused before sending, since the server would otherwise
 * refuse it or date the record today; for the reference server (`strict`) an RFC 3339
 * date-time with an offset; under a real server's preset (`extended`) also Action
 * Network's spellings, parsed to ISO 8601 with an offset. Whether it lies in the
 * future is the server's to say (its clock, not the client's).
 *
 * @example
 * ```ts
 * import { givenCreatedDate } from './fields.js';
 *
 * givenCreatedDate('write').parse('2024-05-01 12:00:00'); // as sent
 * givenCreatedDate('write').safeParse('yesterday').success; // false
 * givenCreatedDate('strict').parse('2024-05-01T12:00:00+02:00');
 * ```
 */
export function givenCreatedDate(mode: Mode): z.ZodMiniType<string, string | Date> {
  if (mode === 'read') return z.string();
  return dateTimeText(
    mode,
    mode === 'write'
      ? z.string().check(z.regex(DATE_TIME_TEXT, NOT_A_DATE_TIME))
      : z.iso.datetime({ offset: true, error: NOT_RFC_3339 }),
  );
}

const triggerRead = z.looseObject({
  enabled: optional(bool('read')),
  identifiers: optional(z.array(z.string())),
});

/**
 * The `triggers` a helper call asked for (autoresponse, SMS, call), which a server
 * records on the record the helper created: read-only, so a record read back and PUT
 * again is not refused for carrying them. Used by the records helpers create (signature,
 * outreach, attendance, donation, submission, canvass) and the person (signup helper).
 */
export const HELPER_COMPUTED_FIELDS = {
  triggers: optional(
    z.looseObject({
      autoresponse: optional(triggerRead),
      sms_response: optional(triggerRead),
      call_response: optional(triggerRead),
    }),
  ),
};

/**
 * The schema of a read-only field in a write schema: a client may send it (a field
 * echoed back, as in `update(resource.data)`) and the server ignores it, so any value
 * passes.
 *
 * @example
 * ```ts
 * import { type Ignored, petitionKind } from 'adis-sdk';
 *
 * const totalSignatures: Ignored = petitionKind.writeSchema.shape.total_signatures;
 * ```
 */
export type Ignored = z.ZodMiniOptional<z.ZodMiniNullable<z.ZodMiniUnknown>>;

/**
 * The same members accepted as anything: a read-only field that a client sends back
 * (for example after `update(resource.data)`) is not an error; the server ignores it.
 */
export function ignoredOnWrite<S extends z.core.$ZodShape>(shape: S): { [K in keyof S]: Ignored } {
  const out: Record<string, Ignored> = {};
  for (const key of Object.keys(shape)) out[key] = optional(z.unknown());
  return out as { [K in keyof S]: Ignored };
}

/**
 * The read, write and strict schemas of one resource kind, built from one definition,
 * and the names of its read-only members.
 */
export interface ResourceSchemas<R extends z.ZodMiniType, W extends z.ZodMiniType> {
  /** Lenient: what the SDK accepts from any server. */
  read: R;
  /** What the SDK sends: member names and types checked, values left to the server. */
  write: W;
  /**
   * Builds what the reference server accepts on one of its sides: `strict`, `write`
   * plus the spec's formats and enums; `extended`, that plus what real servers document
   * (see `Mode`). Not cached: `defineKind` builds each on first use.
   */
  server(mode: 'strict' | 'extended'): W;
  /** Members the server computes or owns: ignored on create and update. */
  readOnly: readonly string[];
}

/**
 * The common fields a kind's server computes: both dates, or only `modified_date` when
 * the kind takes `created_date` from the client (`G` true).
 */
export type CommonComputed<G extends boolean> = G extends true
  ? typeof ALWAYS_COMPUTED_FIELDS
  : typeof COMMON_COMPUTED_FIELDS;

/** The writable `created_date` of a kind that takes it from the client (`G` true). */
export type GivenCreatedDate<G extends boolean> = G extends true
  ? { created_date: z.ZodMiniOptional<z.ZodMiniNullable<z.ZodMiniType<string, string | Date>>> }
  : Record<never, never>;

/** How `resourceSchemas` treats the common fields. */
export interface ResourceOptions<G extends boolean = false> {
  /**
   * `created_date` is the record's own date, which a client may give (a donation
   * imported with the date it was made): a writable field (`givenCreatedDate`)
   * rather than a read-only one. Default false.
   */
  clientCreatedDate?: G;
}

/**
 * Builds a resource's schemas from one definition: `shape(mode)` gives the writable
 * fields, `computedFields` the read-only ones (totals and the like). The read schema is
 * loose (unknown members kept) with every field; the write and strict schemas are
 * closed to unknown plain members (vendor members pass) and accept the read-only fields
 * only to ignore them. The server's schemas (`server('strict')`, `server('extended')`)
 * are built when asked for: only the reference server needs them. With
 * `clientCreatedDate`, `created_date` is a writable field, not a read-only one.
 *
 * @example
 * ```ts
 * import { commonFields, integer, optional, resourceSchemas } from './fields.js';
 * import * as z from 'zod/mini';
 *
 * const petition = resourceSchemas(
 *   (mode) => ({ ...commonFields(mode), title: optional(z.string()) }),
 *   { total_signatures: optional(integer('read')) },
 * );
 * petition.read.parse({ title: 'Save the park', total_signatures: '12' }).total_signatures; // 12
 * petition.readOnly; // ['created_date', 'modified_date', 'total_signatures', '_links', '_embedded']
 * resourceSchemas(commonFields, {}, { clientCreatedDate: true }).readOnly; // ['modified_date', '_links', '_embedded']
 * ```
 */
export function resourceSchemas<
  S extends z.core.$ZodShape,
  C extends z.core.$ZodShape = Record<never, never>,
  G extends boolean = false,
>(shape: (mode: Mode) => S, computedFields: C = {} as C, options: ResourceOptions<G> = {}) {
  const given = options.clientCreatedDate === true;
  const computed = {
    ...(given ? ALWAYS_COMPUTED_FIELDS : COMMON_COMPUTED_FIELDS),
    ...computedFields,
  } as CommonComputed<G> & C;
  const fields = (mode: Mode) =>
    ({
      ...shape(mode),
      ...(given ? { created_date: optional(givenCreatedDate(mode)) } : {}),
    }) as S & GivenCreatedDate<G>;
  const read = openObject({ ...fields('read'), ...computed, ...halMembers() });
  const closed = (mode: Mode) =>
    closedObject({ ...fields(mode), ...ignoredOnWrite(computed), ...halMembers() });
  const write = closed('write');
  const readOnly = [...Object.keys(computed), '_links', '_embedded'];
  return {
    read,
    write,
    server: closed,
    readOnly,
  } satisfies ResourceSchemas<typeof read, typeof write>;
}

/**
 * HAL members a written document may carry: `_links` (for example `std:person` when
 * creating a signature) and `_embedded`, which a server ignores on write.
 */
export function halMembers() {
  return {
    _links: optional(z.record(z.string(), z.unknown())),
    _embedded: optional(z.record(z.string(), z.unknown())),
  };
}

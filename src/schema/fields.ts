import * as z from 'zod/mini';

/**
 * Which side of the wire a schema serves.
 *
 * One field definition builds two schemas: `read` is what the SDK accepts from any
 * server (liberal: unknown members kept, enums open, variant spellings and types
 * coerced), `write` is what a compliant client sends and what the reference server
 * accepts (strict: closed enums, ISO formats, unknown members refused). Building both
 * from one definition is what keeps the SDK and the server from drifting apart.
 */
export type Mode = 'read' | 'write';

/**
 * A string that is one of `values` or, because the spec calls it a flexenum, any other
 * string. The type keeps the known values for editor completion.
 *
 * @example
 * ```ts
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
 * A closed enum on write, an open one on read: a server in the wild that sends
 * `female` instead of `Female` must not make a whole page of people unreadable. Typed
 * the same way: what a client sends is one of `values` (editors complete them, and a
 * value outside them does not type-check), what it reads may be any string.
 *
 * @example
 * ```ts
 * enumeration(['Female', 'Male', 'Other'], 'write').parse('Female');
 * ```
 */
export function enumeration<const T extends readonly [string, ...string[]]>(
  values: T,
  mode: Mode,
): z.ZodMiniType<T[number] | (string & {}), T[number]> {
  return mode === 'write' ? z.enum(values) : (flexenum(values) as z.ZodMiniType<string, T[number]>);
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
 *
 * @example
 * ```ts
 * preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string());
 * ```
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
 * bool('read').parse('true'); // true
 * ```
 */
export function bool(mode: Mode): z.ZodMiniType<boolean, boolean> {
  if (mode === 'write') return z.boolean();
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
 * as strings.
 *
 * @example
 * ```ts
 * integer('read').parse('12'); // 12
 * ```
 */
export function integer(mode: Mode): z.ZodMiniType<number, number> {
  if (mode === 'write') return z.number().check(z.int());
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
 * float('read').parse('10.50'); // 10.5
 * ```
 */
export function float(mode: Mode): z.ZodMiniType<number, number> {
  if (mode === 'write') return z.number();
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
 * An ISO 8601 date-time. Strict with an offset on write; any string on read, because
 * servers in the wild send `2026-01-01 10:00:00` and similar.
 *
 * @example
 * ```ts
 * datetime('write').parse('2026-01-01T10:00:00Z');
 * ```
 */
export function datetime(mode: Mode): z.ZodMiniType<string, string> {
  return mode === 'write' ? z.iso.datetime({ offset: true }) : z.string();
}

/**
 * An ISO 8601 calendar date (`YYYY-MM-DD`).
 *
 * @example
 * ```ts
 * date('write').parse('2026-05-01');
 * ```
 */
export function date(mode: Mode): z.ZodMiniType<string, string> {
  return mode === 'write' ? z.iso.date() : z.string();
}

/**
 * A string matching `pattern` on write (ISO codes and the like), any string on read.
 *
 * @example
 * ```ts
 * code(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 country code', 'write').parse('US');
 * ```
 */
export function code(pattern: RegExp, what: string, mode: Mode): z.ZodMiniType<string, string> {
  return mode === 'write' ? z.string().check(z.regex(pattern, `must be an ${what}`)) : z.string();
}

/**
 * An array whose members must be unique on write (identifiers, ethnicities, languages).
 *
 * @example
 * ```ts
 * uniqueStrings('write').parse(['en', 'es']);
 * ```
 */
export function uniqueStrings(mode: Mode, item: z.ZodMiniType<string, string> = z.string()) {
  const list = z.array(item);
  if (mode === 'read') return list;
  return list.check(
    z.refine((values) => new Set(values).size === values.length, {
      message: 'must not contain the same value twice',
    }),
  );
}

/**
 * An object of `shape`: loose on read (unknown members are kept, so nothing a server
 * sends is lost), strict on write (an unknown member is almost always a typo, and
 * silently dropping it would lose data).
 *
 * @example
 * ```ts
 * const profile = object({ provider: optional(z.string()) }, 'read');
 * ```
 */
export function object<S extends z.core.$ZodShape>(shape: S, mode: Mode) {
  return mode === 'write' ? z.strictObject(shape) : z.looseObject(shape);
}

/**
 * An optional member that may also be `null`: `null` is how a PUT clears a field, and
 * some servers send `null` for "unset".
 *
 * @example
 * ```ts
 * const shape = { title: optional(z.string()) };
 * ```
 */
export function optional<T extends z.core.SomeType>(schema: T) {
  return z.nullish(schema);
}

/** Identifier of the form `<system name>:<id>`, as the spec's common fields define it. */
export const IDENTIFIER_PATTERN = /^[^:\s]+:\S.*$/;

/**
 * The writable field every resource has: `identifiers`. The read-only common fields
 * (`created_date`, `modified_date`) are added by `resourceSchemas`.
 *
 * @example
 * ```ts
 * const shape = { ...commonFields('write'), name: optional(z.string()) };
 * ```
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
 * send dates without an offset.
 */
export const COMMON_COMPUTED_FIELDS = {
  created_date: optional(z.string()),
  modified_date: optional(z.string()),
};

const triggerRead = z.looseObject({
  enabled: optional(bool('read')),
  identifiers: optional(z.array(z.string())),
});

/**
 * The `triggers` a helper call asked for (autoresponse, SMS, call), which a server
 * records on the record the helper created: read-only, so a record read back and PUT
 * again is not refused for carrying them. Used by the records helpers create (signature,
 * outreach, attendance, donation, submission, canvass) and the person (signup helper).
 *
 * @example
 * ```ts
 * const schemas = resourceSchemas(signatureShape, HELPER_COMPUTED_FIELDS);
 * ```
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
 * import { type Ignored, PetitionWriteSchema } from 'adis-sdk';
 * const totalSignatures: Ignored = PetitionWriteSchema.shape.total_signatures;
 * ```
 */
export type Ignored = z.ZodMiniOptional<z.ZodMiniNullable<z.ZodMiniUnknown>>;

/**
 * The same members accepted as anything: a read-only field that a client sends back
 * (for example after `update(resource.data)`) is not an error; the server ignores it.
 *
 * @example
 * ```ts
 * ignoredOnWrite({ total_signatures: optional(integer('read')) }); // { total_signatures: unknown }
 * ```
 */
export function ignoredOnWrite<S extends z.core.$ZodShape>(shape: S): { [K in keyof S]: Ignored } {
  const out: Record<string, Ignored> = {};
  for (const key of Object.keys(shape)) out[key] = optional(z.unknown());
  return out as { [K in keyof S]: Ignored };
}

/**
 * The read and write schemas of one resource kind, built from one definition, and the
 * names of its read-only members.
 */
export interface ResourceSchemas<R extends z.ZodMiniType, W extends z.ZodMiniType> {
  /** Lenient: what the SDK accepts from any server. */
  read: R;
  /** Strict: what a client sends and the reference server accepts. */
  write: W;
  /** Members the server computes or owns: ignored on create and update. */
  readOnly: readonly string[];
}

/**
 * Builds a resource's two schemas from one definition: `shape(mode)` gives the
 * writable fields, `computedFields` the read-only ones (totals and the like). The
 * read schema is loose (unknown members kept) with every field; the write schema is
 * strict, and accepts the read-only fields only to ignore them.
 *
 * @example
 * ```ts
 * const petition = resourceSchemas(
 *   (mode) => ({ ...commonFields(mode), title: optional(z.string()) }),
 *   { total_signatures: optional(integer('read')) },
 * );
 * petition.read.parse({ title: 'Save the park', total_signatures: '12' }).total_signatures; // 12
 * petition.readOnly; // ['created_date', 'modified_date', 'total_signatures', '_links', '_embedded']
 * ```
 */
export function resourceSchemas<
  S extends z.core.$ZodShape,
  C extends z.core.$ZodShape = Record<never, never>,
>(shape: (mode: Mode) => S, computedFields: C = {} as C) {
  const computed = { ...COMMON_COMPUTED_FIELDS, ...computedFields };
  const read = z.looseObject({ ...shape('read'), ...computed, ...halMembers() });
  const write = z.strictObject({
    ...shape('write'),
    ...ignoredOnWrite(computed),
    ...halMembers(),
  });
  const readOnly = [...Object.keys(computed), '_links', '_embedded'];
  return { read, write, readOnly } satisfies ResourceSchemas<typeof read, typeof write>;
}

/**
 * HAL members a written document may carry: `_links` (for example `std:person` when
 * creating a signature) and `_embedded`, which a server ignores on write.
 *
 * @example
 * ```ts
 * const shape = { ...halMembers(), name: optional(z.string()) };
 * ```
 */
export function halMembers() {
  return {
    _links: optional(z.record(z.string(), z.unknown())),
    _embedded: optional(z.record(z.string(), z.unknown())),
  };
}

/**
 * A typed builder for the `filter` query parameter of collections, the OData-style
 * syntax servers in the wild use (`modified_date gt '2026-01-01T00:00:00Z'`). Building
 * the string here means callers never quote, escape or format a date by hand, which is
 * where hand-written filters go wrong. The grammar is in docs/filtering.md.
 */

/**
 * Field names the reference server filters on: `created_date` and `modified_date` on
 * every collection, `email_address` on people.
 */
export type KnownFilterField = 'created_date' | 'modified_date' | 'email_address';

/**
 * A field name: one of {@link KnownFilterField} (offered by autocompletion) or any other
 * name a server supports. (`string & {}` rather than `string`, which would absorb the
 * known names and lose their autocompletion.)
 */
export type FilterFieldName = KnownFilterField | (string & {});

/**
 * A comparison operator: equal, not equal, greater than, greater or equal, less than,
 * less or equal.
 */
export type FilterOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

/**
 * A value to compare with: a `Date` (written as `toISOString()`) or a string (written
 * as given, quoted).
 */
export type FilterValue = string | Date;

/**
 * One condition of a {@link Filter}, with its value already in string form (a Date
 * converted, quotes not yet escaped).
 */
export interface FilterCondition {
  /** The field compared. */
  readonly field: FilterFieldName;
  /** The comparison operator. */
  readonly op: FilterOperator;
  /** The value compared with, in string form. */
  readonly value: string;
}

const OPERATORS: readonly string[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

/**
 * A field name the syntax can carry unquoted: a letter or underscore, then letters,
 * digits and `_ . : / -` (enough for `modified_date`, `osdi:modified_date`,
 * `address/locality`). Whitespace, quotes or parentheses would change the expression.
 */
const FIELD_NAME = /^[A-Za-z_][\w.:/-]*$/;

function checkFieldName(name: string): void {
  if (typeof name !== 'string' || !FIELD_NAME.test(name)) {
    throw new TypeError(
      `Invalid filter field name ${JSON.stringify(name)}: use letters, digits and _ . : / - only`,
    );
  }
}

/** Writes a value as a string literal: in single quotes, a quote inside doubled. */
function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * A filter: one or more conditions that must all hold. Immutable; {@link Filter.and}
 * returns a new filter. Pass it to `Collection.filter`, or use {@link Filter.toString}
 * as the value of a `filter` query parameter.
 *
 * @example
 * ```ts
 * import { field } from 'adis-sdk';
 *
 * const recent = field('modified_date').gt(new Date('2026-01-01T00:00:00Z'));
 * const filter = recent.and(field('email_address').eq('ana@example.org'));
 * for await (const person of client.people.filter(filter)) console.log(person.url);
 * ```
 */
export class Filter {
  /** The conditions, in the order they are written. */
  readonly conditions: readonly FilterCondition[];

  /**
   * Usually built with {@link field}; the constructor checks what it is given, so a
   * filter can also be assembled from conditions kept elsewhere.
   *
   * @throws TypeError when there are no conditions, or one has an invalid field name or
   * operator.
   */
  constructor(conditions: readonly FilterCondition[]) {
    if (conditions.length === 0) throw new TypeError('A filter needs at least one condition');
    for (const condition of conditions) {
      checkFieldName(condition.field);
      if (!OPERATORS.includes(condition.op)) {
        throw new TypeError(
          `Invalid filter operator ${JSON.stringify(condition.op)}: use one of ${OPERATORS.join(', ')}`,
        );
      }
      if (typeof condition.value !== 'string') {
        throw new TypeError(`Invalid filter value for ${condition.field}: expected a string`);
      }
    }
    // Copied and frozen, so changing the caller's array later cannot change the filter.
    this.conditions = Object.freeze(conditions.map((c) => Object.freeze({ ...c })));
  }

  /**
   * A filter that holds where both this one and `other` hold: their conditions joined
   * with `and`.
   */
  and(other: Filter): Filter {
    return new Filter([...this.conditions, ...other.conditions]);
  }

  /**
   * The expression for the `filter` query parameter (not URL-encoded; `URL` and
   * `Collection.filter` encode it).
   *
   * @example
   * ```ts
   * import { field } from 'adis-sdk';
   *
   * field('email_address').eq("o'brien@example.org").toString();
   * // "email_address eq 'o''brien@example.org'"
   * ```
   */
  toString(): string {
    return this.conditions.map((c) => `${c.field} ${c.op} ${quote(c.value)}`).join(' and ');
  }

  /**
   * The same string as {@link Filter.toString}, so a filter logs and serialises as the
   * expression it stands for.
   *
   * @example
   * ```ts
   * import { modifiedSince } from 'adis-sdk';
   *
   * JSON.stringify({ filter: modifiedSince('2026-01-01T00:00:00Z') });
   * // '{"filter":"modified_date gt \'2026-01-01T00:00:00Z\'"}'
   * ```
   */
  toJSON(): string {
    return this.toString();
  }
}

/**
 * A field to compare, from {@link field}. Each method returns a one-condition
 * {@link Filter}. A `Date` is written as `toISOString()`; a string is written as given.
 *
 * @example
 * ```ts
 * import { field } from 'adis-sdk';
 *
 * const modified = field('modified_date');
 * const window = modified.ge('2026-01-01T00:00:00Z').and(modified.lt('2026-02-01T00:00:00Z'));
 * ```
 */
export class FilterField {
  /** The field name, as written in the expression. */
  readonly name: FilterFieldName;

  /**
   * Prefer {@link field}.
   *
   * @throws TypeError when the name has characters the syntax cannot carry.
   */
  constructor(name: FilterFieldName) {
    checkFieldName(name);
    this.name = name;
  }

  /** Equal to `value`. */
  eq(value: FilterValue): Filter {
    return this.#compare('eq', value);
  }

  /** Not equal to `value`. */
  ne(value: FilterValue): Filter {
    return this.#compare('ne', value);
  }

  /** Greater than (for dates: strictly after) `value`. */
  gt(value: FilterValue): Filter {
    return this.#compare('gt', value);
  }

  /** Greater than or equal to (for dates: at or after) `value`. */
  ge(value: FilterValue): Filter {
    return this.#compare('ge', value);
  }

  /** Less than (for dates: strictly before) `value`. */
  lt(value: FilterValue): Filter {
    return this.#compare('lt', value);
  }

  /** Less than or equal to (for dates: at or before) `value`. */
  le(value: FilterValue): Filter {
    return this.#compare('le', value);
  }

  #compare(op: FilterOperator, value: FilterValue): Filter {
    return new Filter([{ field: this.name, op, value: literal(this.name, op, value) }]);
  }
}

/**
 * A value in string form. An invalid Date fails here, where the mistake was made,
 * rather than as a 400 from the server (or, worse, `'Invalid Date'` in a URL).
 */
function literal(name: FilterFieldName, op: FilterOperator, value: FilterValue): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw new TypeError(`Invalid Date given for filter ${name} ${op}`);
    }
    return value.toISOString();
  }
  if (typeof value !== 'string') {
    throw new TypeError(`Filter ${name} ${op} needs a string or a Date, got ${typeof value}`);
  }
  return value;
}

/**
 * Starts a condition on a field. Known names are offered by autocompletion; any other
 * name a server supports is accepted too.
 *
 * @throws TypeError when the name has characters the syntax cannot carry (spaces,
 * quotes, parentheses).
 *
 * @example
 * ```ts
 * import { field } from 'adis-sdk';
 *
 * const since = field('modified_date').gt(new Date('2026-01-01T00:00:00Z'));
 * const both = since.and(field('created_date').lt('2026-06-01T00:00:00Z'));
 * both.toString();
 * // "modified_date gt '2026-01-01T00:00:00.000Z' and created_date lt '2026-06-01T00:00:00Z'"
 * ```
 */
export function field(name: FilterFieldName): FilterField {
  return new FilterField(name);
}

/**
 * Records modified after `date`: `field('modified_date').gt(date)`, the query of an
 * incremental sync (see docs/filtering.md).
 *
 * @throws TypeError when `date` is an invalid Date.
 *
 * @example
 * ```ts
 * import { modifiedSince } from 'adis-sdk';
 *
 * const lastSync = new Date('2026-01-01T00:00:00Z');
 * for await (const person of client.people.filter(modifiedSince(lastSync))) console.log(person.url);
 * ```
 */
export function modifiedSince(date: FilterValue): Filter {
  return field('modified_date').gt(date);
}

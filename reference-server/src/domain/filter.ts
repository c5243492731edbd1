/**
 * The `filter` query parameter of collections: a small OData-style expression such as
 * `modified_date gt '2026-01-01T00:00:00Z' and email_address eq 'ana@example.org'`.
 *
 * The specification leaves filtering open; this is the syntax servers in the wild use
 * for incremental sync, cut down to what storage can answer from its indexes: record
 * timestamps and lookup keys, compared with one operator, joined by `and`. Anything
 * outside that (`or`, `not`, parentheses, functions, unknown fields) is a 400 naming
 * the problem and its position, because silently ignoring part of a filter would hand a
 * client more records than it asked for and it could not tell.
 *
 * A hand-written tokenizer and recursive-descent parser keep the error messages precise
 * (each one says what was expected, what was found and where) with no dependency.
 */
import type { DateFilter, RecordFilter } from '../storage/storage.js';
import { ApiError, ErrorCode } from './errors.js';
import { normaliseEmail } from './person.js';

/**
 * The filter grammar on one line: the hint of every INVALID_FILTER error and the
 * summary in the docs.
 */
export const FILTER_GRAMMAR =
  "<field> <op> '<value>' [and <field> <op> '<value>']...; op: eq ne gt ge lt le " +
  "(dates), eq (email_address); dates ISO 8601 with Z or an offset; write ' inside a value as ''";

/** Most conditions one filter may join: keeps the SQL a filter becomes small. */
export const MAX_FILTER_CONDITIONS = 16;

/**
 * What a collection lets clients filter on.
 *
 * @example
 * ```ts
 * import type { FilterFields } from './filter.js';
 *
 * // People: timestamps, and `email_address` matched against the lookup key `email`.
 * const people: FilterFields = { dates: true, keys: { email_address: 'email' } };
 * ```
 */
export interface FilterFields {
  /** `created_date` and `modified_date` may be compared (true for every collection). */
  dates: boolean;
  /**
   * Fields matched against a lookup key of the record, by equality only: filter field
   * name → lookup key name (the `name` of a stored `LookupKey`). A value is normalised
   * as the kind normalises that key when storing it (see {@link normaliseKeyValue}).
   */
  keys?: Readonly<Record<string, string>>;
}

/**
 * Filterable fields of every collection: the record timestamps.
 */
export const DATE_FILTER_FIELDS: FilterFields = Object.freeze({ dates: true });

/**
 * Filterable fields of the people collection: the timestamps and `email_address`.
 *
 * @example
 * ```ts
 * import { PERSON_FILTER_FIELDS, parseFilter } from './filter.js';
 *
 * parseFilter("email_address eq 'ana@example.org'", PERSON_FILTER_FIELDS, 'std:people');
 * // [{ key: 'email', value: 'ana@example.org' }]
 * ```
 */
export const PERSON_FILTER_FIELDS: FilterFields = Object.freeze({
  dates: true,
  keys: Object.freeze({ email_address: 'email' }),
});

const DATE_COLUMNS = ['created_date', 'modified_date'] as const;
const OPERATORS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const;
type Operator = (typeof OPERATORS)[number];

/**
 * How each lookup key's values are stored, so a filter value compares equal to them.
 * Keys not listed are compared as written.
 */
const KEY_NORMALISERS: Readonly<Record<string, (value: string) => string>> = {
  email: normaliseEmail,
};

/**
 * A filter value in the form a lookup key is stored in: an email address trimmed and
 * lower-cased, any other key as written.
 */
export function normaliseKeyValue(key: string, value: string): string {
  const normalise = KEY_NORMALISERS[key];
  return normalise ? normalise(value) : value;
}

/** A lexical token with its 0-based character offset in the expression. */
type Token =
  | { type: 'word'; text: string; position: number }
  | { type: 'string'; value: string; text: string; position: number }
  | { type: 'paren'; text: '(' | ')'; position: number }
  /** A quote never closed: an error, raised only when the parser reaches it. */
  | { type: 'unterminated'; position: number };

/** A token the parser works with: an unterminated string has already been reported. */
type ParsedToken = Exclude<Token, { type: 'unterminated' }>;

/** Longest piece of the client's expression quoted back in an error. */
const MAX_ECHO = 40;

function echo(text: string): string {
  const short = text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
  return `'${short}'`;
}

function isSpace(char: string): boolean {
  return /\s/.test(char);
}

/** Builds the error every problem becomes; the grammar goes in the hint. */
function invalid(description: string, resource: string): ApiError {
  return new ApiError(
    400,
    [
      {
        error_code: ErrorCode.INVALID_FILTER,
        description,
        properties: ['filter'],
        hint: FILTER_GRAMMAR,
      },
    ],
    resource,
  );
}

/**
 * Splits an expression into words, quoted strings and parentheses. A word is any run of
 * characters other than whitespace, quotes and parentheses, so an unsupported operator
 * or function name still arrives at the parser whole and can be named in the error. An
 * unclosed quote becomes a token rather than an error, so that errors are reported in
 * reading order: in `email_address eq 'O'Brien'` the problem is at `Brien`, not at the
 * last quote.
 */
function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const char = expression.charAt(i);
    if (isSpace(char)) {
      i += 1;
    } else if (char === '(' || char === ')') {
      tokens.push({ type: 'paren', text: char, position: i });
      i += 1;
    } else if (char === "'") {
      const start = i;
      let value = '';
      i += 1;
      let closed = false;
      while (i < expression.length) {
        const c = expression.charAt(i);
        if (c === "'") {
          if (expression.charAt(i + 1) === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i += 1;
          closed = true;
          break;
        }
        value += c;
        i += 1;
      }
      tokens.push(
        closed
          ? { type: 'string', value, text: expression.slice(start, i), position: start }
          : { type: 'unterminated', position: start },
      );
    } else {
      const start = i;
      while (i < expression.length) {
        const c = expression.charAt(i);
        if (isSpace(c) || c === "'" || c === '(' || c === ')') break;
        i += 1;
      }
      tokens.push({ type: 'word', text: expression.slice(start, i), position: start });
    }
  }
  return tokens;
}

/**
 * How a token is named in an error: its text and position, or where the filter ends
 * (`end` is the expression's length).
 */
function describe(token: ParsedToken | undefined, end: number): string {
  if (token === undefined) return `end of filter at position ${end}`;
  if (token.type === 'string') {
    const text = token.text.length > MAX_ECHO ? `${token.text.slice(0, MAX_ECHO)}…` : token.text;
    return `quoted value ${text} at position ${token.position}`;
  }
  return `${echo(token.text)} at position ${token.position}`;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?))?$/;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/**
 * Parses an ISO 8601 date-time with `Z` or an offset (`+02:00`, `+0200`, `+02`), or a
 * plain date meaning midnight UTC, into `toISOString` form; null when it is not one.
 * Components are range-checked here because `Date` silently rolls `02-30` over to
 * March. Digits beyond milliseconds are dropped, as stored dates have none.
 */
function parseInstant(text: string): string | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (h === undefined) return new Date(`${y}-${mo}-${d}T00:00:00.000Z`).toISOString();
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? '0') > 59) return null;
  let offset = 'Z';
  if (zone !== undefined && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const offsetHours = digits.slice(0, 2);
    const offsetMinutes = digits.slice(2) || '00';
    if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return null;
    offset = `${zone.charAt(0)}${offsetHours}:${offsetMinutes}`;
  }
  const millis = (fraction ?? '').slice(0, 3).padEnd(3, '0');
  const instant = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}.${millis}${offset}`);
  return Number.isNaN(instant.getTime()) ? null : instant.toISOString();
}

function isDateColumn(name: string): name is DateFilter['column'] {
  return (DATE_COLUMNS as readonly string[]).includes(name);
}

/** What a field name refers to: a timestamp column, or a lookup key. */
type Target = { column: DateFilter['column'] } | { key: string };

function resolveField(name: string, fields: FilterFields): Target | undefined {
  if (fields.dates && isDateColumn(name)) return { column: name };
  const key = fields.keys && Object.hasOwn(fields.keys, name) ? fields.keys[name] : undefined;
  return key === undefined ? undefined : { key };
}

function isOperator(word: string): word is Operator {
  return (OPERATORS as readonly string[]).includes(word);
}

/**
 * Parses a `filter` query parameter into the conditions storage applies, all of which
 * must hold. Keywords (`and`, the operators) are case-insensitive; field names are not.
 * Dates are normalised to `toISOString` form, lookup-key values as the key is stored
 * (emails trimmed and lower-cased). Anything the grammar or the collection does not
 * support throws a 400 `INVALID_FILTER` saying what is wrong and at which 0-based
 * position, with the grammar ({@link FILTER_GRAMMAR}) as hint.
 *
 * @param expression The parameter's value, URL-decoded.
 * @param fields What this collection allows.
 * @param resource The resource named in the error, for example `std:people`.
 *
 * @example
 * ```ts
 * import { PERSON_FILTER_FIELDS, parseFilter } from './filter.js';
 *
 * parseFilter("modified_date gt '2026-01-01T02:00:00+02:00' AND email_address eq 'Ana@X.org'",
 *   PERSON_FILTER_FIELDS, 'std:people');
 * // [{ column: 'modified_date', op: 'gt', value: '2026-01-01T00:00:00.000Z' },
 * //  { key: 'email', value: 'ana@x.org' }]
 * ```
 */
export function parseFilter(
  expression: string,
  fields: FilterFields,
  resource = 'request',
): RecordFilter[] {
  const tokens = tokenize(expression);
  if (tokens.length === 0) {
    throw invalid(
      "filter is empty; give at least one condition, such as modified_date gt '2026-01-01T00:00:00Z'",
      resource,
    );
  }

  const filterable = [...(fields.dates ? DATE_COLUMNS : []), ...Object.keys(fields.keys ?? {})];
  const filters: RecordFilter[] = [];
  let index = 0;
  const next = (): ParsedToken | undefined => {
    const token = tokens[index++];
    if (token?.type === 'unterminated') {
      throw invalid(
        `unterminated string starting at position ${token.position}: no closing quote (write ' inside a value as '')`,
        resource,
      );
    }
    return token;
  };

  /**
   * Rejects, with a dedicated message, what is never supported wherever it appears.
   * Called on the token just taken with `next()`, so `tokens[index]` follows it.
   */
  const rejectUnsupported = (token: ParsedToken | undefined): void => {
    if (token === undefined) return;
    if (token.type === 'paren') {
      throw invalid(
        `parentheses are not supported: '${token.text}' at position ${token.position}`,
        resource,
      );
    }
    if (token.type !== 'word') return;
    const after = tokens[index];
    if (
      after?.type === 'paren' &&
      after.text === '(' &&
      after.position === token.position + token.text.length
    ) {
      throw invalid(
        `functions are not supported: ${echo(`${token.text}(`)} at position ${token.position}`,
        resource,
      );
    }
    const keyword = token.text.toLowerCase();
    if (keyword === 'or' || keyword === 'not') {
      throw invalid(
        `'${keyword}' is not supported at position ${token.position}; only 'and' joins conditions`,
        resource,
      );
    }
  };

  const parseCondition = (after: string): void => {
    const fieldToken = next();
    rejectUnsupported(fieldToken);
    if (fieldToken?.type !== 'word') {
      throw invalid(
        `expected a field name ${after}, found ${describe(fieldToken, expression.length)}`,
        resource,
      );
    }
    const name = fieldToken.text;
    const target = resolveField(name, fields);
    if (target === undefined) {
      const casing = filterable.includes(name.toLowerCase()) ? ' (field names are lower case)' : '';
      throw invalid(
        `unknown field ${echo(name)} at position ${fieldToken.position}${casing}; filterable: ${filterable.join(', ') || 'none'}`,
        resource,
      );
    }

    const opToken = next();
    rejectUnsupported(opToken);
    if (opToken?.type !== 'word') {
      throw invalid(
        `expected an operator after '${name}', found ${describe(opToken, expression.length)}`,
        resource,
      );
    }
    const op = opToken.text.toLowerCase();
    if (!isOperator(op)) {
      throw invalid(
        `unsupported operator ${echo(opToken.text)} at position ${opToken.position}; use one of ${OPERATORS.join(', ')}`,
        resource,
      );
    }
    if ('key' in target && op !== 'eq') {
      throw invalid(
        `operator '${op}' is not supported for ${name} at position ${opToken.position}; use eq`,
        resource,
      );
    }

    const valueToken = next();
    if (valueToken?.type !== 'string') {
      rejectUnsupported(valueToken);
      const quoted = valueToken?.type === 'word' ? ` (quote it: ${echo(valueToken.text)})` : '';
      throw invalid(
        `expected a quoted value after '${opToken.text}', found ${describe(valueToken, expression.length)}${quoted}`,
        resource,
      );
    }

    if ('key' in target) {
      const value = normaliseKeyValue(target.key, valueToken.value);
      if (value.trim() === '') {
        throw invalid(`empty value for ${name} at position ${valueToken.position}`, resource);
      }
      filters.push({ key: target.key, value });
      return;
    }
    const instant = parseInstant(valueToken.value);
    if (instant === null) {
      throw invalid(
        `invalid date ${echo(valueToken.value)} for ${name} at position ${valueToken.position}; use an ISO 8601 date-time with Z or an offset, such as '2026-01-01T00:00:00Z'`,
        resource,
      );
    }
    filters.push({ column: target.column, op, value: instant });
  };

  parseCondition('at start of filter');
  for (;;) {
    const joiner = next();
    if (joiner === undefined) break;
    rejectUnsupported(joiner);
    // Text glued to the end of a value is most often the rest of a value whose inner
    // quote was not doubled (`'O'Brien'`), so it is an error even when it reads `and`.
    const value = tokens[index - 2];
    if (value?.type === 'string' && joiner.position === value.position + value.text.length) {
      throw invalid(
        `unexpected ${describe(joiner, expression.length)} directly after a value; expected whitespace and 'and', or end of filter (write a quote inside a value as '')`,
        resource,
      );
    }
    if (joiner.type !== 'word' || joiner.text.toLowerCase() !== 'and') {
      throw invalid(
        `unexpected ${describe(joiner, expression.length)}; expected 'and' or end of filter`,
        resource,
      );
    }
    if (filters.length >= MAX_FILTER_CONDITIONS) {
      throw invalid(
        `too many conditions: at most ${MAX_FILTER_CONDITIONS} may be joined with 'and'`,
        resource,
      );
    }
    parseCondition(`after 'and' at position ${joiner.position}`);
  }
  return filters;
}

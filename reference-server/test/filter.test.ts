import { describe, expect, it } from 'vitest';
import { ApiError, ErrorCode, errorBody } from '../src/domain/errors.js';
import {
  DATE_FILTER_FIELDS,
  FILTER_GRAMMAR,
  type FilterFields,
  MAX_FILTER_CONDITIONS,
  normaliseKeyValue,
  PERSON_FILTER_FIELDS,
  parseFilter,
} from '../src/domain/filter.js';

const people = PERSON_FILTER_FIELDS;
const JAN = '2026-01-01T00:00:00.000Z';

/** Runs the parser and returns the one error description it throws. */
function failure(expression: string, fields: FilterFields = people, resource = 'std:people') {
  try {
    parseFilter(expression, fields, resource);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.resource).toBe(resource);
    expect(apiError.errors).toHaveLength(1);
    const [entry] = apiError.errors;
    expect(entry).toMatchObject({
      error_code: ErrorCode.INVALID_FILTER,
      properties: ['filter'],
      hint: FILTER_GRAMMAR,
    });
    return entry!.description;
  }
  throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
}

describe('parseFilter: conditions', () => {
  it.each(['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const)('compares dates with %s', (op) => {
    expect(parseFilter(`modified_date ${op} '2026-01-01T00:00:00Z'`, people)).toEqual([
      { column: 'modified_date', op, value: JAN },
    ]);
    expect(parseFilter(`created_date ${op} '2026-01-01T00:00:00Z'`, DATE_FILTER_FIELDS)).toEqual([
      { column: 'created_date', op, value: JAN },
    ]);
  });

  it('matches email_address against the lookup key email', () => {
    expect(parseFilter("email_address eq 'ana@example.org'", people)).toEqual([
      { key: 'email', value: 'ana@example.org' },
    ]);
  });

  it('joins conditions with and, in order', () => {
    const expression =
      "modified_date ge '2026-01-01T00:00:00Z' and modified_date lt '2026-02-01T00:00:00Z'" +
      " and email_address eq 'ana@example.org' and created_date gt '2025-01-01T00:00:00Z'";
    expect(parseFilter(expression, people)).toEqual([
      { column: 'modified_date', op: 'ge', value: JAN },
      { column: 'modified_date', op: 'lt', value: '2026-02-01T00:00:00.000Z' },
      { key: 'email', value: 'ana@example.org' },
      { column: 'created_date', op: 'gt', value: '2025-01-01T00:00:00.000Z' },
    ]);
  });

  it('reads keywords in any case, field names as written', () => {
    expect(
      parseFilter(
        "modified_date GT '2026-01-01T00:00:00Z' AND email_address Eq 'a@x.org' aNd created_date lE '2026-01-01T00:00:00Z'",
        people,
      ),
    ).toEqual([
      { column: 'modified_date', op: 'gt', value: JAN },
      { key: 'email', value: 'a@x.org' },
      { column: 'created_date', op: 'le', value: JAN },
    ]);
  });

  it('accepts any whitespace between tokens, and none before a quote', () => {
    expect(parseFilter("  modified_date\tgt\n'2026-01-01T00:00:00Z'  ", people)).toEqual([
      { column: 'modified_date', op: 'gt', value: JAN },
    ]);
    expect(parseFilter("modified_date gt'2026-01-01T00:00:00Z'", people)).toEqual([
      { column: 'modified_date', op: 'gt', value: JAN },
    ]);
  });

  it("reads a doubled quote as one quote ('O''Brien')", () => {
    expect(parseFilter("email_address eq 'o''brien@example.org'", people)).toEqual([
      { key: 'email', value: "o'brien@example.org" },
    ]);
    expect(parseFilter("email_address eq '''a''''b'''", people)).toEqual([
      { key: 'email', value: "'a''b'" },
    ]);
  });

  it('keeps keywords and parentheses inside quotes as text', () => {
    expect(parseFilter("email_address eq 'x and (y or z)@example.org'", people)).toEqual([
      { key: 'email', value: 'x and (y or z)@example.org' },
    ]);
  });
});

describe('parseFilter: normalisation', () => {
  it.each([
    ['2026-01-01T00:00:00Z', JAN],
    ['2026-01-01T00:00Z', JAN],
    ['2026-01-01T00:00:00.5Z', '2026-01-01T00:00:00.500Z'],
    ['2026-01-01T00:00:00.123456Z', '2026-01-01T00:00:00.123Z'],
    ['2026-01-01T02:00:00+02:00', JAN],
    ['2026-01-01T02:00:00+0200', JAN],
    ['2026-01-01T02:00:00+02', JAN],
    ['2025-12-31T19:00:00-05:00', JAN],
    ['2026-01-01', JAN],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
  ])('writes %s as %s', (literal, stored) => {
    expect(parseFilter(`modified_date gt '${literal}'`, people)).toEqual([
      { column: 'modified_date', op: 'gt', value: stored },
    ]);
  });

  it('trims and lower-cases email addresses', () => {
    expect(parseFilter("email_address eq '  Ana@Example.ORG '", people)).toEqual([
      { key: 'email', value: 'ana@example.org' },
    ]);
    expect(normaliseKeyValue('email', ' A@B.org')).toBe('a@b.org');
    expect(normaliseKeyValue('phone', ' +1 555 ')).toBe(' +1 555 ');
  });

  it('uses the lookup key the collection maps a field to', () => {
    const fields: FilterFields = { dates: false, keys: { external_id: 'ext' } };
    expect(parseFilter("external_id eq ' X1 '", fields)).toEqual([{ key: 'ext', value: ' X1 ' }]);
    expect(failure("modified_date gt '2026-01-01T00:00:00Z'", fields)).toBe(
      "unknown field 'modified_date' at position 0; filterable: external_id",
    );
  });
});

describe('parseFilter: errors', () => {
  it('rejects an unknown field, listing the filterable ones', () => {
    expect(failure("name eq 'Ana'")).toBe(
      "unknown field 'name' at position 0; filterable: created_date, modified_date, email_address",
    );
    expect(failure("modified_date gt '2026-01-01' and given_name eq 'Ana'")).toBe(
      "unknown field 'given_name' at position 34; filterable: created_date, modified_date, email_address",
    );
    expect(failure("Modified_Date gt '2026-01-01'")).toBe(
      "unknown field 'Modified_Date' at position 0 (field names are lower case); filterable: created_date, modified_date, email_address",
    );
    expect(failure("__proto__ eq 'x'")).toMatch(/^unknown field '__proto__'/);
  });

  it('rejects email_address on a collection without it', () => {
    expect(failure("email_address eq 'ana@example.org'", DATE_FILTER_FIELDS, 'std:events')).toBe(
      "unknown field 'email_address' at position 0; filterable: created_date, modified_date",
    );
  });

  it('rejects operators other than eq for email_address', () => {
    for (const op of ['ne', 'gt', 'ge', 'lt', 'le']) {
      expect(failure(`email_address ${op} 'a@x.org'`)).toBe(
        `operator '${op}' is not supported for email_address at position 14; use eq`,
      );
    }
  });

  it('rejects unsupported operators', () => {
    expect(failure("modified_date contains 'x'")).toBe(
      "unsupported operator 'contains' at position 14; use one of eq, ne, gt, ge, lt, le",
    );
    expect(failure("modified_date > '2026-01-01'")).toBe(
      "unsupported operator '>' at position 14; use one of eq, ne, gt, ge, lt, le",
    );
    expect(failure("modified_date 'x'")).toBe(
      "expected an operator after 'modified_date', found quoted value 'x' at position 14",
    );
  });

  it('rejects a missing closing quote', () => {
    expect(failure("email_address eq 'ana@example.org")).toBe(
      "unterminated string starting at position 17: no closing quote (write ' inside a value as '')",
    );
    // Errors come in reading order: the unknown field before the unclosed quote.
    expect(failure("name eq 'ana")).toMatch(/^unknown field 'name' at position 0;/);
    expect(failure("email_address eq 'O'Brien@example.org'")).toBe(
      "unexpected 'Brien@example.org' at position 20 directly after a value; expected whitespace and 'and', or end of filter (write a quote inside a value as '')",
    );
  });

  it('rejects an unquoted value', () => {
    expect(failure('modified_date gt 2026-01-01T00:00:00Z')).toBe(
      "expected a quoted value after 'gt', found '2026-01-01T00:00:00Z' at position 17 (quote it: '2026-01-01T00:00:00Z')",
    );
  });

  it.each([
    'yesterday',
    '',
    '2026-02-30T00:00:00Z',
    '2025-02-29',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T10:60:00Z',
    '2026-01-01T10:00:60Z',
    '2026-01-01T10:00:00',
    '2026-01-01T10:00:00+24:00',
    '2026-01-01 10:00:00Z',
    '2026-01-01t10:00:00z',
    '26-01-01T00:00:00Z',
    '1767225600000',
  ])('rejects the date %j', (value) => {
    expect(failure(`modified_date gt '${value}'`)).toBe(
      `invalid date '${value}' for modified_date at position 17; use an ISO 8601 date-time with Z or an offset, such as '2026-01-01T00:00:00Z'`,
    );
  });

  it('rejects an empty email address', () => {
    expect(failure("email_address eq '  '")).toBe('empty value for email_address at position 17');
  });

  it('rejects or, not, parentheses and functions', () => {
    expect(failure("modified_date gt '2026-01-01' or created_date gt '2026-01-01'")).toBe(
      "'or' is not supported at position 30; only 'and' joins conditions",
    );
    expect(failure("modified_date gt '2026-01-01' OR created_date gt '2026-01-01'")).toBe(
      "'or' is not supported at position 30; only 'and' joins conditions",
    );
    expect(failure("not modified_date gt '2026-01-01'")).toBe(
      "'not' is not supported at position 0; only 'and' joins conditions",
    );
    expect(failure("(modified_date gt '2026-01-01')")).toBe(
      "parentheses are not supported: '(' at position 0",
    );
    expect(failure("modified_date gt ('2026-01-01')")).toBe(
      "parentheses are not supported: '(' at position 17",
    );
    expect(failure("contains(email_address, 'ana')")).toBe(
      "functions are not supported: 'contains(' at position 0",
    );
    expect(failure('modified_date gt now()')).toBe(
      "functions are not supported: 'now(' at position 17",
    );
  });

  it('rejects trailing garbage and dangling joins', () => {
    expect(failure("modified_date gt '2026-01-01' foo")).toBe(
      "unexpected 'foo' at position 30; expected 'and' or end of filter",
    );
    expect(failure("modified_date gt '2026-01-01' 'x'")).toBe(
      "unexpected quoted value 'x' at position 30; expected 'and' or end of filter",
    );
    expect(failure("modified_date gt '2026-01-01' and")).toBe(
      "expected a field name after 'and' at position 30, found end of filter at position 33",
    );
    expect(failure("modified_date gt '2026-01-01'and created_date lt '2026-02-01'")).toBe(
      "unexpected 'and' at position 29 directly after a value; expected whitespace and 'and', or end of filter (write a quote inside a value as '')",
    );
    expect(failure("modified_date gt '2026-01-01''")).toBe(
      "unterminated string starting at position 17: no closing quote (write ' inside a value as '')",
    );
    expect(failure("and modified_date gt '2026-01-01'")).toBe(
      "unknown field 'and' at position 0; filterable: created_date, modified_date, email_address",
    );
    expect(failure("'x' eq 'y'")).toBe(
      "expected a field name at start of filter, found quoted value 'x' at position 0",
    );
  });

  it('rejects incomplete conditions', () => {
    expect(failure('modified_date')).toBe(
      "expected an operator after 'modified_date', found end of filter at position 13",
    );
    expect(failure('modified_date gt')).toBe(
      "expected a quoted value after 'gt', found end of filter at position 16",
    );
  });

  it('rejects an empty or blank filter', () => {
    const message =
      "filter is empty; give at least one condition, such as modified_date gt '2026-01-01T00:00:00Z'";
    expect(failure('')).toBe(message);
    expect(failure('  \t ')).toBe(message);
  });

  it(`accepts at most ${MAX_FILTER_CONDITIONS} conditions`, () => {
    const condition = "modified_date gt '2026-01-01T00:00:00Z'";
    const many = (n: number) => Array.from({ length: n }, () => condition).join(' and ');
    expect(parseFilter(many(MAX_FILTER_CONDITIONS), people)).toHaveLength(MAX_FILTER_CONDITIONS);
    expect(failure(many(MAX_FILTER_CONDITIONS + 1))).toBe(
      `too many conditions: at most ${MAX_FILTER_CONDITIONS} may be joined with 'and'`,
    );
  });

  it('shortens long pieces of the expression quoted back', () => {
    const long = 'x'.repeat(100);
    expect(failure(`${long} eq 'a'`)).toBe(
      `unknown field '${'x'.repeat(40)}…' at position 0; filterable: created_date, modified_date, email_address`,
    );
  });

  it('becomes a std:error body naming the resource', () => {
    let thrown: unknown;
    try {
      parseFilter("name eq 'x'", people, 'std:people');
    } catch (error) {
      thrown = error;
    }
    expect(errorBody(thrown as ApiError)).toEqual({
      'std:error': {
        request_type: 'atomic',
        response_code: 400,
        resource_status: [
          {
            resource: 'std:people',
            response_code: 400,
            error_descriptions: [
              {
                error_code: 'INVALID_FILTER',
                description:
                  "unknown field 'name' at position 0; filterable: created_date, modified_date, email_address",
                properties: ['filter'],
                hint: FILTER_GRAMMAR,
              },
            ],
          },
        ],
      },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { PERSON_FILTER_FIELDS, parseFilter } from '../../reference-server/src/domain/filter.js';
import type { RecordFilter } from '../../reference-server/src/storage/storage.js';
import {
  Filter,
  type FilterCondition,
  FilterField,
  type FilterOperator,
  field,
  modifiedSince,
} from '../../src/navigator/filter.js';

const OPS: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

describe('filter builder', () => {
  it('writes the example from the docs', () => {
    const since = field('modified_date').gt(new Date('2026-01-01T00:00:00Z'));
    const both = since.and(field('created_date').lt('2026-06-01T00:00:00Z'));
    expect(both.toString()).toBe(
      "modified_date gt '2026-01-01T00:00:00.000Z' and created_date lt '2026-06-01T00:00:00Z'",
    );
    expect(String(field('email_address').eq('ana@example.org'))).toBe(
      "email_address eq 'ana@example.org'",
    );
  });

  it.each(OPS)('writes the operator %s', (op) => {
    expect(field('created_date')[op]('2026-01-01T00:00:00Z').toString()).toBe(
      `created_date ${op} '2026-01-01T00:00:00Z'`,
    );
  });

  it('writes Dates as toISOString and strings as given', () => {
    const date = new Date(Date.UTC(2026, 2, 4, 5, 6, 7, 89));
    expect(field('modified_date').ge(date).toString()).toBe(
      "modified_date ge '2026-03-04T05:06:07.089Z'",
    );
    expect(field('modified_date').ge('2026-03-04T06:06:07+01:00').toString()).toBe(
      "modified_date ge '2026-03-04T06:06:07+01:00'",
    );
  });

  it('doubles quotes inside values', () => {
    expect(field('email_address').eq("o'brien@example.org").toString()).toBe(
      "email_address eq 'o''brien@example.org'",
    );
    expect(field('email_address').eq("''").toString()).toBe("email_address eq ''''''");
    expect(field('email_address').eq('').toString()).toBe("email_address eq ''");
  });

  it('rejects an invalid Date when the filter is built', () => {
    expect(() => field('modified_date').gt(new Date('not a date'))).toThrow(TypeError);
    expect(() => field('modified_date').gt(new Date(Number.NaN))).toThrow(
      'Invalid Date given for filter modified_date gt',
    );
    expect(() => modifiedSince(new Date('nope'))).toThrow(TypeError);
  });

  it('rejects values that are neither strings nor Dates (from untyped callers)', () => {
    const gt = field('modified_date').gt as (value: unknown) => Filter;
    expect(() => gt.call(field('modified_date'), 1767225600000)).toThrow(
      'Filter modified_date gt needs a string or a Date, got number',
    );
  });

  it('accepts other servers’ field names and rejects ones the syntax cannot carry', () => {
    expect(field('osdi:modified_date').gt('2026-01-01').toString()).toBe(
      "osdi:modified_date gt '2026-01-01'",
    );
    expect(field('address/locality').eq('Lisbon').toString()).toBe("address/locality eq 'Lisbon'");
    for (const name of ['', 'given name', "o'clock", 'f(x)', '1st']) {
      expect(() => field(name)).toThrow(TypeError);
    }
  });

  it('is immutable: and() returns a new filter', () => {
    const a = field('modified_date').gt('2026-01-01T00:00:00Z');
    const b = field('created_date').lt('2026-06-01T00:00:00Z');
    const both = a.and(b);
    expect(both).not.toBe(a);
    expect(a.toString()).toBe("modified_date gt '2026-01-01T00:00:00Z'");
    expect(b.toString()).toBe("created_date lt '2026-06-01T00:00:00Z'");
    expect(both.conditions).toEqual([
      { field: 'modified_date', op: 'gt', value: '2026-01-01T00:00:00Z' },
      { field: 'created_date', op: 'lt', value: '2026-06-01T00:00:00Z' },
    ]);
    expect(Object.isFrozen(both.conditions)).toBe(true);
    expect(Object.isFrozen(both.conditions[0])).toBe(true);
  });

  it('copies the conditions it is built from', () => {
    const conditions: FilterCondition[] = [
      { field: 'modified_date', op: 'gt', value: '2026-01-01T00:00:00Z' },
    ];
    const filter = new Filter(conditions);
    conditions.push({ field: 'created_date', op: 'lt', value: 'x' });
    expect(filter.toString()).toBe("modified_date gt '2026-01-01T00:00:00Z'");
  });

  it('checks conditions given to the constructor', () => {
    expect(() => new Filter([])).toThrow('A filter needs at least one condition');
    const badOp = {
      field: 'modified_date',
      op: 'contains',
      value: 'x',
    } as unknown as FilterCondition;
    expect(() => new Filter([badOp])).toThrow(
      'Invalid filter operator "contains": use one of eq, ne, gt, ge, lt, le',
    );
    expect(() => new Filter([{ field: 'a b', op: 'eq', value: 'x' }])).toThrow(TypeError);
  });

  it('modifiedSince is modified_date gt', () => {
    expect(modifiedSince('2026-01-01T00:00:00Z').toString()).toBe(
      "modified_date gt '2026-01-01T00:00:00Z'",
    );
    expect(modifiedSince(new Date('2026-01-01T00:00:00Z')).toString()).toBe(
      field('modified_date').gt(new Date('2026-01-01T00:00:00Z')).toString(),
    );
  });

  it('serialises to JSON as its expression', () => {
    expect(JSON.stringify({ filter: modifiedSince('2026-01-01T00:00:00Z') })).toBe(
      `{"filter":"modified_date gt '2026-01-01T00:00:00Z'"}`,
    );
    expect(new FilterField('created_date').name).toBe('created_date');
  });

  it('survives URL encoding as a query parameter', () => {
    const filter = field('email_address').eq("o'brien+tag@example.org");
    const url = new URL('https://api.example.org/api/v1/people');
    url.searchParams.set('filter', filter.toString());
    expect(new URL(url.toString()).searchParams.get('filter')).toBe(filter.toString());
  });
});

describe('round trip: every builder string is accepted by the reference server', () => {
  const cases: [Filter, RecordFilter[]][] = [
    ...OPS.map((op): [Filter, RecordFilter[]] => [
      field('modified_date')[op](new Date('2026-01-01T00:00:00Z')),
      [{ column: 'modified_date', op, value: '2026-01-01T00:00:00.000Z' }],
    ]),
    ...OPS.map((op): [Filter, RecordFilter[]] => [
      field('created_date')[op]('2026-01-01T02:00:00+02:00'),
      [{ column: 'created_date', op, value: '2026-01-01T00:00:00.000Z' }],
    ]),
    [
      modifiedSince('2026-05-06T07:08:09.123Z'),
      [{ column: 'modified_date', op: 'gt', value: '2026-05-06T07:08:09.123Z' }],
    ],
    [
      field('email_address').eq("  O'Brien@Example.org "),
      [{ key: 'email', value: "o'brien@example.org" }],
    ],
    [field('email_address').eq("it''s'@x.org"), [{ key: 'email', value: "it''s'@x.org" }]],
    [
      modifiedSince(new Date('2026-01-01T00:00:00Z'))
        .and(field('created_date').lt('2026-06-01T00:00:00Z'))
        .and(field('email_address').eq('ana@example.org')),
      [
        { column: 'modified_date', op: 'gt', value: '2026-01-01T00:00:00.000Z' },
        { column: 'created_date', op: 'lt', value: '2026-06-01T00:00:00.000Z' },
        { key: 'email', value: 'ana@example.org' },
      ],
    ],
  ];

  it.each(cases)('parses %s', (filter, expected) => {
    expect(parseFilter(filter.toString(), PERSON_FILTER_FIELDS, 'std:people')).toEqual(expected);
  });

  it('parses any Date the builder writes back to the same instant', () => {
    const dates = [0, 1, 999, 1_767_225_600_123, 4_102_444_799_999, -1].map((ms) => new Date(ms));
    for (const date of dates) {
      const [parsed] = parseFilter(modifiedSince(date).toString(), PERSON_FILTER_FIELDS);
      expect(parsed).toEqual({ column: 'modified_date', op: 'gt', value: date.toISOString() });
    }
  });
});

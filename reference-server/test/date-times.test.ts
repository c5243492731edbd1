/**
 * How the server writes date-times (`src/domain/date-times.ts`): as stored, or in UTC to
 * the whole second as Action Network does. The members respelled, what is left alone,
 * and the edges of the conversion.
 */
import { describe, expect, it } from 'vitest';
import { writeDateTime, writeDateTimes, writeInstant } from '../src/domain/date-times.js';

describe('writeDateTime in utc-seconds', () => {
  it.each([
    ['2026-01-01T10:00:00.400Z', '2026-01-01T10:00:00Z'],
    // The fraction is dropped, never rounded: .999 stays in its second, minute and day.
    ['2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59Z'],
    ['2026-01-01T10:00:00.123456Z', '2026-01-01T10:00:00Z'],
    // An offset is the same instant in UTC, across midnight too.
    ['2026-05-01T18:00:00.750+02:00', '2026-05-01T16:00:00Z'],
    ['2026-09-01T21:30:00-04:00', '2026-09-02T01:30:00Z'],
    ['2026-09-01T21:30:00-0400', '2026-09-02T01:30:00Z'],
    ['2026-09-01T21:30:00-04', '2026-09-02T01:30:00Z'],
    // Without seconds: the minute's first.
    ['2026-09-01T21:30Z', '2026-09-01T21:30:00Z'],
    ['2026-01-01t10:00:00.5z', '2026-01-01T10:00:00Z'],
    ['2024-02-29T10:00:00Z', '2024-02-29T10:00:00Z'],
    ['1970-01-01T00:00:00.500Z', '1970-01-01T00:00:00Z'],
  ])('%s is written %s', (stored, written) => {
    expect(writeDateTime(stored, 'utc-seconds')).toBe(written);
  });

  it.each([
    ['a calendar date', '2026-05-01'],
    ['a day the month does not have', '2026-02-30T10:00:00Z'],
    ['an hour that does not exist', '2026-01-01T25:00:00Z'],
    ['a date-time without an offset', '2026-01-01T10:00:00'],
    ['text', 'next Tuesday'],
  ])('leaves %s as it is', (_what, text) => {
    expect(writeDateTime(text, 'utc-seconds')).toBe(text);
  });

  it('writes what it wrote the same again', () => {
    const once = writeDateTime('2026-05-01T18:00:00.750+02:00', 'utc-seconds');
    expect(writeDateTime(once, 'utc-seconds')).toBe(once);
  });
});

describe('as-stored', () => {
  it('leaves every date as it is, and a document the same object', () => {
    expect(writeDateTime('2026-05-01T18:00:00.750+02:00', 'as-stored')).toBe(
      '2026-05-01T18:00:00.750+02:00',
    );
    const doc = { created_date: '2026-01-01T10:00:00.400Z' };
    expect(writeDateTimes(doc, 'as-stored')).toBe(doc);
    expect(writeInstant(Date.parse('2026-01-01T10:00:00.400Z'), 'as-stored')).toBe(
      '2026-01-01T10:00:00.400Z',
    );
  });
});

describe('writeDateTimes in utc-seconds', () => {
  it('respells the …_date members at any depth, but not inside custom fields', () => {
    const doc = {
      identifiers: ['adis:1'],
      created_date: '2026-01-01T10:00:00.400Z',
      postal_addresses: [{ locality: 'Ashby', last_verified_date: '2026-01-02T08:00:00.900Z' }],
      all_day_date: '2026-05-01',
      custom_fields: { renewal_date: '2026-06-01T00:00:00.500Z' },
      // Named otherwise: a member the server writes as a date is named …_date.
      note: '2026-01-01T10:00:00.400Z',
    };
    expect(writeDateTimes(doc, 'utc-seconds')).toEqual({
      ...doc,
      created_date: '2026-01-01T10:00:00Z',
      postal_addresses: [{ locality: 'Ashby', last_verified_date: '2026-01-02T08:00:00Z' }],
    });
    // A copy: the stored document is not changed.
    expect(doc.created_date).toBe('2026-01-01T10:00:00.400Z');
  });

  it('answers the same object when nothing changes', () => {
    const doc = { created_date: '2026-01-01T10:00:00Z', tags: ['a'], nested: { start_date: null } };
    expect(writeDateTimes(doc, 'utc-seconds')).toBe(doc);
  });
});

describe('writeInstant in utc-seconds', () => {
  it('writes an instant to the second, in UTC', () => {
    expect(writeInstant(Date.parse('2026-01-01T10:00:00.400Z'), 'utc-seconds')).toBe(
      '2026-01-01T10:00:00Z',
    );
  });
});

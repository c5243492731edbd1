import { describe, expect, it } from 'vitest';
import { newRecordId } from '../src/domain/identifiers.js';

describe('newRecordId', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const before = Date.now();
    const id = newRecordId();
    const after = Date.now();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const millis = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(after);
  });

  it('is unique, and ids made later sort after earlier ones (index locality)', async () => {
    const first = Array.from({ length: 10_000 }, newRecordId);
    expect(new Set(first).size).toBe(first.length);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const later = newRecordId();
    expect(first.every((id) => id < later)).toBe(true);
  });
});

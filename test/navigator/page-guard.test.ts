import { describe, expect, it } from 'vitest';
import { PageGuard } from '../../src/navigator/page-guard.js';

const PEOPLE = 'https://api.example.org/api/v1/people';

describe('PageGuard', () => {
  it('passes a URL on until it is visited', () => {
    const guard = new PageGuard();
    expect(guard.unseen(`${PEOPLE}?page=2`)).toBe(`${PEOPLE}?page=2`);
    guard.visit(`${PEOPLE}?page=2`);
    expect(guard.unseen(`${PEOPLE}?page=2`)).toBeUndefined();
    expect(guard.unseen(undefined)).toBeUndefined();
    guard.visit(undefined);
    expect(guard.unseen(PEOPLE)).toBe(PEOPLE);
  });

  it("admits pages numbered upwards, and notes each page's own URL", () => {
    const guard = new PageGuard();
    expect(guard.admit(1, PEOPLE)).toBe(true);
    expect(guard.admit(2, `${PEOPLE}?page=2`)).toBe(true);
    expect(guard.unseen(PEOPLE)).toBeUndefined();
    expect(guard.unseen(`${PEOPLE}?page=2`)).toBeUndefined();
  });

  it('refuses a page number it has had: ?page=1 and the bare URL are one page', () => {
    const guard = new PageGuard();
    expect(guard.admit(1, PEOPLE)).toBe(true);
    expect(guard.admit(2, undefined)).toBe(true);
    expect(guard.admit(1, `${PEOPLE}?page=1`)).toBe(false);
    // A page refused is not noted: its URL was never taken in.
    expect(guard.unseen(`${PEOPLE}?page=1`)).toBe(`${PEOPLE}?page=1`);
  });

  it("refuses a page numbered below the walk's first (a resumed walk's loop back to page 1)", () => {
    const guard = new PageGuard();
    expect(guard.admit(3, undefined)).toBe(true);
    expect(guard.admit(5, undefined)).toBe(true);
    // Not seen and not below the first: admitted, as today.
    expect(guard.admit(4, undefined)).toBe(true);
    expect(guard.admit(1, undefined)).toBe(false);
    expect(guard.admit(2, undefined)).toBe(false);
  });

  it('admits unnumbered pages, leaving the URLs to end a loop', () => {
    const guard = new PageGuard();
    expect(guard.admit(undefined, PEOPLE)).toBe(true);
    expect(guard.admit(undefined, PEOPLE)).toBe(true);
    expect(guard.unseen(PEOPLE)).toBeUndefined();
    // An unnumbered page does not set the first number.
    expect(guard.admit(7, undefined)).toBe(true);
    expect(guard.admit(6, undefined)).toBe(false);
  });
});

// The idempotency key generator and checker, for any random bytes and any given key.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isInvalidIdempotencyKeyError } from '../../src/errors/index.js';
import { idempotencyKeyFor, newIdempotencyKey } from '../../src/http/idempotency-key.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const URL = 'https://api.example.org/api/v1/people';

afterEach(() => vi.restoreAllMocks());

/** Makes `crypto.getRandomValues` fill its array from `bytes`, in order. */
function randomBytesAre(bytes: Uint8Array): void {
  vi.spyOn(crypto, 'getRandomValues').mockImplementation((array) => {
    const target = array as Uint8Array;
    target.set(bytes.subarray(0, target.length));
    return array;
  });
}

// The specification of a checked key, written differently from the implementation's
// regular expression: a loop over character codes.
function isVisibleAscii(key: string): boolean {
  if (key.length < 1 || key.length > 255) return false;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < 0x21 || code > 0x7e) return false;
  }
  return true;
}

describe('newIdempotencyKey', () => {
  it('is a version 4 UUID whatever the random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 31, maxLength: 31 }), (bytes) => {
        randomBytesAre(bytes);
        const key = newIdempotencyKey();
        vi.restoreAllMocks();
        expect(key).toMatch(UUID_V4);
      }),
    );
  });

  it('uses all 122 random bits: bytes that differ in them give different keys', () => {
    // The bits each byte contributes: its low nibble, 2 bits for the variant's digit (the 16th).
    const used = (bytes: Uint8Array) =>
      Array.from(bytes, (byte, i) => byte & (i === 15 ? 3 : 15)).join(',');
    const bytes = fc.uint8Array({ minLength: 31, maxLength: 31 });
    fc.assert(
      fc.property(bytes, bytes, fc.boolean(), (a, noise, sameBits) => {
        // Half the time b differs from a only in bits that are not used.
        const b = sameBits
          ? a.map((byte, i) => byte ^ ((noise[i] as number) & (i === 15 ? 0xfc : 0xf0)))
          : noise;
        randomBytesAre(a);
        const keyA = newIdempotencyKey();
        vi.restoreAllMocks();
        randomBytesAre(b);
        const keyB = newIdempotencyKey();
        vi.restoreAllMocks();
        expect(keyA === keyB).toBe(used(a) === used(b));
      }),
    );
  });

  it('does not repeat itself', () => {
    const keys = new Set(Array.from({ length: 10_000 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(10_000);
  });
});

describe('idempotencyKeyFor', () => {
  it('takes exactly the strings of 1 to 255 visible ASCII characters, as given', () => {
    const key = fc.oneof(
      fc.string({ unit: 'binary-ascii', maxLength: 300 }),
      fc.string({ unit: fc.constantFrom('a', '~', '!', ' ', 'é', '\t'), maxLength: 260 }),
      fc.string({ unit: fc.constantFrom('a', 'Z', '-'), minLength: 250, maxLength: 260 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
    );
    fc.assert(
      fc.property(key, (given) => {
        if (isVisibleAscii(given)) {
          expect(idempotencyKeyFor(given, false, 'POST', URL)).toBe(given);
        } else {
          let error: unknown;
          try {
            idempotencyKeyFor(given, true, 'POST', URL);
          } catch (thrown) {
            error = thrown;
          }
          expect(isInvalidIdempotencyKeyError(error)).toBe(true);
        }
      }),
    );
  });

  it('makes a key only when none is given and keys are on', () => {
    expect(idempotencyKeyFor(undefined, true, 'POST', URL)).toMatch(UUID_V4);
    expect(idempotencyKeyFor(undefined, false, 'POST', URL)).toBeUndefined();
    expect(idempotencyKeyFor(false, true, 'POST', URL)).toBeUndefined();
  });
});

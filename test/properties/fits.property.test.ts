import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fitsAsIs } from '../../src/schema/fits.js';
import { KINDS } from '../../src/schema/kinds/index.js';
import type { SchemaDef } from './arbitraries.js';

// fitsAsIs lets the navigator skip zod's copy of a record that is already in shape. Its
// contract, checked here for every kind's read schema on values a server might send
// (mostly in shape, sometimes not: wrong types, numeric strings, "yes" for true, nulls,
// unknown members): when it says yes, zod accepts the value and gives back an equal
// one; and when zod gives back an equal value, it says yes (so the fast path is taken).

const stray = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ maxLength: 4 }),
  fc.constantFrom('12', ' 7 ', 'true', 'no', '1.5', ''),
  fc.constant([]),
  fc.constant({}),
);

/**
 * Values for `schema`: nearly always in shape, with a stray value one time in 121 at
 * each member (a person has about 60 members, so most persons still have one).
 */
function sentValue(schema: z.core.$ZodType, depth: number): fc.Arbitrary<unknown> {
  const def = schema._zod.def as SchemaDef;
  const inShape = inShapeValueOf(def, depth);
  return fc.oneof({ arbitrary: inShape, weight: 120 }, { arbitrary: stray, weight: 1 });
}

function inShapeValueOf(def: SchemaDef, depth: number): fc.Arbitrary<unknown> {
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return sentValue(def.innerType as z.core.$ZodType, depth);
    case 'string':
      return fc.string({ maxLength: 6 });
    case 'number':
      // Small, so that coordinates (-90..90, -180..180) are in range as often as not.
      return fc.oneof(
        fc.integer({ min: -100, max: 100 }),
        fc.double({ min: -100, max: 100, noNaN: true }),
      );
    case 'boolean':
      return fc.boolean();
    case 'pipe':
      return sentValue(def.out as z.core.$ZodType, depth);
    case 'array':
      return depth <= 0
        ? fc.constant([])
        : fc.array(sentValue(def.element as z.core.$ZodType, depth - 1), { maxLength: 2 });
    case 'record':
      return depth <= 0
        ? fc.constant({})
        : fc.dictionary(
            fc.string({ maxLength: 3 }),
            sentValue(def.valueType as z.core.$ZodType, depth - 1),
            { maxKeys: 2 },
          );
    case 'object': {
      if (depth <= 0) return fc.constant({});
      const members: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        members[key] = sentValue(field, depth - 1);
      }
      return fc
        .tuple(
          fc.record(members, { requiredKeys: [] }),
          fc.dictionary(fc.constantFrom('extra', 'x_vendor', 'note'), stray, { maxKeys: 1 }),
        )
        .map(([known, extra]) => ({ ...extra, ...known }));
    }
    default:
      return stray;
  }
}

describe('fitsAsIs (property)', () => {
  for (const kind of KINDS) {
    it(`${kind.singular}: says yes exactly when zod gives the same value back`, () => {
      let fitting = 0;
      fc.assert(
        fc.property(sentValue(kind.schema, 3), (value) => {
          const fits = fitsAsIs(kind.schema, value);
          const parsed = kind.schema.safeParse(value);
          const unchanged = parsed.success && isDeepStrictEqual(parsed.data, value);
          if (fits) fitting += 1;
          expect(fits).toBe(unchanged);
        }),
        { numRuns: 300 },
      );
      // Not vacuous: records in shape are generated too (for a person about one in 25,
      // so a run without any would be a broken generator, not bad luck).
      expect(fitting).toBeGreaterThan(0);
    });
  }

  it('refuses a member zod would coerce, and one it would refuse', () => {
    const person = KINDS.find((kind) => kind.singular === 'person');
    if (!person) throw new Error('person kind missing');
    expect(fitsAsIs(person.schema, { given_name: 'Ana', email_addresses: [] })).toBe(true);
    expect(fitsAsIs(person.schema, { email_addresses: [{ primary: 'true' }] })).toBe(false);
    expect(fitsAsIs(person.schema, { given_name: 12 })).toBe(false);
    expect(fitsAsIs(person.schema, JSON.parse('{"__proto__": {"x": 1}}'))).toBe(false);
  });

  it('takes a union member as is only when zod would pick that option unchanged', () => {
    const campaign = KINDS.find((kind) => kind.singular === 'advocacy_campaign');
    if (!campaign) throw new Error('advocacy campaign kind missing');
    // Found by the property above: an array in a string-or-targets union.
    expect(fitsAsIs(campaign.schema, { targets: [] })).toBe(true);
    expect(fitsAsIs(campaign.schema, { targets: 'every senator' })).toBe(true);
    expect(fitsAsIs(campaign.schema, { targets: 3 })).toBe(false);
    // An earlier option that takes the value changed wins in zod: not as is.
    const trimmedOrAny = z.union([z.string().check(z.trim()), z.unknown()]);
    expect(fitsAsIs(trimmedOrAny, ' a ')).toBe(false);
    expect(trimmedOrAny.parse(' a ')).toBe('a');
    expect(fitsAsIs(trimmedOrAny, 'a')).toBe(true);
    expect(fitsAsIs(trimmedOrAny, 4)).toBe(true);
  });
});

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toStrictEqual(b);
    return true;
  } catch {
    return false;
  }
}

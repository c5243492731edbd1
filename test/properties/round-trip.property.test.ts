import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ACTION_NETWORK_KINDS } from '../../src/presets/action-network/index.js';
import { HELPER_BODIES } from '../../src/schema/helper-bodies.js';
import type { AnyKind } from '../../src/schema/kind.js';
import { donationKind } from '../../src/schema/kinds/donation.js';
import { KINDS } from '../../src/schema/kinds/index.js';
import { personKind } from '../../src/schema/kinds/person.js';
import type { SchemaDef } from './arbitraries.js';

// The round-trip rule (docs/round-trip.md): whatever the SDK read from a server, it can
// write back to it unchanged. For every kind, any document its read schema accepts
// (coercible spellings, nulls, vendor members at any depth, any vocabulary and any
// format) is read; the data, without its read-only members, passes the kind's write
// schema, and what would be sent equals it member for member.
//
// The documents hold the kind's declared members and vendor members (`<prefix>:<name>`).
// Unknown plain members are left out on purpose: the write side refuses them (a typo
// in code that built a record), which docs/round-trip.md states as the one exception.

const vendorName = fc
  .tuple(fc.stringMatching(/^[a-z_]{1,10}$/), fc.stringMatching(/^[a-z_]{1,10}$/))
  .map(([prefix, name]) => `${prefix}:${name}`);

const json = fc.jsonValue({ maxDepth: 2 });

/** Spellings the read side coerces, by the type it coerces them to. */
const COERCIBLE: Record<string, fc.Arbitrary<unknown>> = {
  number: fc.oneof(
    fc.integer({ min: -1000, max: 1000 }).map(String),
    fc.constantFrom('1.50', ' 7 ', '-3'),
  ),
  boolean: fc.constantFrom('true', 'false', 'TRUE', ' yes', '0', '1', 'no'),
  string: fc.integer({ min: 0, max: 99_999_999 }),
};

/** Values the read schema `schema` accepts: in shape, in any vocabulary, or coercible. */
function readable(schema: z.core.$ZodType, depth: number): fc.Arbitrary<unknown> {
  // Every generated member is one the member's own schema takes, so whole documents are.
  return generatedFor(schema, depth).filter((value) => z.safeParse(schema, value).success);
}

function generatedFor(schema: z.core.$ZodType, depth: number): fc.Arbitrary<unknown> {
  const def = schema._zod.def as SchemaDef;
  switch (def.type) {
    case 'optional':
      return fc.option(readable(def.innerType as z.core.$ZodType, depth), { nil: undefined });
    case 'nullable':
      return fc.option(readable(def.innerType as z.core.$ZodType, depth), { nil: null });
    case 'string':
      // Any text: formats and vocabularies are the server's (dates without an offset,
      // `female`, `+1 202 …`).
      return fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom('2026-09-01 18:00:00', 'previous bounce', 'USA', '@ana', ''),
      );
    case 'number':
      return numberWithin(def);
    case 'boolean':
      return fc.boolean();
    case 'unknown':
    case 'any':
      return json;
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => readable(option, depth)));
    case 'pipe': {
      // A read preprocess: what it gives is a value of `out`, and what it coerces.
      const out = def.out as z.core.$ZodType;
      const target = (out._zod.def as SchemaDef).type;
      const coercible = COERCIBLE[target];
      return coercible ? fc.oneof(readable(out, depth), coercible) : readable(out, depth);
    }
    case 'array':
      return depth <= 0
        ? fc.constant([])
        : fc.array(readable(def.element as z.core.$ZodType, depth - 1), { maxLength: 2 });
    case 'record':
      return depth <= 0
        ? fc.constant({})
        : fc.dictionary(
            fc.stringMatching(/^[a-z_]{1,8}$/),
            readable(def.valueType as z.core.$ZodType, depth - 1),
            { maxKeys: 2 },
          );
    case 'object': {
      if (depth <= 0) return fc.constant({});
      const members: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        if (key === '_links' || key === '_embedded') continue;
        members[key] = readable(field, depth - 1);
      }
      return fc
        .tuple(
          fc.record(members, { requiredKeys: [] }),
          fc.dictionary(vendorName, json, { maxKeys: 2 }),
        )
        .map(([known, vendor]) => ({ ...vendor, ...known }));
    }
    default:
      // A schema type this generator does not know must be taught to it, not skipped.
      throw new Error(`no generator for a read schema of type ${def.type}`);
  }
}

/** Numbers within the bounds a read schema checks (coordinates are bounded on read too). */
function numberWithin(def: SchemaDef): fc.Arbitrary<number> {
  let min = -1e6;
  let max = 1e6;
  for (const check of def.checks ?? []) {
    const { check: kind, value } = check._zod.def;
    if (kind === 'greater_than' && value !== undefined) min = Math.max(min, value);
    if (kind === 'less_than' && value !== undefined) max = Math.min(max, value);
  }
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true }),
  );
}

/**
 * Date-times in the spellings servers send (Action Network's space, fractions, offsets
 * with and without a colon): what a record's own `created_date` holds.
 */
const DATE_TIMES = fc.constantFrom(
  '2026-09-01 18:00:00',
  '2024-05-01T12:00:00Z',
  '2024-05-01T12:00:00.123+02:00',
  '2023-12-24 09:30:00 -0500',
);

/**
 * Documents of `kind` its read schema accepts. A kind whose records carry their own
 * `created_date` (a donation's, `clientCreatedDate`) is the exception the rule states
 * (docs/round-trip.md): that member is written back only when it is a date-time, which
 * is what servers send, so it is generated as one (or left out, or null).
 */
function documentsOf(kind: AnyKind): fc.Arbitrary<unknown> {
  const documents = readable(kind.schema, 4);
  if (!kind.clientCreatedDate) return documents;
  return fc
    .tuple(documents, fc.option(fc.option(DATE_TIMES, { nil: null }), { nil: undefined }))
    .map(([document, date]) => {
      const { created_date: _any, ...rest } = document as Record<string, unknown>;
      return date === undefined ? rest : { ...rest, created_date: date };
    });
}

/** The data to write back: what was read, without the members the server owns. */
function writable(kind: AnyKind, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const member of kind.readOnly) delete out[member];
  return out;
}

describe('the round-trip rule (property)', () => {
  // The specification's kinds and the preset kinds a server declares alike.
  for (const kind of [...KINDS, ...ACTION_NETWORK_KINDS] as AnyKind[]) {
    it(`${kind.singular}: what the read schema gives, the write schema sends unchanged`, () => {
      fc.assert(
        fc.property(documentsOf(kind), (document) => {
          const read = kind.schema.safeParse(document);
          expect(read.success).toBe(true);
          const data = writable(kind, read.data as Record<string, unknown>);
          const written = kind.writeSchema.safeParse(data);
          if (!written.success) {
            throw new Error(
              `refused: ${JSON.stringify(written.error.issues)} for ${JSON.stringify(data)}`,
            );
          }
          expect(written.data).toStrictEqual(data);
        }),
        { numRuns: 200 },
      );
    });
  }

  it('a person read goes back through every helper body as the person', () => {
    fc.assert(
      fc.property(readable(personKind.schema, 4), (document) => {
        const person = writable(
          personKind,
          personKind.schema.parse(document) as Record<string, unknown>,
        );
        for (const name of ['personSignup', 'recordSignature', 'recordDonation'] as const) {
          const body = HELPER_BODIES[name].safeParse({ person });
          if (!body.success) throw new Error(`${name}: ${JSON.stringify(body.error.issues)}`);
          expect((body.data as { person: unknown }).person).toStrictEqual(person);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("refuses a record's own created_date that is no date-time, naming the member", () => {
    const donation = donationKind.schema.parse({ amount: 5, created_date: 'last Christmas' });
    const written = donationKind.writeSchema.safeParse(writable(donationKind, donation));
    expect(written.success).toBe(false);
    expect(written.error?.issues.map((issue) => issue.path)).toEqual([['created_date']]);
  });

  it('still refuses a misspelt plain member at any depth, and a wrong type', () => {
    const person = personKind.writeSchema;
    expect(person.safeParse({ givn_name: 'Ana' }).success).toBe(false);
    expect(person.safeParse({ email_addresses: [{ adress: 'a@example.org' }] }).success).toBe(
      false,
    );
    expect(person.safeParse({ given_name: 12 }).success).toBe(false);
    expect(
      person.safeParse({ email_addresses: [{ address: 'a@example.org', 'acme:verified': true }] })
        .success,
    ).toBe(true);
  });
});

// The same rule for the types: a record's read type is assignable to its write input,
// so `update(record.data)` compiles for every kind (checked by `npm run typecheck`).
type ReadOf<K extends AnyKind> = z.output<K['schema']>;
type WriteOf<K extends AnyKind> = z.input<K['writeSchema']>;
type EveryKindWritesBackWhatItReads = {
  [K in (typeof KINDS)[number] as K['singular']]: ReadOf<K> extends WriteOf<K> ? true : false;
};
const everyKindWritesBack: EveryKindWritesBackWhatItReads = Object.fromEntries(
  KINDS.map((kind) => [kind.singular, true]),
) as { [K in keyof EveryKindWritesBackWhatItReads]: true };

it('types: every read type is assignable to its write input', () => {
  expect(Object.values(everyKindWritesBack).every(Boolean)).toBe(true);
});

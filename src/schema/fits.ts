import type * as z from 'zod/mini';

/**
 * Whether parsing `value` with `schema` would give `value` back unchanged: every member
 * already has the type its field wants, so there is nothing to coerce, default or drop.
 *
 * Why it exists: a page of 100 people read with the lenient read schema costs zod about
 * 7 µs a person, mostly the generic object walk that builds a fresh copy of every
 * object and array. What servers send is almost always already in shape, and then the
 * copy equals the input. This walk proves that without building anything, and the
 * caller uses the input as it is; anything it cannot prove (a transform that changes a
 * value, a refinement on an object, a failing member) answers `false`, and the caller
 * parses with zod as before, so errors and coercions are zod's own.
 *
 * Containers (objects, arrays, records, optional and nullable wrappers, pipes) are
 * walked here; every other schema (enums, checks, anything else) is run by zod itself
 * on the single value, and fits only when zod answers no issue and the very same value.
 * Plain strings, numbers, booleans and `unknown` without checks are tested inline (what
 * zod does for them is a `typeof`), and a transform (the first half of a preprocess) is
 * called directly, as zod would call it.
 *
 * `test/properties/fits.property.test.ts` holds the invariant: it says yes exactly when
 * zod's parse succeeds with a value equal to the input.
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk/schema';
 * import { fitsAsIs } from './fits.js';
 *
 * fitsAsIs(personKind.schema, { given_name: 'Ana' }); // true: parsing changes nothing
 * fitsAsIs(personKind.schema, { given_name: 12 }); // false: zod must report it
 * ```
 */
export function fitsAsIs(schema: z.core.$ZodType, value: unknown): boolean {
  return checkerOf(schema)(value);
}

/** Answers whether a value fits its schema as is; see {@link fitsAsIs}. */
type Checker = (value: unknown) => boolean;

// One checker per schema, built on first use: a tree of small closures, so that a
// walk does no `switch` and no lookups in zod's definitions per value.
const checkers = new WeakMap<z.core.$ZodType, Checker>();

function checkerOf(schema: z.core.$ZodType): Checker {
  let checker = checkers.get(schema);
  if (checker === undefined) {
    checker = buildChecker(schema);
    checkers.set(schema, checker);
  }
  return checker;
}

const isString: Checker = (value) => typeof value === 'string';
const isBoolean: Checker = (value) => typeof value === 'boolean';
// zod's number refuses NaN and the infinities, which JSON cannot carry anyway.
const isNumber: Checker = (value) => typeof value === 'number' && Number.isFinite(value);
const anything: Checker = () => true;

function buildChecker(schema: z.core.$ZodType): Checker {
  const def = schema._zod.def as Def;
  const unchecked = def.checks === undefined || def.checks.length === 0;
  switch (def.type) {
    case 'optional': {
      const inner = checkerOf(def.innerType as z.core.$ZodType);
      return (value) => value === undefined || inner(value);
    }
    case 'nullable': {
      const inner = checkerOf(def.innerType as z.core.$ZodType);
      return (value) => value === null || inner(value);
    }
    case 'unknown':
    case 'any':
      return anything;
    case 'string':
      if (unchecked && def.coerce !== true) return isString;
      break;
    case 'boolean':
      if (unchecked && def.coerce !== true) return isBoolean;
      break;
    case 'number':
      if (unchecked && def.coerce !== true) return isNumber;
      break;
    case 'object':
      // A refinement of the whole object would run on zod's copy: left to zod.
      return unchecked ? objectChecker(def) : () => false;
    case 'array': {
      if (!unchecked) return () => false;
      const element = checkerOf(def.element as z.core.$ZodType);
      return (value) => {
        if (!Array.isArray(value)) return false;
        for (const item of value) if (!element(item)) return false;
        return true;
      };
    }
    case 'record':
      return unchecked ? recordChecker(def) : () => false;
    case 'union': {
      // zod gives the first option that succeeds: the value fits when an option takes it
      // as is and every option before it fails (one that succeeds with a changed value
      // would win).
      const options = (def.options as z.core.$ZodType[]).map((option) => ({
        fits: checkerOf(option),
        takes: (value: unknown) => {
          const result = option._zod.run({ value, issues: [] }, { async: false });
          return result instanceof Promise || result.issues.length === 0;
        },
      }));
      return (value) => {
        for (const option of options) {
          if (option.fits(value)) return true;
          if (option.takes(value)) return false;
        }
        return false;
      };
    }
    case 'transform': {
      // What zod's transform does on a synchronous parse, without its wrapping: call the
      // function with the value and a payload it may add issues to.
      const transform = def.transform as (value: unknown, payload: Payload) => unknown;
      return (value) => {
        const payload: Payload = { value, issues: [] };
        return transform(value, payload) === value && payload.issues.length === 0;
      };
    }
    case 'pipe':
      // zod runs `in`, then `out` on what `in` gave: when `in` gives the value back
      // (a preprocess with nothing to fix), the pipe is `out` on the same value.
      if (unchecked) {
        const first = checkerOf(def.in as z.core.$ZodType);
        const second = checkerOf(def.out as z.core.$ZodType);
        return (value) => first(value) && second(value);
      }
      break;
  }
  // Anything else: zod parses the single value; it fits when nothing changed.
  return (value) => {
    const result = schema._zod.run({ value, issues: [] }, { async: false });
    return !(result instanceof Promise) && result.issues.length === 0 && result.value === value;
  };
}

/** The parts of zod's schema definitions this walk reads. */
interface Def {
  type: string;
  checks?: readonly unknown[];
  coerce?: boolean;
  innerType?: unknown;
  element?: unknown;
  options?: unknown;
  in?: unknown;
  out?: unknown;
  shape?: Record<string, z.core.$ZodType>;
  catchall?: z.core.$ZodType;
  keyType?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  transform?: unknown;
}

/** The payload zod hands a transform: the value, and where to add issues. */
interface Payload {
  value: unknown;
  issues: unknown[];
}

// What JSON.parse builds. zod's copy of any other object (one without a prototype, a
// class instance) would be a plain object, so not the same value.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/**
 * An object fits when every member of the shape it has fits, every member the shape
 * lacks is allowed as is by the catchall (loose objects keep them), and no member the
 * shape requires (or would fill with a default) is missing. The value's members are walked (a person has about 20),
 * not the shape's (about 60). An own `__proto__` member (JSON.parse makes one) is left
 * to zod, which assigns members rather than copying them.
 */
function objectChecker(def: Def): Checker {
  const shape = new Map<string, Checker>();
  const required = new Set<string>();
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    shape.set(key, checkerOf(field));
    // Missing is fine only for a member that stays missing: a default would be filled in.
    if (field._zod.optin !== 'optional' || field._zod.optout !== 'optional') required.add(key);
  }
  // No catchall: zod strips unknown members, so the output would differ. A `never`
  // catchall (strict objects) refuses them.
  const catchall: Checker = def.catchall === undefined ? () => false : checkerOf(def.catchall);
  return (value) => {
    if (!isPlainObject(value)) return false;
    let present = 0;
    for (const key in value) {
      if (key === '__proto__') return false;
      const field = shape.get(key);
      if (field === undefined) {
        if (!catchall(value[key])) return false;
      } else {
        if (!field(value[key])) return false;
        if (required.has(key)) present += 1;
      }
    }
    return present === required.size;
  };
}

function recordChecker(def: Def): Checker {
  if (def.keyType === undefined || def.valueType === undefined) return () => false;
  const keyType = checkerOf(def.keyType);
  const valueType = checkerOf(def.valueType);
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const key in value) {
      if (key === '__proto__' || !keyType(key) || !valueType(value[key])) return false;
    }
    return true;
  };
}

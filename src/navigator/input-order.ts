import { isJsonObject } from '../wire/json-object.js';

// What a write sends is zod's output, whose objects list their members in the schema's
// order. A record read from a server and written back should reach it as it was read,
// member for member and in the same order (the round-trip rule, docs/round-trip.md):
// servers do not care about order, but people comparing requests, signatures over
// bodies and byte-for-byte tests do.

/**
 * `output` (a parsed write body) with the members of each object in the order `input`
 * (what the caller gave) lists them; members the parse added come last. Values are
 * `output`'s: a `Date` stays its ISO string, a renamed member its new name.
 *
 * @example
 * ```ts
 * import { inInputOrder } from './input-order.js';
 *
 * inInputOrder({ b: 1, a: 2 }, { a: 2, b: 1 }); // { b: 1, a: 2 }
 * ```
 */
export function inInputOrder(input: unknown, output: unknown): unknown {
  if (input === output) return output;
  if (Array.isArray(input) && Array.isArray(output)) {
    return output.map((value, index) => inInputOrder(input[index], value));
  }
  if (!isJsonObject(input) || !isJsonObject(output)) return output;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (Object.hasOwn(output, key)) put(ordered, key, inInputOrder(input[key], output[key]));
  }
  for (const key of Object.keys(output)) {
    if (!Object.hasOwn(ordered, key)) put(ordered, key, output[key]);
  }
  return ordered;
}

/** Sets an own member, `__proto__` included (an assignment would set the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

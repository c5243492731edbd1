/**
 * Update rules (spec, Rules for create and update):
 * - a PUT carries only the fields to change; fields not sent are untouched;
 * - a field sent as `null` is cleared;
 * - arrays are replaced whole (members cannot be changed one by one);
 * - objects are merged member by member with the same rules (so `custom_fields:
 *   { shift: null }` removes one custom field and `birthdate: { year: 1990 }` keeps the
 *   month and day) — a choice the spec leaves open;
 * - read-only fields are ignored.
 */

import { isJsonObject } from 'adis-sdk/server-kit';
import type { JsonObject } from '../storage/storage.js';

/**
 * Whether `value` is a plain JSON object (not an array, not null).
 */
export function isPlainObject(value: unknown): value is JsonObject {
  return isJsonObject(value);
}

/**
 * Deep copy of JSON data, dropping members whose value is `null` or `undefined`: on
 * create, `null` means "not set".
 *
 * @example
 * ```ts
 * import { dropNulls } from './merge.js';
 *
 * dropNulls({ a: null, b: { c: null, d: 1 } }); // { b: { d: 1 } }
 * ```
 */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => dropNulls(item)) as T;
  if (isPlainObject(value)) {
    const out: JsonObject = {};
    for (const [key, member] of Object.entries(value)) {
      if (member === null || member === undefined) continue;
      out[key] = dropNulls(member);
    }
    return out as T;
  }
  return value;
}

/**
 * Applies a partial update to a document and returns the new document (the inputs are
 * not changed). Keys in `ignore` (read-only fields) are skipped.
 *
 * @example
 * ```ts
 * import { applyPatch } from './merge.js';
 *
 * applyPatch({ a: 1, b: [1, 2], c: { x: 1, y: 2 } }, { a: null, b: [3], c: { y: 3 } });
 * // { b: [3], c: { x: 1, y: 3 } }
 * ```
 */
export function applyPatch(
  current: JsonObject,
  patch: JsonObject,
  ignore: readonly string[] = [],
): JsonObject {
  const out: JsonObject = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (ignore.includes(key) || value === undefined) continue;
    if (value === null) {
      delete out[key];
    } else if (isPlainObject(value) && isPlainObject(out[key])) {
      out[key] = applyPatch(out[key] as JsonObject, value);
    } else {
      out[key] = dropNulls(value);
    }
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * `current` with only its empty parts taken from `sent`, objects member by member: what
 * a caller without a key may write (it fills gaps, never changes what is stored, and its
 * `null` clears nothing).
 *
 * @example
 * ```ts
 * import { fillGaps } from './merge.js';
 *
 * fillGaps({ year: 1990 }, { year: 1970, month: 5 }); // { year: 1990, month: 5 }
 * fillGaps('', 'Yes!'); // 'Yes!'
 * ```
 */
export function fillGaps(current: unknown, sent: unknown): unknown {
  if (isEmpty(current)) return dropNulls(sent);
  if (!isPlainObject(current) || !isPlainObject(sent)) return current;
  const out: JsonObject = { ...current };
  for (const [key, value] of Object.entries(sent)) {
    if (value === null || value === undefined) continue;
    const filled = fillGaps(current[key], value);
    if (filled !== undefined) out[key] = filled;
  }
  return out;
}

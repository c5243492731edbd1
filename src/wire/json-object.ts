/**
 * True when `value` is a JSON object: not an array, not null. Every layer reads bodies,
 * links and records through this one predicate, so all agree on what an object is.
 *
 * @example
 * ```ts
 * import { isJsonObject } from 'adis-sdk/server-kit';
 *
 * isJsonObject({}); // true
 * isJsonObject([]); // false
 * isJsonObject(null); // false
 * ```
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Counts in the start-up lines (`1 key`, `2 keys`, `1 demo person`).
 */

/**
 * `n thing` or `n things`: the count with its noun agreeing (`many` for irregular plurals).
 *
 * @example
 * ```ts
 * import { count } from './count.js';
 *
 * count(1, 'key'); // '1 key'
 * count(300, 'demo person', 'demo people'); // '300 demo people'
 * ```
 */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

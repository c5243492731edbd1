/**
 * The demo seed's choices, all drawn from one seeded PRNG (`prng` of `seed.ts`), so a
 * given seed always makes the same choices in the same order.
 */

/**
 * PRNG-driven choices: integers, coin flips, picks, samples, weighted picks, hex.
 *
 * @example
 * ```ts
 * import { prng } from '../seed.js';
 * import { Chooser } from './chooser.js';
 *
 * const choose = new Chooser(prng(7));
 * choose.int(10, 40); // the same number for seed 7, every run
 * choose.sample(['a', 'b', 'c'], 2); // two distinct values, in random order
 * ```
 */
export class Chooser {
  constructor(private readonly random: () => number) {}

  /** An integer from `low` to `high`, both included. */
  int(low: number, high: number): number {
    return low + Math.floor(this.random() * (high - low + 1));
  }

  /** True with the given probability. */
  chance(probability: number): boolean {
    return this.random() < probability;
  }

  /** One of `values`. */
  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)] as T;
  }

  /** `count` distinct values (fewer when there are fewer), in random order. */
  sample<T>(values: readonly T[], count: number): T[] {
    const copy = [...values];
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.random() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.random() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  /** `length` random hexadecimal digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.random() * 16).toString(16);
    return out;
  }
}

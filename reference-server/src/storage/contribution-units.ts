/**
 * Contributions and totals as both engines store them: integers in units of 1/10000.
 * Integers, so that a total is exact whatever order its rows are summed in; each value
 * rounded on its own, so that a total is the same whichever way its contributions were
 * grouped into writes. Each engine keeps its own SQL; the arithmetic is here once.
 */
import type { Contribution, ParentRef } from './storage.js';

/** Stored units per unit of a contribution's value (an amount's 1/10000). */
const TOTAL_SCALE = 10000;

/**
 * A contribution's value in stored units, rounded on its own.
 */
function toScaled(value: number): number {
  const scaled = Math.round(value * TOTAL_SCALE);
  if (!Number.isSafeInteger(scaled)) {
    throw new RangeError(`contribution ${value} is not a finite amount within range`);
  }
  return scaled;
}

/**
 * A stored total read back as a number. An integer over 10000 is correctly rounded:
 * 3000 reads back as exactly 0.3. `pg` gives a sum of BIGINT as text, SQLite a number.
 */
function fromScaled(value: string | number): number {
  return Number(value) / TOTAL_SCALE;
}

/**
 * One write's contributions summed by parent record and name, in stored units: the
 * same (parent, name) twice in one write is one row, as the table's key allows.
 * `parentSeqOf` gives the parent's seq, or undefined when it does not exist (then the
 * contribution is skipped).
 */
export function contributionSums<K = number>(
  contributions: readonly Contribution[],
  parentSeqOf: (parent: ParentRef) => K | undefined,
): Map<K, Map<string, number>> {
  const sums = new Map<K, Map<string, number>>();
  for (const contribution of contributions) {
    const scaled = toScaled(contribution.value);
    const parentSeq = parentSeqOf(contribution.parent);
    if (parentSeq === undefined) continue;
    let byName = sums.get(parentSeq);
    if (!byName) {
      byName = new Map();
      sums.set(parentSeq, byName);
    }
    byName.set(contribution.name, (byName.get(contribution.name) ?? 0) + scaled);
  }
  return sums;
}

/**
 * Totals rows (`{ id, name, value }`, in stored units) gathered into totals by record id
 * and name, for {@link Storage.totalsOf}.
 *
 * @example
 * ```ts
 * import { totalsById } from './contribution-units.js';
 *
 * totalsById([{ id: 'p1', name: 'total_amount', value: 250000 }]); // Map { 'p1' => { total_amount: 25 } }
 * ```
 */
export function totalsById(
  rows: readonly { id: string; name: string; value: string | number }[],
): Map<string, Record<string, number>> {
  const totals = new Map<string, Record<string, number>>();
  for (const row of rows) {
    let byName = totals.get(row.id);
    if (!byName) {
      byName = {};
      totals.set(row.id, byName);
    }
    byName[row.name] = fromScaled(row.value);
  }
  return totals;
}

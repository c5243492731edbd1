/**
 * What a sync copies and in which order, derived from the kinds' declarations (their
 * relations and helpers), never listed by hand: a kind's copies link the copies of the
 * records it links, so those kinds come first; a kind that lives under a parent (a
 * signature under its petition) is written into the parent's copy.
 */
import {
  type AnyKind,
  KINDS,
  type ManyRelation,
  type OneRelation,
  type RecordHelper,
} from '../schema/index.js';

/** Where the records of a kind are written on the target: under a parent, or at the top. */
export interface Placement {
  /** The parent's kind (`petition` for signatures). */
  parent: AnyKind;
  /** The kind's relation to its parent (`std:petition`). */
  via: OneRelation;
  /** The parent's relation to its records (`std:signatures`). */
  records: ManyRelation;
  /** The parent's record helper that makes one (`recordSignature`), if it has one. */
  helper: RecordHelper | undefined;
}

/** One kind of the plan. */
export interface PlannedKind {
  kind: AnyKind;
  /** Where its records are written; undefined: in the target's collection of the kind. */
  placement: Placement | undefined;
  /** The kinds it links by a one-relation (other than its placement), by singular name. */
  links: readonly OneRelation[];
  /**
   * The kind of its children after which its copies written in a run are written once
   * more (see `WRITTEN_AGAIN_AFTER`); undefined for most kinds.
   */
  writtenAgainAfter: string | undefined;
}

/**
 * Kinds with a member that counts their children, by the kind of those children: a copy
 * written before its children would count them twice. An event's
 * `ticket_levels[].limit` is the tickets still available (the reference server stores the
 * capacity, and subtracts the tickets sold): an event copied with 43 available, then its
 * 37 attendances, would have 6 left. Written again once its attendances are copied, it
 * has 43 again.
 */
export const WRITTEN_AGAIN_AFTER: Readonly<Record<string, string>> = { event: 'attendance' };

/** Relations the server sets by itself (who last changed a record): never copied. */
const SERVER_SET: readonly string[] = ['std:modified_by'];

/** People hold views of everyone's actions (a person's signatures): never a placement. */
const NOT_A_PARENT = 'person';

/** The parent's many-relation to `kind`. */
function recordsOf(parent: AnyKind, kind: AnyKind): ManyRelation | undefined {
  return Object.values(parent.relations).find(
    (relation): relation is ManyRelation =>
      relation.type === 'many' && relation.kind === kind.singular,
  );
}

/**
 * Where a kind's records live: under the kind whose record helper makes them (a
 * petition's `recordSignature`), else under the kind a required relation leads to that
 * lists them (a tagging's tag); at the top otherwise.
 */
function placementOf(kind: AnyKind, kinds: readonly AnyKind[]): Placement | undefined {
  const ones = Object.values(kind.relations).filter(
    (relation): relation is OneRelation => relation.type === 'one',
  );
  for (const parent of kinds) {
    if (parent.singular === NOT_A_PARENT) continue;
    const helper = Object.values(parent.helpers).find(
      (h): h is RecordHelper => h.type === 'record' && h.record === kind.singular,
    );
    const via = ones.find((relation) => relation.kind === parent.singular);
    const records = recordsOf(parent, kind);
    if (helper && via && records) return { parent, via, records, helper };
  }
  for (const via of ones) {
    if (!via.required || via.kind === NOT_A_PARENT) continue;
    const parent = kinds.find((k) => k.singular === via.kind);
    const records = parent && recordsOf(parent, kind);
    if (parent && records) return { parent, via, records, helper: undefined };
  }
  return undefined;
}

/**
 * The kinds to copy, parents before children: those asked for (by plural name; default
 * every kind) and every kind they need (their placement, their required relations),
 * in the registry's order where nothing decides it.
 *
 * @example
 * ```ts
 * import { syncPlan } from 'adis-sdk/sync';
 *
 * syncPlan(['signatures']).map((k) => k.kind.plural); // ['people', 'petitions', 'signatures']
 * ```
 */
export function syncPlan(
  asked?: readonly string[],
  kinds: readonly AnyKind[] = KINDS,
): PlannedKind[] {
  const byName = new Map(kinds.map((kind) => [kind.singular, kind]));
  const unknown = asked?.filter((plural) => !kinds.some((kind) => kind.plural === plural));
  if (unknown?.length) {
    throw new RangeError(
      `no kind named ${unknown.join(', ')}; the kinds are ${kinds.map((k) => k.plural).join(', ')}`,
    );
  }
  const wanted = new Set(
    asked === undefined
      ? kinds.map((kind) => kind.singular)
      : kinds.filter((kind) => asked.includes(kind.plural)).map((kind) => kind.singular),
  );
  // The kinds asked for need their parents and the kinds every record of theirs links.
  const needs = (kind: AnyKind): string[] =>
    Object.values(kind.relations)
      .filter((r): r is OneRelation => r.type === 'one' && (r.required || wanted.has(r.kind)))
      .map((r) => r.kind)
      .concat(placementOf(kind, kinds)?.parent.singular ?? []);
  for (const name of [...wanted]) {
    const stack = [name];
    while (stack.length > 0) {
      const kind = byName.get(stack.pop() as string);
      for (const need of kind ? needs(kind) : []) {
        if (!wanted.has(need)) {
          wanted.add(need);
          stack.push(need);
        }
      }
    }
  }
  // Depth-first, in registry order: a kind after every kind it links (cycles, such as a
  // donation's attendance, are broken where they close).
  const ordered: PlannedKind[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (kind: AnyKind): void => {
    if (placed.has(kind.singular) || visiting.has(kind.singular)) return;
    visiting.add(kind.singular);
    const placement = placementOf(kind, kinds);
    const links = Object.values(kind.relations).filter(
      (r): r is OneRelation =>
        r.type === 'one' &&
        wanted.has(r.kind) &&
        r.rel !== placement?.via.rel &&
        !SERVER_SET.includes(r.rel),
    );
    if (placement) visit(placement.parent);
    for (const link of links) {
      const linked = byName.get(link.kind);
      if (linked && linked !== kind) visit(linked);
    }
    visiting.delete(kind.singular);
    placed.add(kind.singular);
    const after = WRITTEN_AGAIN_AFTER[kind.singular];
    const writtenAgainAfter = after !== undefined && wanted.has(after) ? after : undefined;
    ordered.push({ kind, placement, links, writtenAgainAfter });
  };
  for (const kind of kinds) if (wanted.has(kind.singular)) visit(kind);
  return ordered;
}

/**
 * Reading a kind's changed records from the source, a page at a time, each page with
 * the run's state to save once the page is copied: from the source's collection of the
 * kind when its entry point links one, else parent by parent (a petition's signatures
 * on a server that lists signatures only under their petition).
 */

import type { BaseClient } from '../navigator/client.js';
import { collectionRelations } from '../navigator/collection-relation.js';
import { field } from '../navigator/filter.js';
import type { Resource } from '../navigator/resource.js';
import type { AnyKind } from '../schema/index.js';
import type { PlannedKind } from './plan.js';
import type { KindRun } from './state-store.js';

/** One page of a kind's records, and the run as it stands once they are copied. */
export interface SourcePage {
  items: Resource<object>[];
  /** The source parent they were read under (by address), when read under one. */
  parent: string | undefined;
  /** The source's `total_records` of what is read, when it says. */
  total: number | undefined;
  /** The run to save once the page is copied; null: the kind's read is over. */
  next: KindRun | null;
}

/** Whether the source lists the kind in a collection of its own (its entry point links it). */
export function listsAtTop(client: BaseClient, planned: PlannedKind): boolean {
  return lists(client, planned.kind);
}

/**
 * Whether the source has the kind's records at all: in a collection of their own, or
 * under parents it lists.
 */
export function hasRecords(client: BaseClient, planned: PlannedKind): boolean {
  const parent = planned.placement?.parent;
  return lists(client, planned.kind) || (parent !== undefined && lists(client, parent));
}

function lists(client: BaseClient, kind: AnyKind): boolean {
  return collectionRelations(kind).some((rel) => client.root.link(rel) !== undefined);
}

/** A collection narrowed to what changed at or after `after` (null: everything). */
function changedSince<C extends { filter(filter: { toString(): string }): C }>(
  collection: C,
  after: string | null,
): C {
  return after === null ? collection : collection.filter(field('modified_date').ge(after));
}

/**
 * The pages of the kind's records changed in `run` (all of them when `run.after` is
 * null), from where the run stands: its cursor, the parents it has done.
 */
export async function* readKind(
  client: BaseClient,
  planned: PlannedKind,
  run: KindRun,
  signal: AbortSignal | undefined,
): AsyncGenerator<SourcePage, void, undefined> {
  const paging = { readAhead: true, ...(signal ? { signal } : {}) };
  const placement = planned.placement;
  if (placement === undefined || listsAtTop(client, planned)) {
    const changed = changedSince(client.collection(planned.kind), run.after);
    const pages = run.cursor === null ? changed : changed.fromPage(run.cursor);
    for await (const page of pages.pages(paging)) {
      const next = page.cursor === undefined ? null : { ...run, cursor: page.cursor };
      yield { items: page.items, parent: undefined, total: page.totalRecords, next };
    }
    return;
  }
  const done = new Set(run.parentsDone ?? []);
  for await (const parent of client.collection(placement.parent).items(paging)) {
    if (done.has(parent.url)) continue;
    const changed = changedSince(parent.collection(placement.records), run.after);
    const resumed = run.parent === parent.url && run.cursor !== null;
    const pages = resumed ? changed.fromPage(run.cursor as string) : changed;
    const finished = (): KindRun => {
      const { parent: _, ...rest } = run;
      return { ...rest, parentsDone: [...done, parent.url], cursor: null };
    };
    let marked = false;
    for await (const page of pages.pages(paging)) {
      const next =
        page.cursor === undefined
          ? finished()
          : { ...run, parent: parent.url, cursor: page.cursor };
      marked = page.cursor === undefined;
      yield { items: page.items, parent: parent.url, total: undefined, next };
      run = next;
    }
    // A walk that ended without a last page to say so (an empty collection).
    if (!marked) {
      run = finished();
      yield { items: [], parent: parent.url, total: undefined, next: run };
    }
    done.add(parent.url);
  }
  yield { items: [], parent: undefined, total: undefined, next: null };
}

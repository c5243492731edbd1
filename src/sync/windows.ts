/**
 * Reading a collection of a source that pages by number in no stable order (Action
 * Network), where `?page=2` may hold what `?page=1` held a moment ago: in windows of
 * `modified_date`, each read in one request, and split in two when one page cannot hold
 * it (docs/syncing.md, "Servers that page by number"; examples/sync-changes.ts is the
 * same walk for people alone). Only `gt` and `lt` are used, the operators that server
 * has. A window of one second that still does not fit is narrowed by `created_date`,
 * and one that nothing splits is walked page by page until two walks agree.
 */
import type { BaseClient } from '../navigator/client.js';
import type { Collection, Page } from '../navigator/collection.js';
import { field } from '../navigator/filter.js';
import type { Resource } from '../navigator/resource.js';
import type { PlannedKind } from './plan.js';
import type { SourcePage } from './read-kind.js';
import type { DateRange, KindRun, SyncWindow } from './state-store.js';

const SECOND = 1000;

/** The most walks of a window the dates cannot split. */
const MAX_WALKS = 10;

type Records = Collection<Resource<object>>;

/** An instant as that server writes it: whole seconds, rounded down. */
function wholeSecond(ms: number): string {
  return new Date(Math.floor(ms / SECOND) * SECOND).toISOString().replace('.000Z', 'Z');
}

/**
 * The window a run by windows starts with: from the second before `after` (the bound
 * is excluded) to the second after the run's start (ms, by the source's clock).
 *
 * @example
 * ```ts
 * import { firstWindow } from './windows.js';
 *
 * firstWindow(null, Date.parse('2026-12-01T10:00:00Z')); // { after: null, before: '2026-12-01T10:00:01Z' }
 * ```
 */
export function firstWindow(after: string | null, start: number): SyncWindow {
  return {
    after: after === null ? null : wholeSecond(Date.parse(after) - SECOND),
    before: wholeSecond(start + SECOND),
  };
}

function windowFilter(window: SyncWindow) {
  let filter = field('modified_date').lt(window.before);
  if (window.after !== null) filter = field('modified_date').gt(window.after).and(filter);
  const created = window.created;
  if (created?.after) filter = filter.and(field('created_date').gt(created.after));
  if (created) filter = filter.and(field('created_date').lt(created.before));
  return filter;
}

/** A range in two that together hold every instant of it (undefined: two seconds or less). */
function halve(range: DateRange): [DateRange, DateRange] | undefined {
  const after = range.after === null ? 0 : Date.parse(range.after);
  const seconds = Math.floor((Date.parse(range.before) - after) / SECOND);
  if (seconds < 3) return undefined;
  const middle = after + Math.max(2, Math.floor(seconds / 2)) * SECOND;
  return [
    { after: range.after, before: wholeSecond(middle) },
    { after: wholeSecond(middle - SECOND), before: range.before },
  ];
}

/** A window in two: by `modified_date`, or within one second of it by `created_date`. */
function split(window: SyncWindow): [SyncWindow, SyncWindow] | undefined {
  if (window.created === undefined) {
    const halves = halve(window);
    if (halves !== undefined) return halves;
  }
  const created = halve(window.created ?? { after: null, before: window.before });
  if (created === undefined) return undefined;
  const modified = { after: window.after, before: window.before };
  return [
    { ...modified, created: created[0] },
    { ...modified, created: created[1] },
  ];
}

/** Whether a page is its window whole: one answer that says it has no more. */
function isWhole(page: Page<Resource<object>> | undefined): boolean {
  if (page === undefined || page.next === undefined) return true;
  return page.perPage !== undefined && page.items.length < page.perPage;
}

function outside(range: DateRange, date: unknown): boolean {
  const instant = Date.parse(String(date));
  const low = range.after === null ? Number.NEGATIVE_INFINITY : Date.parse(range.after);
  return instant < low - SECOND || instant > Date.parse(range.before) + SECOND;
}

/** Throws when a page holds a record outside its window: the source ignored the filter. */
function checkInside(window: SyncWindow, page: Page<Resource<object>> | undefined): void {
  for (const { url, document } of page?.items ?? []) {
    const { modified_date: modified, created_date: created } = document.body;
    if (outside(window, modified) || (window.created && outside(window.created, created))) {
      throw new RangeError(
        `${page?.url} holds ${url}, modified ${String(modified)} and created ${String(created)}, outside the window asked for: the source ignored the filter (reading a server that pages by number needs modified_date and created_date filters with gt and lt)`,
      );
    }
  }
}

/**
 * Walks a window the dates cannot split until two walks end on the same count and the
 * walks after the first saw that many records; each record is yielded once.
 */
async function* walks(records: Records, signal: AbortSignal | undefined) {
  const handed = new Set<string>();
  let count: number | undefined;
  let seenSince = new Set<string>();
  for (let walk = 0; walk < MAX_WALKS; walk += 1) {
    const seen: string[] = [];
    let last: Page<Resource<object>> | undefined;
    let walked = 0;
    for await (const page of records.pages(signal ? { signal } : {})) {
      walked += 1;
      last = page;
      const fresh = page.items.filter((record) => !handed.has(record.url));
      for (const record of page.items) seen.push(record.url);
      for (const record of fresh) handed.add(record.url);
      if (fresh.length > 0) yield fresh;
    }
    const now =
      last === undefined
        ? 0
        : last.perPage === undefined
          ? undefined
          : (walked - 1) * last.perPage + last.items.length;
    if (now === undefined || now !== count) {
      count = now;
      seenSince = new Set();
      continue;
    }
    for (const url of seen) seenSince.add(url);
    if (seenSince.size === count) return;
  }
  throw new RangeError(
    `more records than a page holds were created and modified in the second before ${records.toString()}, and ${MAX_WALKS} walks of their pages could not prove that none was missed: run the sync again later`,
  );
}

/**
 * The pages of a kind's records changed in `run`, read by windows: the last window of
 * `run.windows` is read with one request, and either copied (it was whole) or put back
 * as its two halves; the run to save after each says the windows left.
 */
export async function* readByWindows(
  client: BaseClient,
  planned: PlannedKind,
  run: KindRun,
  signal: AbortSignal | undefined,
): AsyncGenerator<SourcePage, void, undefined> {
  let windows = run.windows ?? [];
  const collection = client.collection(planned.kind);
  for (let window = windows.at(-1); window !== undefined; window = windows.at(-1)) {
    const records = collection.filter(windowFilter(window));
    let first: Page<Resource<object>> | undefined;
    for await (const page of records.pages({ limit: 1, ...(signal ? { signal } : {}) })) {
      first = page;
    }
    checkInside(window, first);
    const whole = isWhole(first);
    const halves = whole ? undefined : split(window);
    windows = windows.slice(0, -1);
    const next = (): KindRun | null => (windows.length === 0 ? null : { ...run, windows });
    if (halves !== undefined) {
      // The older half last, so read next: the run goes up the dates.
      windows.push(halves[1], halves[0]);
      yield { items: [], parent: undefined, total: undefined, next: next() };
    } else if (whole) {
      yield { items: first?.items ?? [], parent: undefined, total: undefined, next: next() };
    } else {
      // Nothing the source filters on tells these records apart: walk their pages.
      for await (const items of walks(records, signal)) {
        yield {
          items,
          parent: undefined,
          total: undefined,
          next: { ...run, windows: [...windows, window] },
        };
      }
      yield { items: [], parent: undefined, total: undefined, next: next() };
    }
  }
}

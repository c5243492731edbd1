/**
 * Keep a copy of a server's people: a full sync the first time, then incremental syncs
 * of what changed by `modified_date`, crash-safe. The state is saved atomically after
 * every page, so a run that is killed goes on, when started again, with the page after
 * the last one it stored; and a change is never missed between runs. docs/syncing.md
 * explains each choice.
 *
 *   npx tsx examples/sync-changes.ts <entry point URL> <API key> [state file]
 *     [--overlap <seconds>] [--paging cursor|number] [--server action-network]
 *
 * or with ADIS_URL and ADIS_KEY in the environment. The state file (default
 * `.sync-state.json`) is the copy's bookmark; delete it to sync everything again.
 * Works against any server that supports `filter=modified_date ge '…'` (docs/filtering.md).
 * On a server that pages by number in no stable order (Action Network), `--paging number`
 * reads windows of `modified_date` small enough to fit on one page instead, with `gt` and
 * `lt` only; `--server action-network` sets it, with that server's key header and rate.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  type BaseClient,
  type Collections,
  connect,
  connectWith,
  field,
  isAdisError,
  type Page,
  type PersonResource,
  personKind,
  presetNamed,
  SERVER_PRESETS,
} from 'adis-sdk';

/**
 * A client with the people collection: what `connectWith([personKind], …)` returns, and
 * what `connect` returns too (a client of every kind has it).
 */
export type PeopleClient = BaseClient & Collections<typeof personKind>;

/**
 * How a server pages a collection, which decides how a run reads it: `cursor`, by
 * following `next` links that a change elsewhere in the collection does not shift (the
 * reference server's `after=`); `number`, by `?page=N` in an order that may change between
 * two requests (Action Network), where a run reads windows of `modified_date` that each
 * fit on one page.
 */
export type Paging = 'cursor' | 'number';

/** A range of dates, both ends excluded, in whole seconds. */
export interface DateRange {
  /** After this instant; null: no lower bound. */
  after: string | null;
  /** Before this instant. */
  before: string;
}

/**
 * The people modified in a range of dates (`modified_date gt '<after>' and modified_date
 * lt '<before>'`), read in one request, or split in two when one page cannot hold them.
 */
export interface SyncWindow extends DateRange {
  /**
   * Only in a window of one second of `modified_date` that a page cannot hold (a mass
   * update): the range of `created_date` it is narrowed to, split in turn.
   */
  created?: DateRange;
}

/** A sync run under way: saved after each page, so that a crash resumes it. */
export interface SyncRun {
  /** The run reads the changes at or after this instant; null: everyone (a full sync). */
  after: string | null;
  /** The run's start by the server's clock, less the overlap: the next run's `after`. */
  mark: string;
  /** The cursor of the page after the last one stored; null: no page stored yet. */
  cursor: string | null;
  /** A run by windows (`paging: 'number'`) only: the windows still to read, next last. */
  windows?: SyncWindow[];
}

/** What the copy remembers between runs. */
export interface SyncState {
  /** Every change before this instant is in the copy; null: no sync has finished. */
  since: string | null;
  /** The run under way, or null between runs. */
  run: SyncRun | null;
}

/** What {@link syncPeople} did. */
export interface SyncResult {
  /** The state saved last: the next run's start. */
  state: SyncState;
  /** How many people were fetched (and handed to `handle`). */
  fetched: number;
  /** How many pages were fetched. */
  pages: number;
  /** Whether the run went on from a run interrupted earlier. */
  resumed: boolean;
  /**
   * A run by windows only: the windows of one second of `modified_date` and one of
   * `created_date` that held a full page (a bulk import), whose repeated walks could not
   * prove that no one was missed: people kept leaving them, or the server does not say
   * how many a page holds (docs/syncing.md). Empty for a cursor run.
   */
  unproven: SyncWindow[];
}

/** Options of {@link syncPeople}. */
export interface SyncOptions {
  /**
   * How far before its start a run's mark is put, ms (default 60 000): covers a write
   * stamped before it was committed, and servers whose machines' clocks differ. The
   * people changed in that window come twice, which an upsert makes harmless.
   */
  overlapMs?: number;
  /**
   * How the server pages (default `cursor`): `number` for a server that pages by
   * `?page=N` in no stable order, such as Action Network. A run then reads windows of
   * `modified_date` that fit on one page each, filtering with `gt` and `lt` only. An
   * interrupted run resumes the way it started, whatever this says.
   */
  paging?: Paging;
}

/** The empty state: nothing synced yet. */
export const NEVER_SYNCED: SyncState = { since: null, run: null };

/**
 * The server's clock now, from the `Date` header of a request to the entry point, or
 * the local clock when the server sends none: the marks are compared with the
 * server's `modified_date` values, so they must be by its clock.
 */
async function serverNow(client: PeopleClient): Promise<Date> {
  const response = await client.transport.request({ method: 'GET', url: client.root.url });
  const header = response.headers.get('date');
  const parsed = header ? Date.parse(header) : Number.NaN;
  return Number.isNaN(parsed) ? new Date() : new Date(parsed);
}

/** The later of two instants (null: none). */
function later(a: string | null, b: string): string {
  return a !== null && Date.parse(a) > Date.parse(b) ? a : b;
}

/**
 * Runs one sync: everyone the first time, then the people changed at or after the
 * previous run's mark; or, when `state` holds a run that was interrupted, that run from
 * its saved cursor. Each person goes to `handle` (store it by its URL or identifier:
 * an upsert, since a person may come twice), and after each page `save` receives the
 * new state. `handle` must have stored a page's people durably when `save` is called.
 *
 * The mark is taken before anything is read and kept across a resume: a person
 * changed while the run pages (in creation order, so perhaps behind it) has a later
 * `modified_date` and comes in the next run. Deletions are not seen through a filter;
 * a full sync (delete the state) finds them.
 *
 * With `paging: 'number'` (a server that pages by `?page=N` in no stable order) the run
 * reads windows of `modified_date`, each in one request, and `save` receives the windows
 * still to read instead of a cursor; `result.unproven` lists the seconds too crowded to
 * read in one request whose walks could not prove that no one was missed.
 *
 * @example
 * ```ts
 * const client = await connectWith([personKind], url, { apiKey });
 * const result = await syncPeople(client, await loadState(path), upsert, (state) =>
 *   saveState(path, state),
 * );
 *
 * // Action Network: pages by number, in no stable order.
 * const an = await connect('https://actionnetwork.org/api/v2/', { ...actionNetwork, apiKey });
 * await syncPeople(an, await loadState(path), upsert, (state) => saveState(path, state), {
 *   paging: 'number',
 * });
 * ```
 */
export async function syncPeople(
  client: PeopleClient,
  state: SyncState,
  handle: (person: PersonResource) => void | Promise<void>,
  save: (state: SyncState) => Promise<void>,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const resumed = state.run !== null;
  const since = state.since;
  let run = state.run;
  if (run === null) {
    const overlap = options.overlapMs ?? 60_000;
    const now = await serverNow(client);
    const mark = new Date(now.getTime() - overlap).toISOString();
    run = { after: since, mark, cursor: null };
    if (options.paging === 'number') run.windows = [firstWindow(since, now)];
    // Saved before the first page, so that a resumed run keeps this mark.
    state = { since, run };
    await save(state);
  }
  // The run is over: what changed before its mark is in the copy. The mark never moves
  // back (a server clock set back, or an overlap made longer).
  const finished: SyncState = { since: later(since, run.mark), run: null };
  if (run.windows !== undefined) {
    return { ...(await syncWindows(client, since, run, finished, handle, save)), resumed };
  }
  const changed =
    run.after === null ? client.people : client.people.filter(field('modified_date').ge(run.after));
  const people = run.cursor === null ? changed : changed.fromPage(run.cursor);
  let fetched = 0;
  let pages = 0;
  for await (const page of people.pages({ readAhead: true })) {
    for (const person of page.items) await handle(person);
    fetched += page.items.length;
    pages += 1;
    run = { ...run, cursor: page.cursor ?? null };
    state = page.cursor === undefined ? finished : { since, run };
    await save(state);
  }
  // Paging also ends on an empty page, or on an empty collection.
  if (state.run !== null) {
    state = finished;
    await save(state);
  }
  return { state, fetched, pages, resumed, unproven: [] };
}

const SECOND = 1000;

/** An instant as Action Network writes it: whole seconds, rounded down, no milliseconds. */
function wholeSecond(ms: number): string {
  return new Date(Math.floor(ms / SECOND) * SECOND).toISOString().replace('.000Z', 'Z');
}

/**
 * The window a run by windows starts with: from the second of `since` (the previous
 * run's mark; the bound is excluded, so one second before it) to the second the run
 * starts, included. A person changed during the run goes above it, out of every window
 * of this run: the windows can only lose people while the run reads them.
 */
function firstWindow(since: string | null, start: Date): SyncWindow {
  return {
    after: since === null ? null : wholeSecond(Date.parse(since) - SECOND),
    before: wholeSecond(start.getTime() + SECOND),
  };
}

/** The filter of a window: `gt` and `lt` only, the operators Action Network has. */
function windowFilter(window: SyncWindow) {
  let filter = field('modified_date').lt(window.before);
  if (window.after !== null) filter = field('modified_date').gt(window.after).and(filter);
  const created = window.created;
  if (created?.after) filter = filter.and(field('created_date').gt(created.after));
  if (created) filter = filter.and(field('created_date').lt(created.before));
  return filter;
}

/**
 * A range in two smaller ones that together hold every instant of it: the second half
 * starts one second before the first ends, so that a person stamped at the very second
 * of the split is in it (both ends are excluded). Undefined for a range of at most two
 * seconds (one whole second inside), which the dates cannot split.
 */
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

/**
 * A window in two that together hold its people: by `modified_date`, or, in one second
 * of it, by `created_date` (never after `modified_date`). Undefined when both dates are
 * down to one second: nothing the server filters on tells those people apart.
 */
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

/**
 * Whether a page is its window whole: the answer to one request, so taken at one moment,
 * that says it has no more (no `next`, or fewer people than a page holds).
 */
function isWhole(page: Page<PersonResource> | undefined): boolean {
  if (page === undefined || page.next === undefined) return true;
  return page.perPage !== undefined && page.items.length < page.perPage;
}

/** Whether a date is outside a range, by more than a second (a server may round). */
function outside(range: DateRange, date: unknown): boolean {
  const instant = Date.parse(String(date));
  const low = range.after === null ? Number.NEGATIVE_INFINITY : Date.parse(range.after);
  return instant < low - SECOND || instant > Date.parse(range.before) + SECOND;
}

/**
 * Throws when a page holds someone outside its window: the server ignored the filter,
 * and splitting would never end.
 */
function checkInside(window: SyncWindow, page: Page<PersonResource> | undefined): void {
  for (const { data } of page?.items ?? []) {
    if (
      outside(window, data.modified_date) ||
      (window.created && outside(window.created, data.created_date))
    ) {
      throw new Error(
        `${page?.url} holds a person modified ${data.modified_date} and created ${data.created_date}, outside the window: the server ignored the filter (paging by number needs modified_date and created_date with gt and lt)`,
      );
    }
  }
}

/** The most walks of a window that the dates cannot split, proven or not. */
const MAX_WALKS = 10;

/**
 * How many people matched at the end of a walk: its last page is a slice of them at
 * that moment, after the pages before it (undefined when the server does not say how
 * many a page holds).
 */
function countAtEnd(pages: number, last: Page<PersonResource> | undefined): number | undefined {
  if (last === undefined) return 0;
  return last.perPage === undefined ? undefined : (pages - 1) * last.perPage + last.items.length;
}

/**
 * Reads a window that the dates cannot split by walking its pages, again and again,
 * each person going to `handle` once. It is proven read when two walks end on the same
 * count and the walks after the first of them saw that many people: a past second can
 * only lose people (to a change), so the same count twice means no one left in between,
 * and whoever those walks saw was there. Gives up after MAX_WALKS walks.
 */
async function readByWalks(
  people: PeopleClient['people'],
  handle: (person: PersonResource) => void | Promise<void>,
): Promise<{ fetched: number; pages: number; proven: boolean }> {
  const handed = new Set<string>();
  let pages = 0;
  let count: number | undefined;
  // Who the walks saw since `count` was last found (not in the walk that found it).
  let seenSince = new Set<string>();
  for (let walk = 0; walk < MAX_WALKS; walk += 1) {
    const seen: string[] = [];
    let last: Page<PersonResource> | undefined;
    let walked = 0;
    for await (const page of people.pages()) {
      walked += 1;
      last = page;
      for (const person of page.items) {
        seen.push(person.url);
        if (handed.has(person.url)) continue;
        handed.add(person.url);
        await handle(person);
      }
    }
    pages += walked;
    const now = countAtEnd(walked, last);
    if (now === undefined || now !== count) {
      count = now;
      seenSince = new Set();
      continue;
    }
    for (const url of seen) seenSince.add(url);
    if (seenSince.size === count) return { fetched: handed.size, pages, proven: true };
  }
  return { fetched: handed.size, pages, proven: false };
}

/**
 * A run by windows: takes the last window of the run's list, reads its first page with
 * its filter, and either stores it (the window was whole) or puts the window's two
 * halves in its place; saves after each step. Only ever reads page 1 of a window, so
 * no order between pages matters.
 */
async function syncWindows(
  client: PeopleClient,
  since: string | null,
  run: SyncRun,
  finished: SyncState,
  handle: (person: PersonResource) => void | Promise<void>,
  save: (state: SyncState) => Promise<void>,
): Promise<Omit<SyncResult, 'resumed'>> {
  let windows = run.windows ?? [];
  let state: SyncState = { since, run };
  let fetched = 0;
  let pages = 0;
  const unproven: SyncWindow[] = [];
  for (let window = windows.at(-1); window !== undefined; window = windows.at(-1)) {
    const people = client.people.filter(windowFilter(window));
    let first: Page<PersonResource> | undefined;
    for await (const page of people.pages({ limit: 1 })) first = page;
    pages += 1;
    checkInside(window, first);
    const whole = isWhole(first);
    const halves = whole ? undefined : split(window);
    windows = windows.slice(0, -1);
    if (halves !== undefined) {
      // The older half last, so read next: the run goes up the dates.
      windows.push(halves[1], halves[0]);
    } else if (whole) {
      for (const person of first?.items ?? []) await handle(person);
      fetched += first?.items.length ?? 0;
    } else {
      // Nothing the server filters on tells these people apart: walk their pages.
      const read = await readByWalks(people, handle);
      fetched += read.fetched;
      pages += read.pages;
      if (!read.proven) unproven.push(window);
    }
    state = windows.length === 0 ? finished : { since, run: { ...run, windows } };
    await save(state);
  }
  // A saved run with no window left (a state file written by hand) ends here too.
  if (state.run !== null) {
    state = finished;
    await save(state);
  }
  return { state, fetched, pages, unproven };
}

/**
 * Reads the saved state; a missing file means "never synced". A state file of the
 * first version of this example (`{ "since": … }` alone) is read as a state between runs.
 *
 * @example
 * ```ts
 * const state = await loadState('.sync-state.json'); // NEVER_SYNCED the first time
 * ```
 */
export async function loadState(path: string): Promise<SyncState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return NEVER_SYNCED;
    throw error;
  }
  let parsed: Partial<SyncState>;
  try {
    parsed = JSON.parse(text) as Partial<SyncState>;
  } catch {
    throw new Error(`${path} is not a sync state (not JSON); delete it to sync everything again`);
  }
  const run = parsed.run;
  if (!run || typeof run.mark !== 'string') {
    return { since: typeof parsed.since === 'string' ? parsed.since : null, run: null };
  }
  const loaded: SyncRun = {
    after: typeof run.after === 'string' ? run.after : null,
    mark: run.mark,
    cursor: typeof run.cursor === 'string' ? run.cursor : null,
  };
  if (run.windows !== undefined) loaded.windows = windowsOf(path, run.windows);
  return { since: typeof parsed.since === 'string' ? parsed.since : null, run: loaded };
}

/** The saved windows of a run by windows, checked: a damaged list would skip people. */
function windowsOf(path: string, saved: unknown): SyncWindow[] {
  const isInstant = (value: unknown) =>
    typeof value === 'string' && !Number.isNaN(Date.parse(value));
  const isRange = (range: Partial<DateRange> | null | undefined) =>
    typeof range === 'object' &&
    range !== null &&
    isInstant(range.before) &&
    (range.after === null || isInstant(range.after));
  const valid =
    Array.isArray(saved) &&
    saved.every(
      (window: Partial<SyncWindow> | null) =>
        isRange(window) && (window?.created === undefined || isRange(window.created)),
    );
  if (!valid) {
    throw new Error(`${path} holds a damaged list of windows; delete it to sync everything again`);
  }
  return saved as SyncWindow[];
}

/**
 * Saves the state atomically: written to a temporary file, flushed, then renamed over
 * the old one, so a crash leaves the old state or the new one, never half of one.
 *
 * @example
 * ```ts
 * await saveState('.sync-state.json', { since: '2026-11-22T10:00:00.000Z', run: null });
 * ```
 */
export async function saveState(path: string, state: SyncState): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { flush: true });
  await rename(temporary, path);
}

/** What the command line says; undefined when it does not make sense (usage printed). */
function commandLine() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      overlap: { type: 'string' },
      paging: { type: 'string' },
      server: { type: 'string' },
    },
  });
  const url = positionals[0] ?? process.env.ADIS_URL;
  const apiKey = positionals[1] ?? process.env.ADIS_KEY;
  const statePath = positionals[2] ?? '.sync-state.json';
  const overlap = values.overlap === undefined ? undefined : Number(values.overlap);
  const preset = values.server === undefined ? undefined : presetNamed(values.server);
  // Action Network pages people by number, in no stable order.
  const paging = values.paging ?? (values.server === 'action-network' ? 'number' : 'cursor');
  if (
    !url ||
    (overlap !== undefined && !(overlap >= 0)) ||
    (values.server !== undefined && preset === undefined) ||
    (paging !== 'cursor' && paging !== 'number')
  ) {
    console.error(
      'Usage: npx tsx examples/sync-changes.ts <entry point URL> <API key> [state file] [--overlap <seconds>] [--paging cursor|number] [--server <name>]',
    );
    console.error(`Servers: ${Object.keys(SERVER_PRESETS).join(', ')}`);
    return undefined;
  }
  const options: SyncOptions = { paging };
  if (overlap !== undefined) options.overlapMs = overlap * 1000;
  return { url, apiKey, statePath, preset, options };
}

async function main(): Promise<void> {
  const line = commandLine();
  if (line === undefined) {
    process.exitCode = 2;
    return;
  }
  const { url, apiKey, statePath, preset, options } = line;
  const key = apiKey ? { apiKey } : {};
  // Only people are read: the client registers the person kind alone, unless a server
  // preset is named (its key header, rate and own kinds come with it).
  const client: PeopleClient = preset
    ? await connect(url, { ...preset, ...key })
    : await connectWith([personKind], url, key);
  const previous = await loadState(statePath);
  let saved = 0;
  const result = await syncPeople(
    client,
    previous,
    // A real copy upserts into a database here; this one prints.
    (person) => console.log(`${person.data.modified_date}  ${person.url}`),
    async (state) => {
      await saveState(statePath, state);
      if (state.run?.cursor) {
        saved += 1;
        console.log(`Saved after page ${saved}; resume at ${state.run.cursor}`);
      } else if (state.run?.windows) {
        console.log(`Saved; ${state.run.windows.length} windows of dates left to read`);
      }
    },
    options,
  );
  const from = previous.run ? 'the interrupted run' : (previous.since ?? 'the beginning');
  console.log(
    `Fetched ${result.fetched} ${result.fetched === 1 ? 'person' : 'people'} (${result.pages} ${result.pages === 1 ? 'page' : 'pages'}) since ${from}; next run starts at ${result.state.since}.`,
  );
  for (const window of result.unproven) {
    console.error(
      `More people than a page holds were created and modified in the second before ${window.before}, and repeated walks of their pages could not prove that none was missed (docs/syncing.md).`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(isAdisError(error) ? error.message : error);
    process.exitCode = 1;
  });
}

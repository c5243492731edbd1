/**
 * Keep a copy of a server's people: a full sync the first time, then incremental syncs
 * of what changed by `modified_date`, crash-safe. The state is saved atomically after
 * every page, so a run that is killed goes on, when started again, with the page after
 * the last one it stored; and a change is never missed between runs. docs/syncing.md
 * explains each choice.
 *
 *   npx tsx examples/sync-changes.ts <entry point URL> <API key> [state file] [--overlap <seconds>]
 *
 * or with ADIS_URL and ADIS_KEY in the environment. The state file (default
 * `.sync-state.json`) is the copy's bookmark; delete it to sync everything again.
 * Works against any server that supports `filter=modified_date ge '…'` (docs/filtering.md).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  type BaseClient,
  type Collections,
  connectWith,
  field,
  isAdisError,
  type PersonResource,
  personKind,
} from 'adis-sdk';

/**
 * A client with the people collection: what `connectWith([personKind], …)` returns, and
 * what `connect` returns too (a client of every kind has it).
 */
export type PeopleClient = BaseClient & Collections<typeof personKind>;

/** A sync run under way: saved after each page, so that a crash resumes it. */
export interface SyncRun {
  /** The run reads the changes at or after this instant; null: everyone (a full sync). */
  after: string | null;
  /** The run's start by the server's clock, less the overlap: the next run's `after`. */
  mark: string;
  /** The cursor of the page after the last one stored; null: no page stored yet. */
  cursor: string | null;
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
}

/** Options of {@link syncPeople}. */
export interface SyncOptions {
  /**
   * How far before its start a run's mark is put, ms (default 60 000): covers a write
   * stamped before it was committed, and servers whose machines' clocks differ. The
   * people changed in that window come twice, which an upsert makes harmless.
   */
  overlapMs?: number;
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
 * @example
 * ```ts
 * const client = await connectWith([personKind], url, { apiKey });
 * const result = await syncPeople(client, await loadState(path), upsert, (state) =>
 *   saveState(path, state),
 * );
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
    const mark = new Date((await serverNow(client)).getTime() - overlap).toISOString();
    run = { after: since, mark, cursor: null };
    // Saved before the first page, so that a resumed run keeps this mark.
    state = { since, run };
    await save(state);
  }
  // The run is over: what changed before its mark is in the copy. The mark never moves
  // back (a server clock set back, or an overlap made longer).
  const finished: SyncState = { since: later(since, run.mark), run: null };
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
  return { state, fetched, pages, resumed };
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
  return {
    since: typeof parsed.since === 'string' ? parsed.since : null,
    run:
      run && typeof run.mark === 'string'
        ? {
            after: typeof run.after === 'string' ? run.after : null,
            mark: run.mark,
            cursor: typeof run.cursor === 'string' ? run.cursor : null,
          }
        : null,
  };
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

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { overlap: { type: 'string' } },
  });
  const url = positionals[0] ?? process.env.ADIS_URL;
  const apiKey = positionals[1] ?? process.env.ADIS_KEY;
  const statePath = positionals[2] ?? '.sync-state.json';
  const overlap = values.overlap === undefined ? undefined : Number(values.overlap);
  if (!url || (overlap !== undefined && !(overlap >= 0))) {
    console.error(
      'Usage: npx tsx examples/sync-changes.ts <entry point URL> <API key> [state file] [--overlap <seconds>]',
    );
    process.exitCode = 2;
    return;
  }
  // Only people are read: the client registers the person kind alone.
  const client = await connectWith([personKind], url, apiKey ? { apiKey } : {});
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
      }
    },
    overlap === undefined ? {} : { overlapMs: overlap * 1000 },
  );
  const from = previous.run ? 'the interrupted run' : (previous.since ?? 'the beginning');
  console.log(
    `Fetched ${result.fetched} ${result.fetched === 1 ? 'person' : 'people'} (${result.pages} ${result.pages === 1 ? 'page' : 'pages'}) since ${from}; next run starts at ${result.state.since}.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(isAdisError(error) ? error.message : error);
    process.exitCode = 1;
  });
}

/**
 * Incremental sync: fetch the people that changed since the last run, then save the
 * new high-water mark, so a rerun fetches only what changed in between (nothing, when
 * nothing did).
 *
 *   npx tsx examples/sync-changes.ts <entry point URL> <API key> [state file]
 *
 * or with ADIS_URL and ADIS_KEY in the environment. The state file (default
 * `.sync-state.json`) holds `{ "since": "<ISO date-time>" }`; delete it to sync
 * everything again. Works against any server that supports the OData-style
 * `filter=modified_date gt '…'` query (see docs/filtering.md).
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

/** What a sync run remembers for the next one. */
export interface SyncState {
  /** Changes up to and including this instant have been fetched; null: nothing yet. */
  since: string | null;
}

/** What {@link syncPeople} did. */
export interface SyncResult {
  /** The state to save for the next run. */
  state: SyncState;
  /** How many changed people were fetched. */
  fetched: number;
}

/**
 * The server's clock now, from the `Date` header of a request to the entry point, or
 * the local clock when the server sends none. Using the server's clock matters: the
 * window of a run must end at a time the server's `modified_date` values are
 * comparable with.
 */
async function serverNow(client: PeopleClient): Promise<Date> {
  const response = await client.transport.request({ method: 'GET', url: client.root.url });
  const header = response.headers.get('date');
  const parsed = header ? Date.parse(header) : Number.NaN;
  return Number.isNaN(parsed) ? new Date() : new Date(parsed);
}

/**
 * Fetches the people modified after `state.since` (every person on the first run),
 * handing each to `handle`, and returns the state to save.
 *
 * The new mark is the run's start by the server's clock, not the largest
 * `modified_date` seen: paging goes in creation order, so a person changed during the
 * run, behind the current page, would otherwise be missed for good. Changed after the
 * start, it comes again in the next run (store people by identifier, so that is
 * harmless). The `Date` header has whole seconds, so the mark errs early, the safe
 * side. The first run reads the plain collection: a filter matching everyone would
 * make the server count and sort every match on every page. Deletions cannot be seen
 * through a filter; a full sync finds them.
 *
 * @example
 * ```ts
 * const client = await connectWith([personKind], url, { apiKey });
 * const { state, fetched } = await syncPeople(client, { since: null }, (person) => save(person));
 * ```
 */
export async function syncPeople(
  client: PeopleClient,
  state: SyncState,
  handle: (person: PersonResource) => void | Promise<void>,
): Promise<SyncResult> {
  const started = await serverNow(client);
  const people = state.since
    ? client.people.filter(field('modified_date').gt(state.since))
    : client.people;
  let fetched = 0;
  for await (const person of people.items({ readAhead: true })) {
    await handle(person);
    fetched += 1;
  }
  // Never move the mark backwards (a server clock that jumped back).
  const since =
    state.since && Date.parse(state.since) > started.getTime()
      ? state.since
      : started.toISOString();
  return { state: { since }, fetched };
}

/**
 * Reads the saved state; a missing file means "never synced".
 *
 * @example
 * ```ts
 * const state = await loadState('.sync-state.json'); // { since: null } the first time
 * ```
 */
export async function loadState(path: string): Promise<SyncState> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<SyncState>;
    return { since: typeof parsed.since === 'string' ? parsed.since : null };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { since: null };
    throw error;
  }
}

/**
 * Saves the state atomically (write a temporary file, then rename), so a crash never
 * leaves a half-written state that would make the next run fetch everything.
 *
 * @example
 * ```ts
 * await saveState('.sync-state.json', { since: '2026-11-22T10:00:00.000Z' });
 * ```
 */
export async function saveState(path: string, state: SyncState): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`);
  await rename(temporary, path);
}

async function main(): Promise<void> {
  const { positionals } = parseArgs({ allowPositionals: true });
  const url = positionals[0] ?? process.env.ADIS_URL;
  const apiKey = positionals[1] ?? process.env.ADIS_KEY;
  const statePath = positionals[2] ?? '.sync-state.json';
  if (!url) {
    console.error(
      'Usage: npx tsx examples/sync-changes.ts <entry point URL> <API key> [state file]',
    );
    process.exitCode = 2;
    return;
  }
  // Only people are read: the client registers the person kind alone.
  const client = await connectWith([personKind], url, apiKey ? { apiKey } : {});
  const previous = await loadState(statePath);
  const { state, fetched } = await syncPeople(client, previous, (person) => {
    console.log(`${person.data.modified_date}  ${person.url}`);
  });
  await saveState(statePath, state);
  console.log(
    `Fetched ${fetched} changed ${fetched === 1 ? 'person' : 'people'} since ${previous.since ?? 'the beginning'}; next run starts at ${state.since}.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(isAdisError(error) ? error.message : error);
    process.exitCode = 1;
  });
}

/**
 * A sync's state in two files (Node only): the progress, a small JSON document replaced
 * atomically at each save (written aside, flushed, renamed over), and beside it the
 * copies, an append-only journal (`<state>.copies`, one JSON line a change). A journal
 * keeps a save's cost flat however many copies there are: a JSON file of a million
 * copies rewritten after every page would not. Each change is handed to the operating
 * system (a `write`) before `putCopy` returns, so a killed process loses none; the
 * journal is flushed to disk before each save of the progress. A torn last line (a
 * machine that lost power mid-write) is dropped when read, and the journal is rewritten
 * compact when it holds more than twice the lines it needs.
 *
 * The copies are kept in memory too, packed: each a pair of flat strings, the addresses
 * without their entry point's prefix. About 210 bytes a copy (a million people in about
 * 210 MB), where objects of their own would take six times as much.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { SyncSetupError } from './errors.js';
import type { CopyEntry, SyncProgress, SyncStateStore } from './state-store.js';

/**
 * One line of the journal: `[source, packed copy]` for a copy as it now is, `[source]`
 * for a copy forgotten; the source address without the source's entry point.
 */
type JournalLine = [string, string] | [string];

/** Separates the fields of a packed copy: a character no address, date or email holds. */
const FIELD = '\u0001';

/** Which pair of servers a state belongs to. */
export interface SyncPair {
  from: string;
  to: string;
}

/**
 * Where the journal of copies of a state file lives.
 *
 * @example
 * ```ts
 * import { journalPath } from 'adis-sdk/sync';
 *
 * journalPath('sync-state.json'); // 'sync-state.json.copies'
 * ```
 */
export function journalPath(path: string): string {
  return `${path}.copies`;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function damaged(path: string, what: string): SyncSetupError {
  return new SyncSetupError(
    'STATE_DAMAGED',
    `${path} ${what}; move it away to copy everything again (the target's copies are then matched by identifier, email and phone where the target can)`,
  );
}

function readProgress(path: string, text: string, pair: SyncPair): SyncProgress {
  let parsed: Partial<SyncProgress>;
  try {
    parsed = JSON.parse(text) as Partial<SyncProgress>;
  } catch {
    throw damaged(path, 'is not a sync state (not JSON)');
  }
  if (
    parsed.format !== 1 ||
    typeof parsed.from !== 'string' ||
    typeof parsed.to !== 'string' ||
    typeof parsed.sourceSystem !== 'string' ||
    typeof parsed.kinds !== 'object' ||
    parsed.kinds === null
  ) {
    throw damaged(path, 'is not a sync state of this version');
  }
  if (parsed.from !== pair.from || parsed.to !== pair.to) {
    throw new SyncSetupError(
      'STATE_OF_ANOTHER_PAIR',
      `${path} is the state of a sync from ${parsed.from} to ${parsed.to}, not from ${pair.from} to ${pair.to}: give each pair of servers a state file of its own`,
    );
  }
  return parsed as SyncProgress;
}

/** The copies a journal holds, packed, the last line of each source winning. */
function readJournal(text: string): { copies: Map<string, string>; lines: number } {
  const copies = new Map<string, string>();
  let lines = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let entry: JournalLine;
    try {
      entry = JSON.parse(line) as JournalLine;
    } catch {
      continue; // a torn line: its write never finished, so its request was never sent
    }
    lines += 1;
    if (entry.length === 1) copies.delete(entry[0]);
    else copies.set(entry[0], entry[1]);
  }
  return { copies, lines };
}

function journalLine(line: JournalLine): string {
  return `${JSON.stringify(line)}\n`;
}

/** An address without a prefix it starts with (kept whole otherwise). */
function shorten(url: string, prefix: string): string {
  return url.startsWith(prefix) ? url.slice(prefix.length) : `=${url}`;
}

function lengthen(short: string, prefix: string): string {
  return short.startsWith('=') ? short.slice(1) : prefix + short;
}

/** A copy as one string (its target without the target's entry point). */
function pack(entry: CopyEntry, to: string): string {
  const match =
    entry.match === undefined
      ? ''
      : 'email' in entry.match
        ? `e${entry.match.email}`
        : `p${entry.match.phone}`;
  return [
    entry.kind,
    entry.target === undefined ? '' : shorten(entry.target, to),
    entry.version ?? '',
    entry.pendingSince ?? '',
    match,
  ].join(FIELD);
}

function unpack(packed: string, to: string): CopyEntry {
  const [kind = '', target = '', version = '', pending = '', match = ''] = packed.split(FIELD);
  const entry: CopyEntry = {
    kind,
    target: target === '' ? undefined : lengthen(target, to),
    version: version === '' ? null : version,
  };
  if (pending !== '') entry.pendingSince = Number(pending);
  if (match !== '')
    entry.match = match[0] === 'e' ? { email: match.slice(1) } : { phone: match.slice(1) };
  return entry;
}

/** Writes the whole journal anew, compact, and renames it over the old one. */
async function compact(path: string, copies: Map<string, string>): Promise<void> {
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    let chunk = '';
    for (const [source, copy] of copies) {
      chunk += journalLine([source, copy]);
      if (chunk.length > 1 << 20) {
        await handle.write(chunk);
        chunk = '';
      }
    }
    await handle.write(chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

/**
 * Opens (or starts) the state of a sync from `pair.from` to `pair.to` at `path`. A
 * SyncSetupError when the file is another pair's or damaged.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 * import { openSyncState, runSync } from 'adis-sdk/sync';
 *
 * const from = await connect('https://old.example.org/api/v1/', { apiKey: process.env.OLD_KEY });
 * const to = await connect('https://new.example.org/api/v1/', { apiKey: process.env.NEW_KEY });
 * const state = await openSyncState('sync-state.json', { from: from.root.url, to: to.root.url });
 * try {
 *   await runSync({ from, to, state });
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export async function openSyncState(path: string, pair: SyncPair): Promise<SyncStateStore> {
  const text = await readText(path);
  let saved = text === undefined ? undefined : readProgress(path, text, pair);
  const journal = journalPath(path);
  const { copies, lines } = readJournal((await readText(journal)) ?? '');
  if (lines > 2 * copies.size + 1000) await compact(journal, copies);
  let fd: number | undefined = openSync(journal, 'a');
  const append = (line: JournalLine): JournalLine => {
    if (fd === undefined) throw new Error(`the sync state ${path} is closed`);
    const text = journalLine(line);
    const bytes = Buffer.from(text);
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    // Parsed back: flat strings of their own, not slices holding a whole address alive.
    return JSON.parse(text) as JournalLine;
  };
  return {
    progress: () => saved,
    copyOf(source) {
      const packed = copies.get(shorten(source, pair.from));
      return packed === undefined ? undefined : unpack(packed, pair.to);
    },
    putCopy(source, entry) {
      const [short, packed] = append([shorten(source, pair.from), pack(entry, pair.to)]);
      copies.set(short, packed as string);
    },
    removeCopy(source) {
      const [short] = append([shorten(source, pair.from)]);
      copies.delete(short);
    },
    *sources() {
      for (const short of copies.keys()) yield lengthen(short, pair.from);
    },
    async save(progress) {
      if (fd !== undefined) fsyncSync(fd);
      const temporary = `${path}.tmp`;
      await writeFile(temporary, `${JSON.stringify(progress, null, 2)}\n`, { flush: true });
      await rename(temporary, path);
      saved = structuredClone(progress);
    },
    async close() {
      if (fd === undefined) return;
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
    },
  };
}

/** Removes a state and its journal: the next sync copies everything again. */
export async function removeSyncState(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(journalPath(path), { force: true });
}

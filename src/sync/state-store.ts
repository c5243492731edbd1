/**
 * Where a sync keeps what it knows between requests and between runs: the copies it
 * made (the identity map: a source record's address, the address of its copy on the
 * target, and the version copied) and where each kind's read stands. The store is an
 * interface so that the engine needs no file system; `openSyncState` (file-state.ts)
 * keeps it in files on Node, `memorySyncState` in memory (tests, a program that keeps
 * its own).
 */

/** A copy the sync made, or is making. */
export interface CopyEntry {
  /** The kind, by plural name. */
  kind: string;
  /** The copy's address on the target; undefined while its write is under way. */
  target: string | undefined;
  /** The source record's `modified_date` that was copied (null: the source gives none). */
  version: string | null;
  /**
   * Set while a write is under way (the instant it was sent, ms): a crash in between
   * leaves it, and the next run looks for the copy on the target before it writes again.
   */
  pendingSince?: number;
  /**
   * People only: how the target can match her (her primary email address, else phone
   * number), for a record helper that takes the person inline (Action Network).
   */
  match?: PersonMatch;
}

/** How a target matches a person: by email address, else by phone number. */
export type PersonMatch = { email: string } | { phone: string };

/** Where the read of one kind stands. */
export interface KindProgress {
  /** Every change of the kind before this instant is copied; null: never finished. */
  since: string | null;
  /** The run under way, or null between runs. */
  run: KindRun | null;
}

/** A kind's run under way. */
export interface KindRun {
  /** The run reads the changes at or after this instant; null: every record. */
  after: string | null;
  /** The run's start by the source's clock, less the overlap: the next `since`. */
  mark: string;
  /** The cursor of the page to read next; null: from the start. */
  cursor: string | null;
  /**
   * Records read under parents (signatures under petitions): the parents whose records
   * are all copied in this run, by source address.
   */
  parentsDone?: string[];
  /** Records read under parents: the parent whose records `cursor` goes on with. */
  parent?: string;
  /** A run by windows of dates (a source that pages by number): the windows left, next last. */
  windows?: SyncWindow[];
}

/** A range of dates, both ends excluded, in whole seconds. */
export interface DateRange {
  /** After this instant; null: no lower bound. */
  after: string | null;
  /** Before this instant. */
  before: string;
}

/** A window of `modified_date` (and, in one crowded second, of `created_date`). */
export interface SyncWindow extends DateRange {
  created?: DateRange;
}

/** What a sync remembers besides its copies. */
export interface SyncProgress {
  /** The format of the state (1). */
  format: 1;
  /** The source's and the target's entry points: a state belongs to one pair. */
  from: string;
  to: string;
  /** The system name of the source's own identifiers on the target. */
  sourceSystem: string;
  /** Per kind, by plural name. */
  kinds: Record<string, KindProgress>;
  /**
   * Copies to write once more after their children (an event after its attendances:
   * `WRITTEN_AGAIN_AFTER`), by the kind's plural name: the source addresses of those
   * written in this run.
   */
  again?: Record<string, string[]>;
}

/** The state of a sync: its progress and its copies. */
export interface SyncStateStore {
  /** The progress saved last; undefined when nothing was saved yet. */
  progress(): SyncProgress | undefined;
  /** The copy of a source record, if the sync made (or began) one. */
  copyOf(source: string): CopyEntry | undefined;
  /**
   * Records a copy (or a write about to be sent). It is durable against a crash of the
   * process (kill -9) before this returns, so call it before sending a write, and again
   * once the write is answered.
   */
  putCopy(source: string, entry: CopyEntry): void;
  /** Forgets a copy (its source record is gone and the copy removed). */
  removeCopy(source: string): void;
  /** Every source address with a copy, in no particular order (for `deletions`). */
  sources(): Iterable<string>;
  /** Saves the progress atomically, the copies recorded before it first. */
  save(progress: SyncProgress): Promise<void>;
  /** Saves what is pending and releases the files. */
  close(): Promise<void>;
}

/**
 * A state kept in memory: for tests, and for a program that keeps the copies itself.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 * import { memorySyncState, runSync } from 'adis-sdk/sync';
 *
 * const from = await connect('https://old.example.org/api/v1/', { apiKey: process.env.OLD_KEY });
 * const to = await connect('https://new.example.org/api/v1/', { apiKey: process.env.NEW_KEY });
 * const state = memorySyncState();
 * await runSync({ from, to, state, sourceSystem: 'crm' });
 * ```
 */
export function memorySyncState(): SyncStateStore {
  let saved: SyncProgress | undefined;
  const copies = new Map<string, CopyEntry>();
  return {
    progress: () => saved,
    copyOf: (source) => copies.get(source),
    putCopy: (source, entry) => {
      copies.set(source, entry);
    },
    removeCopy: (source) => {
      copies.delete(source);
    },
    sources: () => copies.keys(),
    save: async (progress) => {
      saved = structuredClone(progress);
    },
    close: async () => undefined,
  };
}

/**
 * The words of a sync: what a run is asked to do, what it tells while it runs, and what
 * it did. `runSync` (run-sync.ts) takes a {@link SyncRequest} and resolves with a
 * {@link SyncSummary}; the `adis-sync` command line is a thin layer over it.
 */
import type { BaseClient } from '../navigator/client.js';
import type { SyncStateStore } from './state-store.js';

/**
 * How the target takes the records of a kind that live under a parent and have a
 * record helper there (a petition's signatures): `create`, a POST to the parent's
 * sub-collection linking the person (`_links['std:person']`), as the specification
 * says; `helper`, the parent's record helper with the person inline, matched by the
 * target by email or phone (Action Network, whose sub-collection POST is the helper).
 */
export type ChildWrites = 'create' | 'helper';

/** What the target is, as far as writing to it goes (detected, or named by a preset). */
export interface SyncTargetProfile {
  /** A name for messages (`Action Network`, `a server of the specification`). */
  readonly name: string;
  /** How children with a record helper are written (default `create`). */
  readonly childWrites: ChildWrites;
  /**
   * Whether creates carry a stable `Idempotency-Key` (derived from the source record and
   * its version): false for a server that documents none (Action Network).
   */
  readonly idempotencyKeys: boolean;
  /**
   * The subscription statuses the target takes on a person's email addresses and phone
   * numbers, when it takes only some (Action Network: `subscribed` and `unsubscribed`);
   * undefined: any. Another status (`bouncing`, `spam complaint`) is written
   * `unsubscribed`, never subscribing an address its owner did not choose, and counted
   * in the tally's `adjusted`.
   */
  readonly personStatuses?: readonly string[];
}

/** What {@link runSync} is to do. */
export interface SyncRequest {
  /** The source, connected (with its key and preset). */
  from: BaseClient;
  /** The target, connected (with its key and preset). */
  to: BaseClient;
  /** Where the run's state lives: `openSyncState(path)` (Node) or `memorySyncState()`. */
  state: SyncStateStore;
  /**
   * The kinds to copy, by plural name (`people`, `signatures`); default every kind of
   * the specification the source links. The parents a kind needs are copied too.
   */
  kinds?: readonly string[];
  /** First run only: copy only what was modified at or after this instant. */
  since?: string;
  /** Read everything, write nothing: the summary tells what would be written. */
  dryRun?: boolean;
  /**
   * Also find what disappeared from the source (a full read of its records' addresses):
   * `report` (the summary's `vanished`), or `remove` (the target's copies are deleted).
   * Default: not looked for.
   */
  deletions?: 'report' | 'remove';
  /**
   * The system name the source's own identifiers (`<source namespace>:<id>`) carry on
   * the target. Default: the source's namespace, unless the target has the same one
   * (two reference servers): then it must be given (a guessed name would be a silent
   * second identity).
   */
  sourceSystem?: string;
  /** The target's profile; default: detected from the target's entry point. */
  target?: SyncTargetProfile;
  /**
   * How the source pages (default: `number` for a source that says it is Action Network,
   * else `cursor`): `number` reads windows of `modified_date` that each fit on one page
   * (docs/syncing.md, "Servers that page by number").
   */
  sourcePaging?: 'cursor' | 'number';
  /** How far before its start a run's mark is put, ms (default 60 000, docs/syncing.md). */
  overlapMs?: number;
  /** Writes in flight at once (default 4). */
  concurrency?: number;
  /** Stops the run; the state saved so far resumes it. */
  signal?: AbortSignal;
  /** Called with each {@link SyncEvent}, in order. */
  onEvent?(event: SyncEvent): void;
}

/** Why a record was not written: the target refused it, or cannot hold it. */
export interface SyncRefusal {
  /** The kind, by plural name. */
  kind: string;
  /** The source record's address. */
  source: string;
  /** What was wrong, in a sentence that names what to do where it can. */
  reason: string;
  /** The target's status, when it answered with one. */
  status?: number;
}

/** What was done with one kind. */
export interface KindTally {
  /** Records read from the source. */
  read: number;
  /** Copies created on the target (or that would be, in a dry run). */
  created: number;
  /** Copies updated on the target. */
  updated: number;
  /** Records whose copy was already up to date: nothing written. */
  unchanged: number;
  /** Records the target refused or cannot hold. */
  refused: number;
  /**
   * Records copied with a member changed to one the target can hold (a `bouncing` email
   * address written `unsubscribed` to Action Network); `adjustments` says which.
   */
  adjusted: number;
  /** The adjustments, with how many records each. */
  adjustments: Record<string, number>;
  /** `--deletions`: copies whose source record is gone (reported, or removed). */
  vanished: number;
  /** The refusals' reasons, with how many records each. */
  reasons: Record<string, number>;
}

/**
 * A tally of nothing yet: what a kind's count starts from.
 *
 * @example
 * ```ts
 * import { emptyTally, type SyncSummary } from 'adis-sdk/sync';
 *
 * function created(summary: SyncSummary): number {
 *   const total = emptyTally();
 *   for (const tally of Object.values(summary.kinds)) total.created += tally.created;
 *   return total.created;
 * }
 * ```
 */
export function emptyTally(): KindTally {
  return {
    read: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    refused: 0,
    adjusted: 0,
    vanished: 0,
    reasons: {},
    adjustments: {},
  };
}

/** What a run did. */
export interface SyncSummary {
  /** Per kind, by plural name, in the order they were copied. */
  kinds: Record<string, KindTally>;
  /** Whether the run went on from one interrupted earlier. */
  resumed: boolean;
  /** Whether it was a dry run (nothing written). */
  dryRun: boolean;
  /** The first refusals, at most 100, each naming its record (the tallies count all). */
  refusals: SyncRefusal[];
  /** `deletions: 'report'` or `'remove'`: the first copies whose source is gone, at most 100. */
  vanished: { kind: string; source: string; target: string }[];
}

/** What a run tells while it runs. */
export type SyncEvent =
  /** A kind's copy begins; `total` when the source says how many (its `total_records`). */
  | { type: 'kind-start'; kind: string; total: number | undefined }
  /** After each page of a kind: the tally so far. */
  | { type: 'progress'; kind: string; tally: KindTally; total: number | undefined }
  /** A record refused. */
  | { type: 'refused'; refusal: SyncRefusal }
  /** A kind is done. */
  | { type: 'kind-done'; kind: string; tally: KindTally }
  /** A kind the target cannot write at all (read only, not linked): skipped whole. */
  | { type: 'kind-skipped'; kind: string; reason: string };

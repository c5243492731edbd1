/**
 * A sync run: every kind of the plan in turn, parents before children, each read from
 * where its last run stopped (what changed since its mark, docs/syncing.md) and copied
 * page by page, the state saved after each page. The source's next page is read while
 * the target takes this one's writes, several at a time.
 */
import type { BaseClient } from '../navigator/client.js';
import type { CopyNames } from './copy-body.js';
import { SyncSetupError } from './errors.js';
import { type PlannedKind, syncPlan } from './plan.js';
import { inPool } from './pool.js';
import { detectTarget, saysActionNetwork } from './profiles.js';
import { hasRecords, readKind } from './read-kind.js';
import type { KindProgress, SyncProgress, SyncStateStore } from './state-store.js';
import {
  emptyTally,
  type KindTally,
  type SyncEvent,
  type SyncRefusal,
  type SyncRequest,
  type SyncSummary,
} from './types.js';
import { firstWindow, readByWindows } from './windows.js';
import { type CopyWriter, writeCopy } from './write-copy.js';

/** How many refusals and vanished copies a summary lists by name (the tallies count all). */
const LISTED = 100;

/** The default overlap of a run's mark: docs/syncing.md, "Why no change is missed". */
const DEFAULT_OVERLAP_MS = 60_000;

/**
 * The source's clock now, from the `Date` header of a request to its entry point (its
 * `modified_date` values are by its clock), else the local clock.
 */
async function sourceNow(client: BaseClient, signal: AbortSignal | undefined): Promise<number> {
  const response = await client.transport.request({
    method: 'GET',
    url: client.root.url,
    ...(signal ? { signal } : {}),
  });
  const parsed = Date.parse(response.headers.get('date') ?? '');
  return Number.isNaN(parsed) ? Date.now() : parsed;
}

/** The later of two instants (null: none). */
function later(a: string | null, b: string): string {
  return a !== null && Date.parse(a) > Date.parse(b) ? a : b;
}

/**
 * The name the source's own identifiers carry on the target: the one asked for, the
 * one the state was started with (a second name would be a second identity), else the
 * source's namespace unless the target has the same one.
 */
function sourceSystemOf(request: SyncRequest, saved: SyncProgress | undefined): string {
  const namespace = request.from.entryPoint.namespace ?? undefined;
  const asked = request.sourceSystem;
  if (saved !== undefined && asked !== undefined && asked !== saved.sourceSystem) {
    throw new SyncSetupError(
      'STATE_OF_ANOTHER_PAIR',
      `the state was started with the source system ${saved.sourceSystem}, not ${asked}: the copies carry ${saved.sourceSystem}:<id>; keep that name, or start a new state`,
    );
  }
  const system = asked ?? saved?.sourceSystem ?? namespace;
  if (system === undefined || system === '') {
    throw new SyncSetupError(
      'SOURCE_SYSTEM_NEEDED',
      `the source (${request.from.root.url}) names no namespace for its identifiers: give the system name its records' identifiers should carry on the target (sourceSystem, --source-system)`,
    );
  }
  if (system === request.to.entryPoint.namespace) {
    throw new SyncSetupError(
      'SOURCE_SYSTEM_NEEDED',
      `the source and the target both name their identifiers ${system}:<id>, so the copies cannot carry the source's as they are: give another system name for them (sourceSystem, --source-system), such as the source's organisation`,
    );
  }
  return system;
}

/** One run's doings: the request, the state, the writer, and the summary being made. */
class SyncRun {
  readonly summary: SyncSummary;
  readonly writer: CopyWriter;
  progress: SyncProgress;

  constructor(
    readonly request: SyncRequest,
    readonly state: SyncStateStore,
    names: CopyNames,
    progress: SyncProgress,
    readonly plan: readonly PlannedKind[],
  ) {
    this.progress = progress;
    const resumed = Object.values(progress.kinds).some((kind) => kind.run !== null);
    this.summary = {
      kinds: {},
      resumed,
      dryRun: request.dryRun ?? false,
      refusals: [],
      vanished: [],
    };
    this.writer = {
      to: request.to,
      state,
      names,
      profile: request.target ?? detectTarget(request.to),
      dryRun: request.dryRun ?? false,
      overlapMs: request.overlapMs ?? DEFAULT_OVERLAP_MS,
      signal: request.signal,
      parents: new Map(),
      skipped: new Map(),
    };
  }

  #now: Promise<number> | undefined;

  /** The source's clock at the first kind this run starts (one request a run). */
  now(): Promise<number> {
    this.#now ??= sourceNow(this.request.from, this.request.signal);
    return this.#now;
  }

  emit(event: SyncEvent): void {
    this.request.onEvent?.(event);
  }

  async save(plural: string, kind: KindProgress): Promise<void> {
    if (this.writer.dryRun) return;
    this.progress = { ...this.progress, kinds: { ...this.progress.kinds, [plural]: kind } };
    await this.state.save(this.progress);
  }

  refuse(tally: KindTally, refusal: SyncRefusal): void {
    tally.refused += 1;
    tally.reasons[refusal.reason] = (tally.reasons[refusal.reason] ?? 0) + 1;
    if (this.summary.refusals.length < LISTED) this.summary.refusals.push(refusal);
    this.emit({ type: 'refused', refusal });
  }

  /** Copies what changed of one kind since its last run (or goes on with the one under way). */
  async copyKind(planned: PlannedKind): Promise<void> {
    const { request, writer } = this;
    const plural = planned.kind.plural;
    const tally = emptyTally();
    this.summary.kinds[plural] = tally;
    // A kind the source does not have: nothing to copy (a kind the target lacks is
    // refused record by record instead, so that what is not copied is counted).
    if (!hasRecords(request.from, planned)) {
      this.emit({ type: 'kind-skipped', kind: plural, reason: `the source lists no ${plural}` });
      this.emit({ type: 'kind-done', kind: plural, tally });
      return;
    }
    const saved = this.progress.kinds[plural] ?? { since: null, run: null };
    let run = saved.run;
    if (run === null) {
      const now = await this.now();
      const mark = new Date(now - writer.overlapMs).toISOString();
      run = { after: saved.since ?? request.since ?? null, mark, cursor: null };
      if (this.sourcePaging(planned) === 'number') run.windows = [firstWindow(run.after, now)];
      // Saved before the first page, so that a resumed run keeps this mark.
      await this.save(plural, { since: saved.since, run });
    }
    const finished: KindProgress = { since: later(saved.since, run.mark), run: null };
    let total: number | undefined;
    let skipped: string | undefined;
    const written: string[] = [];
    // Records of a parent kind the target cannot write have nowhere to go: skipped whole.
    const parentSkipped = planned.placement && writer.skipped.get(planned.placement.parent.plural);
    if (parentSkipped !== undefined) {
      skipped = `the target cannot hold their ${planned.placement?.parent.plural}: ${parentSkipped}`;
      writer.skipped.set(plural, skipped);
      this.emit({ type: 'kind-skipped', kind: plural, reason: skipped });
    }
    // Told with the first page, which says how many the source has.
    let started = false;
    const start = (): void => {
      if (started) return;
      started = true;
      this.emit({ type: 'kind-start', kind: plural, total });
    };
    const pages =
      run.windows !== undefined
        ? readByWindows(request.from, planned, run, request.signal)
        : readKind(request.from, planned, run, request.signal);
    for await (const page of pages) {
      tally.read += page.items.length;
      total = page.total ?? total;
      start();
      const outcomes = await inPool(page.items, request.concurrency ?? 4, async (record) =>
        skipped === undefined
          ? writeCopy(writer, planned, record, page.parent)
          : { type: 'refused' as const, reason: skipped },
      );
      outcomes.forEach((outcome, index) => {
        const source = page.items[index]?.url ?? '';
        if (outcome.type === 'read-only') {
          if (skipped === undefined) {
            skipped = outcome.reason;
            writer.skipped.set(plural, outcome.reason);
            this.emit({ type: 'kind-skipped', kind: plural, reason: outcome.reason });
          }
          this.refuse(tally, { kind: plural, source, reason: outcome.reason, ...status(outcome) });
        } else if (outcome.type === 'refused') {
          this.refuse(tally, { kind: plural, source, reason: outcome.reason, ...status(outcome) });
        } else {
          tally[outcome.type] += 1;
          if ('adjustments' in outcome && outcome.adjustments !== undefined) {
            tally.adjusted += 1;
            for (const change of outcome.adjustments) {
              tally.adjustments[change] = (tally.adjustments[change] ?? 0) + 1;
            }
          }
          if (planned.writtenAgainAfter !== undefined && outcome.type !== 'unchanged') {
            written.push(source);
          }
        }
      });
      this.emit({ type: 'progress', kind: plural, tally: { ...tally }, total });
      this.noteWritten(plural, written.splice(0));
      await this.save(
        plural,
        page.next === null ? finished : { since: saved.since, run: page.next },
      );
    }
    if (this.progress.kinds[plural]?.run !== null) await this.save(plural, finished);
    start();
    this.emit({ type: 'kind-done', kind: plural, tally });
  }

  /** Adds copies to write again after their children; saved with the next save. */
  noteWritten(plural: string, sources: string[]): void {
    if (sources.length === 0 || this.writer.dryRun) return;
    const again = { ...this.progress.again };
    again[plural] = [...(again[plural] ?? []), ...sources];
    this.progress = { ...this.progress, again };
  }

  /**
   * Writes once more the copies of a kind written in this run, now that their children
   * are copied (`WRITTEN_AGAIN_AFTER`): each read again from the source, as it is now.
   */
  async writeAgain(planned: PlannedKind): Promise<void> {
    const plural = planned.kind.plural;
    const sources = this.progress.again?.[plural] ?? [];
    if (sources.length === 0) return;
    const tally = this.summary.kinds[plural] ?? emptyTally();
    const call = this.request.signal ? { signal: this.request.signal } : {};
    await inPool(sources, this.request.concurrency ?? 4, async (source) => {
      const record = await this.request.from.collection(planned.kind).get(source, call);
      const outcome = await writeCopy(this.writer, planned, record, undefined, true);
      if (outcome.type === 'refused' || outcome.type === 'read-only') {
        this.refuse(tally, { kind: plural, source, reason: outcome.reason, ...status(outcome) });
      }
    });
    const { [plural]: _, ...rest } = this.progress.again ?? {};
    this.progress = { ...this.progress, again: rest };
    await this.state.save(this.progress);
  }

  /** How the source pages this kind: by number (in windows of dates) or by cursor. */
  sourcePaging(planned: PlannedKind): 'cursor' | 'number' {
    // Windows read a collection of the source's own; records under parents are read by page.
    if (planned.placement !== undefined) return 'cursor';
    return (
      this.request.sourcePaging ?? (saysActionNetwork(this.request.from) ? 'number' : 'cursor')
    );
  }

  /**
   * `deletions`: reads every record of the kind on the source (addresses only are kept)
   * and finds the copies whose source record is gone; removes them with `remove`.
   */
  async findVanished(planned: PlannedKind): Promise<void> {
    const { request, state } = this;
    if (!hasRecords(request.from, planned)) return;
    const plural = planned.kind.plural;
    const tally = this.summary.kinds[plural] ?? emptyTally();
    this.summary.kinds[plural] = tally;
    const seen = new Set<string>();
    const everything = { after: null, mark: new Date(0).toISOString(), cursor: null };
    for await (const page of readKind(request.from, planned, everything, request.signal)) {
      for (const record of page.items) seen.add(record.url);
    }
    for (const source of [...state.sources()]) {
      const entry = state.copyOf(source);
      if (entry === undefined || entry.kind !== plural || seen.has(source)) continue;
      tally.vanished += 1;
      const target = entry.target ?? '';
      if (this.summary.vanished.length < LISTED)
        this.summary.vanished.push({ kind: plural, source, target });
      if (request.deletions !== 'remove' || this.writer.dryRun) continue;
      if (entry.target !== undefined) {
        await request.to
          .collection(planned.kind)
          .at(entry.target)
          .delete(request.signal ? { signal: request.signal } : {})
          .catch((error: unknown) => {
            // Gone already: what was asked for.
            if ((error as { status?: number }).status !== 404) throw error;
          });
      }
      state.removeCopy(source);
    }
  }
}

function status(outcome: object): { status?: number } {
  return 'status' in outcome && typeof outcome.status === 'number'
    ? { status: outcome.status }
    : {};
}

/**
 * Copies the source's records to the target, or what changed since the last run, and
 * resolves with what it did. The state (`request.state`) is written as the run goes:
 * a run stopped at any moment (a crash, `kill -9`, an abort) is finished by the same
 * call again, with nothing copied twice and nothing missed. Throws a SyncSetupError
 * before writing anything when the run cannot be set up, and what stops it otherwise
 * (the network, a server failing again and again): the state saved so far resumes it.
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
 *   const summary = await runSync({ from, to, state, onEvent: (event) => console.log(event.type) });
 *   console.log(summary.kinds.people); // { read: 1204, created: 1204, … }
 * } finally {
 *   await state.close();
 * }
 * ```
 */
export async function runSync(request: SyncRequest): Promise<SyncSummary> {
  const { from, to, state } = request;
  const saved = state.progress();
  const sourceSystem = sourceSystemOf(request, saved);
  const progress: SyncProgress = saved ?? {
    format: 1,
    from: from.root.url,
    to: to.root.url,
    sourceSystem,
    kinds: {},
  };
  const names: CopyNames = {
    sourceNamespace: from.entryPoint.namespace ?? undefined,
    sourceSystem,
    targetNamespace: to.entryPoint.namespace ?? undefined,
    copyOf: (source) => state.copyOf(source)?.target,
  };
  const plan = syncPlan(request.kinds);
  const run = new SyncRun(request, state, names, progress, plan);
  for (const planned of plan) {
    await run.copyKind(planned);
    for (const parent of plan) {
      if (parent.writtenAgainAfter === planned.kind.singular) await run.writeAgain(parent);
    }
  }
  if (request.deletions !== undefined) {
    // Children first: a petition's copy goes after its signatures'.
    for (const planned of [...plan].reverse()) await run.findVanished(planned);
  }
  return run.summary;
}

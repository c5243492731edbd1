/**
 * Runs of the sync between the servers of a test world, in-process, and what the tests
 * read off them: the events in order, the kinds the target could not take, and the
 * writes each run made.
 */
import type { BaseClient } from '../../src/index.js';
import { runSync } from '../../src/sync/run-sync.js';
import { memorySyncState } from '../../src/sync/state-store.js';
import type { SyncEvent, SyncRequest, SyncSummary } from '../../src/sync/types.js';
import type { World } from './world.js';

/** What a run did and told. */
export interface SyncResult {
  summary: SyncSummary;
  /** Every event, in order. */
  events: SyncEvent[];
  /** The kinds skipped whole (the target cannot write them), by plural name. */
  skipped: string[];
  /** How long the run took, ms. */
  ms: number;
}

/** A run's request: the world's clients and sourceSystem unless given. */
export type WorldRun = Partial<SyncRequest> & { from: BaseClient; to: BaseClient };

/**
 * Runs one sync from `request.from` to `request.to` (a memory state unless one is
 * given) with the world's `sourceSystem`, collecting its events.
 *
 * @example
 * ```ts
 * const state = memorySyncState();
 * const first = await syncWorld(world, { from, to, state });
 * expect(writes(first.summary)).toEqual({});
 * ```
 */
export async function syncWorld(
  world: Pick<World, 'sourceSystem'>,
  request: WorldRun,
): Promise<SyncResult> {
  const events: SyncEvent[] = [];
  const started = performance.now();
  const summary = await runSync({
    state: memorySyncState(),
    sourceSystem: world.sourceSystem,
    ...request,
    onEvent: (event) => {
      events.push(event);
      request.onEvent?.(event);
    },
  });
  const skipped = events.flatMap((event) => (event.type === 'kind-skipped' ? [event.kind] : []));
  return { summary, events, skipped, ms: Math.round(performance.now() - started) };
}

/**
 * The writes a run made, by kind: `created` and `updated` of every kind that has some
 * (`{}` when it wrote nothing).
 *
 * @example
 * ```ts
 * writes(second.summary); // { people: { created: 0, updated: 5 }, signatures: { created: 3, updated: 0 } }
 * ```
 */
export function writes(summary: SyncSummary): Record<string, { created: number; updated: number }> {
  const out: Record<string, { created: number; updated: number }> = {};
  for (const [kind, tally] of Object.entries(summary.kinds)) {
    if (tally.created > 0 || tally.updated > 0) {
      out[kind] = { created: tally.created, updated: tally.updated };
    }
  }
  return out;
}

/**
 * The refusals of a run, one a line (`''` when none), for a failure message.
 *
 * @example
 * ```ts
 * expect(refusals(result.summary)).toBe('');
 * ```
 */
export function refusals(summary: SyncSummary, except: readonly string[] = []): string {
  const counted = Object.entries(summary.kinds)
    .filter(([kind, tally]) => tally.refused > 0 && !except.includes(kind))
    .map(([kind, tally]) => `${kind}: ${tally.refused} refused: ${JSON.stringify(tally.reasons)}`);
  const listed = summary.refusals
    .filter((refusal) => !except.includes(refusal.kind))
    .slice(0, 10)
    .map(
      (refusal) =>
        `${refusal.kind} ${refusal.source} (${refusal.status ?? '-'}): ${refusal.reason}`,
    );
  return [...counted, ...listed].join('\n');
}

/**
 * The records a run read, by kind (those it read any of).
 *
 * @example
 * ```ts
 * reads(first.summary).people; // 3000
 * ```
 */
export function reads(summary: SyncSummary): Record<string, number> {
  return Object.fromEntries(
    Object.entries(summary.kinds)
      .filter(([, tally]) => tally.read > 0)
      .map(([kind, tally]) => [kind, tally.read]),
  );
}

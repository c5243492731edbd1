/**
 * `adis-sync`: copies an organisation's records from one ADIS server to another and
 * keeps the copy in sync.
 *
 * The command as a function of its arguments and streams, so that tests run it
 * in-process; `sync-cli.ts` is the executable. Exit codes: 0 done, 1 done with records
 * the target refused, 2 could not run or did not finish (the state saved so far lets the
 * same command go on).
 */
import { resolve } from 'node:path';
import {
  openSyncState,
  runSync,
  SYNC_PROFILES,
  type SyncStateStore,
  type SyncSummary,
} from '../sync/index.js';
import { packageVersion } from './package-version.js';
import {
  parseSyncCommandLine,
  SYNC_USAGE,
  type SyncCommandRequest,
  SyncUsage,
} from './sync-arguments.js';
import { type ConnectedSide, connectSide, RequestBudget, sideName } from './sync-connect.js';
import { describeSyncFailure, isUnexpectedFailure, type SyncPair } from './sync-failure.js';
import { readSyncKey, type SyncSide } from './sync-keys.js';
import {
  formatSyncSummary,
  type ReportStream,
  SyncReporter,
  syncExitCode,
  syncFailureJson,
  syncSummaryJson,
} from './sync-output.js';
import { namingWaits } from './wait-notice.js';

/** The process, as `adis-sync` sees it (tests pass their own). */
export interface SyncIO {
  stdout: { write(text: string): unknown };
  /** Progress is drawn only where `isTTY` is true. */
  stderr: ReportStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths (`--state`, key files) start. */
  cwd: string;
  /** Aborted on Ctrl-C: the run stops, its state saved so far. */
  signal?: AbortSignal;
  /** The `fetch` to send with, both sides (tests pass an in-process server's). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Runs `adis-sync` with `argv` (the arguments after the command name) and resolves with
 * its exit code. The summary goes to stdout; progress, refusals and errors to stderr.
 */
export async function syncMain(argv: readonly string[], io: SyncIO): Promise<number> {
  let request: SyncCommandRequest;
  const keys: Record<SyncSide, string | undefined> = { from: undefined, to: undefined };
  try {
    const parsed = parseSyncCommandLine(argv);
    if (parsed === 'help') {
      io.stdout.write(SYNC_USAGE);
      return 0;
    }
    if (parsed === 'version') {
      io.stdout.write(`adis-sync ${await packageVersion()}\n`);
      return 0;
    }
    request = parsed;
    keys.from = await readSyncKey('from', request.fromKeyFile, io.env, io.cwd);
    keys.to = await readSyncKey('to', request.toKeyFile, io.env, io.cwd);
  } catch (error) {
    if (!(error instanceof SyncUsage)) throw error;
    io.stderr.write(`adis-sync: ${error.message}\nRun adis-sync --help for usage.\n`);
    return 2;
  }
  return await syncWith(request, keys, io);
}

/** Where the run keeps the state it opened, for the caller to close whatever happens. */
interface Held {
  state?: SyncStateStore;
}

async function syncWith(
  request: SyncCommandRequest,
  keys: Readonly<Record<SyncSide, string | undefined>>,
  io: SyncIO,
): Promise<number> {
  const held: Held = {};
  const code = await attempt(request, keys, io, held);
  try {
    await held.state?.close();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(
      `adis-sync: the state ${request.state} could not be saved: ${message}; check the disk, then run the same command again\n`,
    );
    return 2;
  }
  return code;
}

/** Connects both sides, opens the state and runs the sync; resolves with the exit code. */
async function attempt(
  request: SyncCommandRequest,
  keys: Readonly<Record<SyncSide, string | undefined>>,
  io: SyncIO,
  held: Held,
): Promise<number> {
  // One signal stops the run: Ctrl-C (io.signal) or --max-requests (the budget).
  const controller = new AbortController();
  const stop = () => controller.abort(io.signal?.reason);
  if (io.signal?.aborted) stop();
  io.signal?.addEventListener('abort', stop, { once: true });
  const budget = new RequestBudget(request.maxRequests, controller);
  const reporter = new SyncReporter(io.stderr, { json: request.json, quiet: request.quiet });
  const pair: SyncPair = {
    from: request.from,
    to: request.to,
    keys: { from: keys.from !== undefined, to: keys.to !== undefined },
    presets: { from: request.fromPreset, to: request.toPreset },
  };
  try {
    const from = await connectOne('from', request, keys.from, budget, reporter, io, controller);
    pair.presets = { ...pair.presets, from: from.preset };
    const to = await connectOne('to', request, keys.to, budget, reporter, io, controller);
    pair.presets = { ...pair.presets, to: to.preset };
    // The state belongs to the pair as the servers name their entry points (as runSync
    // records them), whatever spelling of the URLs was typed.
    const state = await openSyncState(resolve(io.cwd, request.state), {
      from: from.client.root.url,
      to: to.client.root.url,
    });
    held.state = state;
    const target = to.preset === undefined ? undefined : SYNC_PROFILES[to.preset];
    const summary = await runSync({
      from: from.client,
      to: to.client,
      state,
      ...(request.kinds === undefined ? {} : { kinds: request.kinds }),
      ...(request.since === undefined ? {} : { since: request.since }),
      dryRun: request.dryRun,
      ...(request.deletions === undefined ? {} : { deletions: request.deletions }),
      ...(request.sourceSystem === undefined ? {} : { sourceSystem: request.sourceSystem }),
      ...(target === undefined ? {} : { target }),
      ...(from.preset === 'action-network' ? { sourcePaging: 'number' as const } : {}),
      ...(request.overlapMs === undefined ? {} : { overlapMs: request.overlapMs }),
      signal: controller.signal,
      onEvent: (event) => reporter.event(event),
    });
    reporter.finish();
    // A run that saw its signal and still resolved stopped part way: not done.
    if (controller.signal.aborted) return stopped(request, budget, io, summary);
    const exitCode = syncExitCode(summary);
    const requests = budget.counts();
    io.stdout.write(
      request.json
        ? syncSummaryJson(summary, { requests, skipped: reporter.skipped(), exitCode })
        : formatSyncSummary(summary, {
            from: request.from,
            to: request.to,
            deletions: request.deletions,
            requests,
            skipped: reporter.skipped(),
          }),
    );
    return exitCode;
  } catch (error) {
    reporter.finish();
    if (controller.signal.aborted) return stopped(request, budget, io, undefined);
    const message = describeSyncFailure(error, pair);
    io.stderr.write(`adis-sync: ${message}\n`);
    if (isUnexpectedFailure(error) && error instanceof Error && error.stack !== undefined) {
      io.stderr.write(
        `(an unexpected failure: please report it with what follows)\n${error.stack}\n`,
      );
    }
    if (request.json) io.stdout.write(syncFailureJson(message, budget.counts()));
    return 2;
  } finally {
    io.signal?.removeEventListener('abort', stop);
  }
}

/** Connects one side and tells which preset it was detected to need, and why. */
async function connectOne(
  side: SyncSide,
  request: SyncCommandRequest,
  apiKey: string | undefined,
  budget: RequestBudget,
  reporter: SyncReporter,
  io: SyncIO,
  controller: AbortController,
): Promise<ConnectedSide> {
  const url = request[side];
  const fetch = namingWaits(
    (line) => {
      if (!request.quiet) reporter.notice(line.replace(/^adis-export: /, `adis-sync: ${side}: `));
    },
    budget.fetchFor(side, io.fetch),
  );
  const connected = await connectSide({
    side,
    url,
    apiKey,
    preset: side === 'from' ? request.fromPreset : request.toPreset,
    rate: request.rate,
    timeoutMs: request.timeoutMs,
    fetch,
    signal: controller.signal,
  });
  const { detected } = connected;
  if (detected !== undefined && !request.quiet && !request.json) {
    reporter.notice(
      `adis-sync: ${sideName(side, url)} is ${detected.server} (${detected.evidence}): connected with its preset, as --${side}-preset ${connected.preset} would\n`,
    );
  }
  return connected;
}

/** A run stopped by Ctrl-C or --max-requests: what was sent, and how to go on. */
function stopped(
  request: SyncCommandRequest,
  budget: RequestBudget,
  io: SyncIO,
  summary: SyncSummary | undefined,
): number {
  const requests = budget.counts();
  const reached = budget.reached();
  const message =
    reached !== undefined
      ? `stopped at --max-requests ${reached.sent}: ${reached.sent} requests sent (${requests.from} to the source, ${requests.to} to the target); the state is saved as the run goes: run the same command again to go on where it stopped`
      : 'interrupted; run the same command again to go on';
  io.stderr.write(`adis-sync: ${message}\n`);
  if (request.json) {
    io.stdout.write(
      summary === undefined
        ? syncFailureJson(message, requests)
        : `${JSON.stringify({ ...summary, error: message, requests, exitCode: 2 }, null, 2)}\n`,
    );
  }
  return 2;
}

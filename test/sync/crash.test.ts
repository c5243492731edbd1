/**
 * A sync killed with `kill -9` and started again, several times in one copy: early
 * (before the first write), then at writes early, midway and late in the copy, each
 * time at the moment a POST reaches the target (the write is made, its answer never
 * read). The last run goes to the end. The target then holds exactly one copy of every
 * source record, equal to it: nothing lost, nothing written twice.
 *
 * The sync runs as a process of its own (sync-process.ts) with its state in files
 * (`openSyncState`); the target is behind a proxy, which counts the requests and kills
 * the process at the planned one. Before each restart the test waits until every request
 * the dead process had sent is done, so each run meets the target as the crash left it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { openSyncState } from '../../src/sync/file-state.js';
import { runSync } from '../../src/sync/run-sync.js';
import { startExample } from '../examples/example-process.js';
import { compareCopies, describeDifferences } from './compare-copies.js';
import { type FaultProxy, faultProxy, type ProxiedRequest } from './fault-proxy.js';
import { seedSource } from './seed-source.js';
import { refusals } from './sync-runs.js';
import { startWorld, type World } from './world.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let world: World | undefined;
let proxy: FaultProxy | undefined;
let folder: string | undefined;
afterEach(async () => {
  await proxy?.close();
  await world?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
  proxy = undefined;
  world = undefined;
  folder = undefined;
});

/**
 * Where a run is killed: at the first POST the target sees once it has seen `after`
 * requests, counted over every run (so a kill lands on a write, wherever the earlier
 * runs left off).
 */
interface KillPoint {
  after: number;
}

/**
 * Starts the sync process and kills it with SIGKILL as the target sees the request of
 * `point`; resolves once it is dead and every request it sent is done.
 */
async function runUntilKilled(
  args: readonly string[],
  target: FaultProxy,
  point: KillPoint,
): Promise<{
  killedAt: ProxiedRequest | undefined;
  signal: NodeJS.Signals | null;
  output: string;
}> {
  const sync = startExample(
    process.execPath,
    ['--import', 'tsx', 'test/sync/sync-process.ts', ...args],
    {
      cwd: root,
      env: {},
    },
  );
  let killedAt: ProxiedRequest | undefined;
  target.onRequest = (request) => {
    if (killedAt !== undefined || request.method !== 'POST') return;
    if (request.n > point.after) {
      killedAt = request;
      sync.child.kill('SIGKILL');
    }
  };
  await sync.exited.catch(() => undefined);
  target.onRequest = undefined;
  await target.settled();
  return { killedAt, signal: sync.child.signalCode, output: sync.errors() + sync.lines.join('\n') };
}

it('loses nothing and writes nothing twice when killed early, midway and late', async () => {
  world = await startWorld();
  const { counts } = await seedSource(world.source, { people: 200 });
  const records = Object.values(counts).reduce((sum, n) => sum + n, 0);
  proxy = await faultProxy({ upstream: world.target.origin });
  folder = await mkdtemp(join(tmpdir(), 'adis-sync-crash-'));
  const statePath = join(folder, 'state.json');
  const to = world.target.entryPointAt(proxy.origin);
  const args = [world.source.entryPoint, to, statePath, world.sourceSystem];
  const target = proxy;

  // Every record takes a POST at least, so while fewer requests than records have been
  // seen, a POST is still to come: each point below is met before the copy ends. The
  // first falls among the people (the first kind), the others further into the copy.
  const points: KillPoint[] = [10, 0.35, 0.7, 0.97].map((at) => ({
    after: at < 1 ? Math.floor(records * at) : at,
  }));
  for (const point of points) {
    const run = await runUntilKilled(args, target, point);
    expect(run.killedAt, `after ${point.after} requests: ${run.output}`).toBeDefined();
    expect(run.signal).toBe('SIGKILL');
  }

  // The last run, in-process on the same files, to the end.
  const from = await world.source.connect();
  const client = await world.target.connect({ via: proxy.origin });
  const state = await openSyncState(statePath, { from: from.root.url, to: client.root.url });
  let summary: Awaited<ReturnType<typeof runSync>>;
  try {
    summary = await runSync({ from, to: client, state, sourceSystem: world.sourceSystem });
  } finally {
    await state.close();
  }
  expect(summary.resumed).toBe(true);
  expect(refusals(summary)).toBe('');
  const differences = await compareCopies(from, client, { sourceSystem: world.sourceSystem });
  expect(describeDifferences(differences)).toBe('');
}, 120_000);

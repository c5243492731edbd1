/**
 * A sync as a process of its own, for the tests that kill it (`kill -9`) part way:
 *
 *   node --import tsx test/sync/sync-process.ts <from> <to> <state path> <sourceSystem> [fromKey] [toKey]
 *
 * Connects to both entry points (Action Network's connect preset for an entry point at
 * `/api/v2/`, without its client rate; the world's keys `source-write-key` and
 * `target-write-key` unless given), runs `runSync` with the state in files
 * (`openSyncState`), and prints the summary as one line of JSON on stdout. Exit code 0
 * when the run ended, 1 with the error on stderr otherwise.
 */
import { connect } from '../../src/index.js';
import { openSyncState } from '../../src/sync/file-state.js';
import { runSync } from '../../src/sync/run-sync.js';
import { clientOptionsFor, presetOfEntryPoint } from './client-options.js';

/**
 * Runs one sync as the command line asks.
 *
 * @example
 * ```ts
 * await main(['http://127.0.0.1:4001/api/v1/', 'http://127.0.0.1:4002/api/v1/', '/tmp/state', 'origin']);
 * ```
 */
export async function main(args: readonly string[]): Promise<void> {
  const [from, to, statePath, sourceSystem, fromKey, toKey] = args;
  if (!from || !to || !statePath || !sourceSystem) {
    throw new Error(
      'usage: sync-process.ts <from> <to> <state path> <sourceSystem> [fromKey] [toKey]',
    );
  }
  const source = await connect(
    from,
    clientOptionsFor(presetOfEntryPoint(from), fromKey ?? 'source-write-key'),
  );
  const target = await connect(
    to,
    clientOptionsFor(presetOfEntryPoint(to), toKey ?? 'target-write-key'),
  );
  const state = await openSyncState(statePath, { from: source.root.url, to: target.root.url });
  try {
    const summary = await runSync({ from: source, to: target, state, sourceSystem });
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  } finally {
    await state.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});

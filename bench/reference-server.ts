/**
 * The reference server for benchmarks: the command line server in a child process, so
 * that it shares neither the event loop nor the heap with the client being measured.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The write key of the benchmark server's `demo` tenant. */
export const KEY = 'bench-key';

const SERVER_DIR = fileURLToPath(new URL('../reference-server/', import.meta.url));

/** What {@link startCli} starts. */
export interface CliOptions {
  /** The database: a file path or `:memory:`. */
  db: string;
  /** The keys file (`{ keys: [{ token, tenant, access }] }`). */
  keys: string;
  /** Demo people seeded at start. */
  seed: number;
  /** Extra arguments of `node` (`--cpu-prof`, …). Default none. */
  nodeArgs?: readonly string[];
  /** Working directory of the server (where `--cpu-prof` writes). Default the server's package. */
  cwd?: string;
}

/**
 * The server the benchmarks start: `built` runs `reference-server/dist/cli.js`, as
 * `npx adis-server` does (`npm run bench` builds first and chooses it); `source` (the
 * default, for the parts run alone) runs `src/cli.ts` through tsx, which needs no build.
 * `ADIS_BENCH_SERVER=built|source` chooses.
 */
function serverEntry(): string[] {
  const which = process.env.ADIS_BENCH_SERVER ?? 'source';
  if (which === 'built') return [join(SERVER_DIR, 'dist/cli.js')];
  if (which === 'source') return ['--import', 'tsx', join(SERVER_DIR, 'src/cli.ts')];
  throw new Error(`ADIS_BENCH_SERVER must be built or source, not ${JSON.stringify(which)}`);
}

/**
 * Starts the command line server ({@link serverEntry}) on a free port and resolves once
 * it prints its entry point; its output is drained afterwards, so it never blocks on a
 * full pipe.
 *
 * @example
 * ```ts
 * const { child, url } = await startCli({ db: ':memory:', keys: 'keys.json', seed: 1000 });
 * child.kill('SIGTERM');
 * ```
 */
export async function startCli(options: CliOptions): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...serverEntry(),
      '--port',
      '0',
      '--db',
      options.db,
      '--keys',
      options.keys,
      '--seed',
      String(options.seed),
      // No access log: a line per request would be measured along with the server.
      '--quiet',
    ],
    { cwd: options.cwd ?? SERVER_DIR, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) {
    const match = /^Entry point: (\S+)/.exec(line);
    if (match?.[1]) {
      child.stdout?.resume();
      return { child, url: match[1] };
    }
  }
  throw new Error('the reference server exited before printing its entry point');
}

/**
 * Starts the server on a SQLite file in `dir` seeded with `seed` demo people, with the
 * write key {@link KEY}.
 *
 * @example
 * ```ts
 * const { child, url } = await startServer(mkdtempSync(join(os.tmpdir(), 'bench-')), 20_000);
 * child.kill('SIGTERM');
 * ```
 */
export async function startServer(
  dir: string,
  seed: number,
): Promise<{ child: ChildProcess; url: string }> {
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify({ keys: [{ token: KEY, tenant: 'demo', access: 'write' }] }));
  return startCli({ db: join(dir, 'bench.db'), keys, seed });
}

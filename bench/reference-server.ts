/**
 * The reference server for benchmarks: in a child process, so that it shares neither
 * the event loop nor the heap with the client being measured, on a SQLite file in
 * `dir` seeded with `seed` demo people.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The write key of the benchmark server's `demo` tenant. */
export const KEY = 'bench-key';

/**
 * Starts the server and resolves once it prints its entry point.
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
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli.ts',
      '--port',
      '0',
      '--db',
      join(dir, 'bench.db'),
      '--keys',
      keys,
      '--seed',
      String(seed),
    ],
    { cwd: new URL('../reference-server/', import.meta.url), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const match = /^Entry point: (\S+)/.exec(line);
    if (match?.[1]) return { child, url: match[1] };
  }
  throw new Error('the reference server exited before printing its entry point');
}

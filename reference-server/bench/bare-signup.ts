/**
 * Runs the bare signup app (bare-signup-server.ts) in a child process under the helper
 * benchmark's load (post-load.ts): the peer a helper row is read against, measured the
 * same way in the same run.
 *
 *   npx tsx bench/bare-signup.ts --db file
 *   ADIS_BENCH_POSTGRES_URL=postgres://… npx tsx bench/bare-signup.ts --db postgres
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freshDatabase } from '../test/postgres/database.js';
import { type PostLoadResult, runPostLoad } from './post-load.js';

/** Options of {@link benchBareSignup}. */
export interface BareSignupOptions {
  /** `'file'` (a temporary SQLite file) or `'postgres'` (a new database on `postgresUrl`). */
  db: 'file' | 'postgres';
  /** Admin URL of the PostgreSQL cluster, for `'postgres'`. */
  postgresUrl?: string;
  /** Concurrent clients. Default 10. */
  clients?: number;
  /** Measured seconds, after a warm-up second. Default 5. */
  durationSeconds?: number;
}

/** What {@link benchBareSignup} measured. */
export interface BareSignupResult extends PostLoadResult {
  db: 'file' | 'postgres';
  clients: number;
  /** Signatures stored afterwards: must equal `acknowledged`. */
  totalSignatures: number;
}

const SERVER = fileURLToPath(new URL('./bare-signup-server.ts', import.meta.url));

/**
 * Measures the bare signup app on one database.
 *
 * @example
 * ```ts
 * const bare = await benchBareSignup({ db: 'postgres', postgresUrl: cluster.url });
 * console.log(bare.callsPerSecond, bare.totalSignatures === bare.acknowledged);
 * ```
 */
export async function benchBareSignup(options: BareSignupOptions): Promise<BareSignupResult> {
  const clients = options.clients ?? 10;
  const durationSeconds = options.durationSeconds ?? 5;
  if (options.db === 'postgres' && !options.postgresUrl) {
    throw new RangeError("db 'postgres' needs postgresUrl, the cluster's admin URL");
  }
  const dir = mkdtempSync(join(tmpdir(), 'adis-bench-bare-'));
  const database =
    options.db === 'postgres' ? await freshDatabase('bench_bare', options.postgresUrl) : undefined;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', SERVER, options.db, database?.url ?? join(dir, 'bare.db')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((done) => child.once('exit', done));
  try {
    let port: string | undefined;
    for await (const line of createInterface({ input: child.stdout })) {
      port = /^listening (\d+)/.exec(line)?.[1];
      if (port) break;
    }
    if (!port) throw new Error('the bare signup app exited before it listened');
    child.stdout.resume();
    const base = `http://127.0.0.1:${port}`;
    const measured = await runPostLoad({
      urls: [`${base}/signups`],
      clients,
      durationSeconds,
      serverPids: [child.pid],
      ...(database ? { databaseUrl: database.url } : {}),
      headers: () => ({ 'Content-Type': 'application/json' }),
      body: (index, n) =>
        JSON.stringify({
          email: `c${index}-${n}@bench.example`,
          given_name: 'Bench',
          tag: 'benchmark',
        }),
    });
    const total = (await (await fetch(`${base}/total`)).json()) as { total: number };
    return { db: options.db, clients, ...measured, totalSignatures: total.total };
  } finally {
    child.kill('SIGTERM');
    await exited;
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'file' },
      clients: { type: 'string', default: '10' },
      duration: { type: 'string', default: '5' },
    },
  });
  const db = values.db === 'postgres' ? 'postgres' : 'file';
  const postgresUrl = process.env.ADIS_BENCH_POSTGRES_URL;
  if (db === 'postgres' && !postgresUrl)
    throw new Error('--db postgres needs ADIS_BENCH_POSTGRES_URL');
  const result = await benchBareSignup({
    db,
    clients: Number(values.clients),
    durationSeconds: Number(values.duration),
    ...(postgresUrl ? { postgresUrl } : {}),
  });
  console.log(JSON.stringify(result));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

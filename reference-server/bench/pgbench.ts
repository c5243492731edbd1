/**
 * The anchor of the write benchmarks: what PostgreSQL itself does on these cores, as
 * pgbench's TPC-B-like transaction (5 statements and BEGIN/COMMIT, fsync on) measures
 * it on the same throwaway cluster, in the same run as the helper calls it is compared
 * with (this machine is noisy: only ratios from one run mean anything). And the count of
 * statements a helper call makes, from `pg_stat_statements` with `track = all` (nested
 * statements, such as a foreign key's checks, counted too).
 *
 * pgbench comes with the machine's PostgreSQL (Debian's `postgresql`), not with the npm
 * binaries: without it there is no anchor, and the benchmark says so.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { findSystemPostgres } from '../test/postgres/cluster.js';
import { freshDatabase } from '../test/postgres/database.js';
import { cpuMsOf, familyOf, parentOf } from './process-cpu.js';

/** The settings a cluster needs for {@link databaseMeter}. */
export const STATEMENT_COUNT_SETTINGS = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'all',
  'pg_stat_statements.max': '10000',
} as const;

/** What {@link runPgbench} measured. */
export interface PgbenchResult {
  /** Transactions a second, tpcb-like. */
  tps: number;
  clients: number;
  seconds: number;
  scale: number;
}

/** Where pgbench is: beside the machine's server binaries, else undefined. */
export async function findPgbench(): Promise<string | undefined> {
  const binDir = await findSystemPostgres();
  const path = binDir && join(binDir, 'pgbench');
  return path && existsSync(path) ? path : undefined;
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * pgbench's tpcb-like rate on a new database of the cluster at `adminUrl`: `pgbench -i -s
 * scale`, then `pgbench -c clients -j 2 -T seconds`. Undefined when pgbench is missing.
 *
 * @example
 * ```ts
 * const anchor = await runPgbench(cluster.url, { clients: 10, seconds: 8 });
 * console.log(anchor?.tps);
 * ```
 */
export async function runPgbench(
  adminUrl: string,
  options: { clients?: number; seconds?: number; scale?: number } = {},
): Promise<PgbenchResult | undefined> {
  const pgbench = await findPgbench();
  if (!pgbench) return undefined;
  const clients = options.clients ?? 10;
  const seconds = options.seconds ?? 8;
  const scale = options.scale ?? 10;
  const database = await freshDatabase('bench_pgbench', adminUrl);
  try {
    await run(pgbench, ['-i', '-q', '-s', String(scale), database.url]);
    await settle(adminUrl);
    const out = await run(pgbench, [
      ...['-c', String(clients), '-j', '2', '-T', String(seconds), '-n'],
      database.url,
    ]);
    const tps = /tps = ([\d.]+)/.exec(out)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${out}`);
    return { tps: Number(tps), clients, seconds, scale };
  } finally {
    await database.drop();
    await settle(adminUrl);
  }
}

/**
 * Lets the machine settle after a burst of writes (pgbench's set-up, a server's seed):
 * a CHECKPOINT of the PostgreSQL cluster at `url`, if one is given, then `sync`, which
 * returns once the kernel has written the dirty pages out. Without it, the writeback of
 * pgbench's few hundred megabytes ran on these two cores during the next measurement
 * and took a quarter off it (the first helper row after pgbench: 827 calls/s, then
 * 1,043 and 1,147 on the same server). So every timed run starts from a flushed machine.
 *
 * @example
 * ```ts
 * await settle(database.url); // after seeding, before measuring
 * ```
 */
export async function settle(url?: string): Promise<void> {
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // A role without the right (not a superuser, nor pg_checkpoint) skips it: the
      // cluster then writes its pages out on its own schedule.
      await client.query('CHECKPOINT').catch((error: { code?: string }) => {
        if (error.code !== '42501') throw error;
      });
    } finally {
      await client.end();
    }
  }
  await run('sync', []);
}

/** What a {@link databaseMeter} measured between `start()` and `stop()`. */
export interface DatabaseWork {
  /** Statements run; undefined without pg_stat_statements. */
  statements: number | undefined;
  /**
   * CPU milliseconds of the cluster's processes (postmaster, backends, workers);
   * undefined when the cluster is not on this machine or /proc cannot be read.
   */
  cpuMs: number | undefined;
}

/**
 * Measures the work of the database at `url` between `start()` and `stop()`: the
 * statements run (`pg_stat_statements`, every statement of every session, nested ones
 * included; BEGIN, COMMIT and savepoints included; needs a cluster started with
 * {@link STATEMENT_COUNT_SETTINGS}), and the CPU its cluster's processes used (when it
 * runs on this machine: found from this session's backend's parent).
 *
 * @example
 * ```ts
 * const meter = await databaseMeter(database.url);
 * await meter.start();
 * // … calls …
 * const { statements, cpuMs } = await meter.stop(); // the work done meanwhile
 * ```
 */
export async function databaseMeter(url: string): Promise<{
  start(): Promise<void>;
  stop(): Promise<DatabaseWork>;
}> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const available = await client
    .query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
    .then(() => client.query('SELECT 1 FROM pg_stat_statements LIMIT 1'))
    .then(
      () => true,
      () => false,
    );
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = rows[0]?.pid;
  const postmaster = backend === undefined ? undefined : parentOf(backend);
  // The processes as they are once the servers' pools are open; a backend that starts
  // later is not counted (the servers keep theirs).
  let processes: number[] = [];
  const count = async (): Promise<number> => {
    const { rows } = await client.query<{ n: string | null }>(
      `SELECT sum(calls)::text AS n FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    return Number(rows[0]?.n ?? 0);
  };
  let before = 0;
  let cpuBefore: number | undefined;
  return {
    async start() {
      if (available) before = await count();
      processes = postmaster === undefined ? [] : familyOf(postmaster);
      cpuBefore = processes.length > 0 ? cpuMsOf(processes) : undefined;
    },
    async stop() {
      try {
        const cpuAfter = cpuBefore === undefined ? undefined : cpuMsOf(processes);
        return {
          // The counting statements themselves (this one and the one in start()) are not the calls'.
          statements: available ? (await count()) - before - 1 : undefined,
          cpuMs:
            cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
        };
      } finally {
        await client.end();
      }
    },
  };
}

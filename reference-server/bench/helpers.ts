/**
 * Helper benchmark over HTTP: `POST record_signature_helper` as fast as `clients`
 * concurrent clients can make it, against the server as users run it.
 *
 * The server runs in a child process (`node --import tsx src/cli.ts`), so that it shares
 * neither the event loop nor the heap with the clients, on a temporary SQLite FILE
 * (WAL, `synchronous = FULL`: every answered call is durable) and then on `:memory:`,
 * each seeded with `people` demo people. Every client makes sequential calls with plain
 * `fetch` (keep-alive), each for a new person (keyed call, with `add_tags`: a person, a
 * signature and a tagging per call), for `durationSeconds` after a one-second warm-up.
 * Printed: calls/s and the p50/p90 latency of each database and number of clients.
 * Afterwards the petition's `total_signatures` must equal the number of calls that got
 * a 2xx answer (warm-up included); the exit code is 1 otherwise.
 *
 *   npm run bench:helpers --workspace adis-server
 *   npm run bench:helpers --workspace adis-server -- --clients 1,10 --duration 5 --people 20000
 *   npm run bench:helpers --workspace adis-server -- --idempotency-keys   # as the SDK calls
 *   npm run bench:helpers --workspace adis-server -- --db file --webhook  # the outbox written
 *   npm run bench:helpers --workspace adis-server -- --db postgres --instances 1,2
 *
 * With `--db postgres` each row gets a new database on a throwaway PostgreSQL cluster
 * (Debian's postgresql, started as the tests start theirs; `ADIS_BENCH_POSTGRES_URL`
 * names an existing one instead), and `--instances n` runs n server processes on it,
 * the clients taking them in turn as a round-robin load balancer would.
 *
 * With `--webhook` (file database only) the `bench` tenant has a webhook subscription
 * before the server starts, to a documentation address: every call then appends its
 * event to the outbox, and the count of `signature` events is printed. Nothing is
 * delivered (the server's address check refuses the address at each attempt, and logs
 * it): only the write path counts.
 *
 * The root benchmark calls {@link benchHelpers}.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startCli } from '../../bench/reference-server.js';
import { openStorage } from '../src/storage/sqlite.js';
import { type PostgresCluster, startPostgresCluster } from '../test/postgres/cluster.js';
import { freshDatabase } from '../test/postgres/database.js';
import { runPgbench, STATEMENT_COUNT_SETTINGS } from './pgbench.js';
import { type PostLoadResult, runPostLoad } from './post-load.js';

/** The write key of the benchmark server's `bench` tenant. */
const KEY = 'bench-helpers-key';

/** Options of {@link benchHelpers}. */
export interface HelperBenchOptions {
  /**
   * `'file'` (a temporary SQLite file), `':memory:'`, or `'postgres'` (a new database on
   * `postgresUrl`'s cluster). Default `'file'`.
   */
  db?: HelperBenchDatabase;
  /**
   * Server processes on the one database (`'postgres'` only), the clients spread over
   * them in turn, as behind a round-robin load balancer. Default 1.
   */
  instances?: number;
  /** Admin URL of the PostgreSQL cluster for `'postgres'` (its databases are made there). */
  postgresUrl?: string;
  /** Concurrent clients, each making sequential calls. Default 10. */
  clients?: number;
  /** Measured seconds (after a one-second warm-up). Default 5. */
  durationSeconds?: number;
  /** Demo people seeded before measuring. Default 10 000. */
  people?: number;
  /** Extra arguments of `node` for the server process (`--cpu-prof`, …). */
  nodeArgs?: readonly string[];
  /** Working directory of the server process (where `--cpu-prof` writes). */
  cwd?: string;
  /**
   * Send a new `Idempotency-Key` with every call, as the SDK does by default: the
   * server then stores each answer with the call's writes. Default false.
   */
  idempotencyKeys?: boolean;
  /**
   * Subscribe the `bench` tenant to webhooks before the server starts (file database
   * only), so that every call also writes its event to the outbox. Default false.
   */
  webhook?: boolean;
}

/** Where a {@link benchHelpers} run keeps its data. */
export type HelperBenchDatabase = 'file' | ':memory:' | 'postgres';

/** What {@link benchHelpers} measured. */
export interface HelperBenchResult extends PostLoadResult {
  db: HelperBenchDatabase;
  /** Server processes measured together. */
  instances: number;
  clients: number;
  /** The petition's `total_signatures` afterwards: must equal `acknowledged`. */
  totalSignatures: number;
  /** `signature` events in the outbox afterwards (with {@link HelperBenchOptions.webhook}). */
  outboxEvents?: number;
}

/**
 * TEST-NET-1 (RFC 5737): a documentation address, which the delivery's address check
 * refuses, so nothing leaves the machine and the events pile up in the outbox.
 */
const UNREACHABLE_WEBHOOK = 'http://192.0.2.1/bench-webhook';

/** Creates the database with the `bench` tenant subscribed, before the server opens it. */
function subscribeBenchTenant(path: string): void {
  const storage = openStorage(path).sqlite;
  try {
    storage.webhooks.addSubscription({
      id: randomUUID(),
      tenantId: storage.tenants.ensure('bench').id,
      url: UNREACHABLE_WEBHOOK,
      secret: 'bench-secret',
      triggers: ['*'],
      source: 'api',
      createdMs: Date.now(),
    });
  } finally {
    storage.close();
  }
}

/** `signature` events in the outbox of the database at `path`. */
function signatureEvents(path: string): number {
  const storage = openStorage(path).sqlite;
  try {
    const row = storage.database
      .prepare("SELECT count(*) AS n FROM webhook_events WHERE type = 'signature'")
      .get() as { n: number };
    return row.n;
  } finally {
    storage.close();
  }
}

/** Stops the server with SIGTERM (a clean shutdown) and waits for it to exit. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Where a call's CPU went, in milliseconds: `client 0.30 + server 1.10 + database 0.80`,
 * the parts measured (the database's only on PostgreSQL); empty when none was.
 *
 * @example
 * ```ts
 * console.log(`CPU a call: ${cpuPerCall(result)}`);
 * ```
 */
export function cpuPerCall(result: PostLoadResult): string {
  const parts: [string, number | undefined][] = [
    ['client', result.clientCpuMsPerCall],
    ['server', result.serverCpuMsPerCall],
    ['database', result.databaseCpuMsPerCall],
  ];
  return parts
    .filter((part): part is [string, number] => part[1] !== undefined)
    .map(([name, ms]) => `${name} ${ms.toFixed(2)}`)
    .join(' + ');
}

async function json(
  url: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method,
    headers: { 'STD-API-Token': KEY, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function selfHref(record: Record<string, unknown>): string {
  return (record._links as { self: { href: string } }).self.href;
}

/**
 * Runs the benchmark on one database with one number of clients.
 *
 * @example
 * ```ts
 * const result = await benchHelpers({ db: 'file', clients: 10, durationSeconds: 5 });
 * console.log(result.callsPerSecond, result.totalSignatures === result.acknowledged);
 * ```
 */
export async function benchHelpers(options: HelperBenchOptions = {}): Promise<HelperBenchResult> {
  const db = options.db ?? 'file';
  const instances = options.instances ?? 1;
  const clients = options.clients ?? 10;
  const durationSeconds = options.durationSeconds ?? 5;
  const people = options.people ?? 10_000;
  if (!(clients >= 1 && durationSeconds > 0 && people >= 0)) {
    throw new RangeError('need clients >= 1, durationSeconds > 0 and people >= 0');
  }
  if (instances < 1 || (instances > 1 && db !== 'postgres')) {
    throw new RangeError('several instances need the postgres database');
  }
  if (db === 'postgres' && !options.postgresUrl) {
    throw new RangeError("db 'postgres' needs postgresUrl, the cluster's admin URL");
  }
  if (options.webhook && db !== 'file') {
    throw new RangeError(
      'webhook needs the file database: the subscription is made before the server starts',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'adis-bench-helpers-'));
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify({ keys: [{ token: KEY, tenant: 'bench', access: 'write' }] }));
  const dbPath = join(dir, 'bench.db');
  if (options.webhook) subscribeBenchTenant(dbPath);
  let outboxEvents: number | undefined;
  const database =
    db === 'postgres' ? await freshDatabase('bench_helpers', options.postgresUrl) : undefined;
  const start = (seed: number) =>
    startCli({
      db: database?.url ?? (db === 'file' ? dbPath : ':memory:'),
      keys,
      seed,
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
  // The first seeds the people; the others open the same database as it is.
  const servers = [await start(people)];
  while (servers.length < instances) servers.push(await start(0));
  const [server] = servers as [(typeof servers)[number]];
  try {
    const api = server.url.replace(/\/$/, '');
    const petition = await json(`${api}/petitions`, 'POST', { title: 'Benchmark petition' });
    const tag = await json(`${api}/tags`, 'POST', { name: 'Benchmark' });
    if (petition.status !== 201 || tag.status !== 201) {
      throw new Error(`setup failed: ${petition.status} ${tag.status}`);
    }
    const petitionHref = selfHref(petition.body);
    // The same helper on each instance: clients take them in turn.
    const path = `${new URL(petitionHref).pathname}/record_signature_helper`;
    const helpers = servers.map((each) => new URL(path, each.url).href);
    const headers = { 'STD-API-Token': KEY, 'Content-Type': 'application/json' };
    const measured = await runPostLoad({
      urls: helpers,
      clients,
      durationSeconds,
      serverPids: servers.map((each) => each.child.pid),
      ...(database ? { databaseUrl: database.url } : {}),
      headers: () =>
        options.idempotencyKeys ? { ...headers, 'Idempotency-Key': randomUUID() } : headers,
      body: (index, n) =>
        JSON.stringify({
          person: {
            given_name: 'Bench',
            family_name: `Client ${index}`,
            email_addresses: [{ address: `c${index}-${n}@bench.example` }],
          },
          add_tags: ['Benchmark'],
        }),
    });

    const after = await json(petitionHref);
    if (options.webhook) {
      await stopServer(server.child);
      outboxEvents = signatureEvents(dbPath);
    }
    return {
      db,
      instances,
      clients,
      ...measured,
      totalSignatures: Number(after.body.total_signatures),
      ...(outboxEvents === undefined ? {} : { outboxEvents }),
    };
  } finally {
    await Promise.all(servers.map((each) => stopServer(each.child)));
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A throwaway PostgreSQL cluster for the benchmark's `postgres` rows (started as
 * test/postgres/cluster.ts does, with pg_stat_statements to count statements), unless
 * `ADIS_BENCH_POSTGRES_URL` names one: its admin URL, and the stop to call at the end.
 *
 * @example
 * ```ts
 * const cluster = await benchCluster();
 * await benchHelpers({ db: 'postgres', postgresUrl: cluster.url, instances: 2 });
 * await cluster.stop();
 * ```
 */
export async function benchCluster(): Promise<Pick<PostgresCluster, 'url' | 'stop'>> {
  const given = process.env.ADIS_BENCH_POSTGRES_URL;
  if (given) return { url: given, stop: async () => {} };
  return startPostgresCluster({ settings: STATEMENT_COUNT_SETTINGS });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      clients: { type: 'string', default: '10' },
      duration: { type: 'string', default: '5' },
      people: { type: 'string', default: '10000' },
      db: { type: 'string', default: 'file,:memory:' },
      instances: { type: 'string', default: '1' },
      'idempotency-keys': { type: 'boolean', default: false },
      webhook: { type: 'boolean', default: false },
    },
  });
  const idempotencyKeys = values['idempotency-keys'];
  const webhook = values.webhook;
  const clientCounts = values.clients.split(',').map(Number);
  const dbs = values.db.split(',') as HelperBenchDatabase[];
  const instanceCounts = values.instances.split(',').map(Number);
  // Always a cluster: pgbench on it is the anchor of every row, SQLite's too.
  const cluster = await benchCluster();
  const durationSeconds = Number(values.duration);
  const people = Number(values.people);
  console.log(
    `record_signature_helper over HTTP, new person + add_tags per call${idempotencyKeys ? ', an Idempotency-Key each' : ''}${webhook ? ', the tenant subscribed to webhooks' : ''}, ${people} people seeded, ${durationSeconds} s each\n`,
  );
  const anchor = await runPgbench(cluster.url, { clients: 10, seconds: 8 });
  console.log(
    anchor
      ? `pgbench tpcb-like on the same cluster, 10 clients, 8 s: ${anchor.tps.toFixed(0)} transactions/s\n`
      : "pgbench not found (it comes with the machine's PostgreSQL): no anchor\n",
  );
  console.log(
    `${'database'.padEnd(10)} ${'inst'.padStart(4)} ${'clients'.padStart(7)} ${'calls/s'.padStart(9)} ${'÷ pgbench'.padStart(9)} ${'stmts'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)}  check; CPU ms a call`,
  );
  let ok = true;
  for (const db of dbs) {
    for (const instances of db === 'postgres' ? instanceCounts : [1])
      for (const clients of clientCounts) {
        const r = await benchHelpers({
          db,
          instances,
          postgresUrl: cluster.url,
          clients,
          durationSeconds,
          people,
          idempotencyKeys,
          webhook,
        });
        const exact = r.totalSignatures === r.acknowledged && r.failed === 0;
        ok &&= exact;
        console.log(
          `${db.padEnd(10)} ${String(instances).padStart(4)} ${String(clients).padStart(7)} ${r.callsPerSecond.toFixed(0).padStart(9)} ${(anchor ? (r.callsPerSecond / anchor.tps).toFixed(2) : '-').padStart(9)} ${(r.statementsPerCall?.toFixed(1) ?? '-').padStart(6)} ${r.p50Ms.toFixed(2).padStart(8)} ${r.p90Ms.toFixed(2).padStart(8)}  ` +
            (exact
              ? `total_signatures ${r.totalSignatures} = acknowledged calls` +
                (r.outboxEvents === undefined
                  ? ''
                  : `, ${r.outboxEvents} signature events in the outbox`)
              : `FAILED: total_signatures ${r.totalSignatures}, acknowledged ${r.acknowledged}, failed ${r.failed}`) +
            `; ${cpuPerCall(r)}`,
        );
      }
  }
  await cluster.stop();
  if (!ok) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}

/**
 * The whole benchmark, side by side in one run (`npm run bench`): the SDK's paging
 * against a hand-written fetch loop and ketting 8, the reference server against a
 * bare Hono app on the same `@hono/node-server`, the record signature helper under
 * concurrent clients, `adis-export` against plain paging, and `runSync` against a
 * hand-written loop of SDK calls writing the same records. It ends with the ratios the
 * project aims at, each against its target.
 *
 *   npm run bench                    # about five minutes on 2 cores
 *   npm run bench -- --quick         # small sizes: checks that every part runs
 *   npm run bench -- --only paging,server
 *   npm run bench -- --only sync
 *
 * Only ratios taken in one run mean anything on a shared machine: both sides of each
 * are measured here, minutes apart at most. docs/performance.md records the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BareSignupResult, benchBareSignup } from '../reference-server/bench/bare-signup.js';
import {
  benchCluster,
  benchHelpers,
  cpuPerCall,
  type HelperBenchResult,
} from '../reference-server/bench/helpers.js';
import {
  benchServerReads,
  formatServerReads,
  type ServerReads,
} from '../reference-server/bench/http-read.js';
import { type PgbenchResult, runPgbench } from '../reference-server/bench/pgbench.js';
import type { PostLoadResult } from '../reference-server/bench/post-load.js';
import { benchExport, EXPORT_TABLE_HEADER, type ExportBenchRow, formatRow } from './export.js';
import { benchPaging, type PagingFigures, printPaging } from './paging.js';
import { startServer } from './reference-server.js';
import { benchSync, formatSyncRun, printSync, type SyncFigures } from './sync.js';

const SECTIONS = ['paging', 'server', 'helpers', 'export', 'sync'] as const;
type Section = (typeof SECTIONS)[number];

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string', default: SECTIONS.join(',') },
  },
});
const quick = values.quick;
const only = new Set(values.only.split(',').map((name) => name.trim()));
for (const name of only) {
  if (!(SECTIONS as readonly string[]).includes(name)) {
    throw new Error(`--only: unknown part "${name}"; the parts are ${SECTIONS.join(', ')}`);
  }
}
const runs = (section: Section) => only.has(section);
// `npm run bench` builds first: measure the server people run (dist/cli.js), not tsx's.
process.env.ADIS_BENCH_SERVER ??= 'built';

/** Sizes: the figures of docs/performance.md, or a quick pass that only checks the parts run. */
const SIZES = quick
  ? {
      people: 2_000,
      memoryPeople: 5_000,
      rounds: 1,
      runs: 1,
      seconds: 1,
      exportSizes: [2_000],
      syncPeople: 200,
      syncRounds: 1,
    }
  : {
      people: 20_000,
      memoryPeople: 100_000,
      rounds: 2,
      runs: 2,
      seconds: 5,
      exportSizes: [20_000],
      syncPeople: 2_000,
      syncRounds: 3,
    };

interface Ratio {
  work: string;
  value: number;
  /** `≥ 0.5`, or `—` for a ratio shown to read the others by. */
  target: string;
  met: boolean | undefined;
}

async function pagingPart(): Promise<PagingFigures> {
  const dir = mkdtempSync(join(os.tmpdir(), 'adis-bench-'));
  const { child, url } = await startServer(dir, Math.max(SIZES.people, SIZES.memoryPeople));
  try {
    const figures = await benchPaging({
      url,
      people: SIZES.people,
      memoryPeople: SIZES.memoryPeople,
      rounds: SIZES.rounds,
      runs: SIZES.runs,
    });
    printPaging(figures, SIZES.people);
    return figures;
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function serverPart(): Promise<ServerReads> {
  const reads = await benchServerReads({
    people: SIZES.people,
    durationSeconds: SIZES.seconds,
  });
  console.log('\nReference server against a bare Hono app (autocannon, 10 connections):');
  console.log(formatServerReads(reads));
  return reads;
}

/**
 * A write row's figures: `379 calls/s, 0.20 × pgbench, 8.1 statements a call, CPU ms a
 * call: client 0.30 + server 2.35 + database 1.70, p50 25.0 ms, p90 35.9 ms`, the parts
 * this run measured.
 */
function loadFigures(result: PostLoadResult, pgbench: PgbenchResult | undefined): string {
  const anchor = pgbench ? `, ${(result.callsPerSecond / pgbench.tps).toFixed(2)} × pgbench` : '';
  const statements =
    result.statementsPerCall === undefined
      ? ''
      : `, ${result.statementsPerCall.toFixed(1)} statements a call`;
  const cpu = cpuPerCall(result) ? `, CPU ms a call: ${cpuPerCall(result)}` : '';
  return `${Math.round(result.callsPerSecond)} calls/s${anchor}${statements}${cpu}, p50 ${result.p50Ms.toFixed(1)} ms, p90 ${result.p90Ms.toFixed(1)} ms`;
}

/** What the helpers part measured: its rows, and pgbench's rate on the same cluster. */
interface HelpersMeasured {
  results: (HelperBenchResult & { webhook: boolean })[];
  /** The bare signup app's rows (bare-signup-server.ts), the helper rows' peer. */
  bare: BareSignupResult[];
  pgbench: PgbenchResult | undefined;
}

async function helpersPart(): Promise<HelpersMeasured> {
  console.log('\nPOST record_signature_helper over HTTP, sequential calls per client:');
  const results: (HelperBenchResult & { webhook: boolean })[] = [];
  // The outbox row writes the webhook outbox too (a subscription whose receiver never
  // answers): set beside the row above it, it says what the outbox costs a write. The
  // postgres rows run one and two server processes on one database of a throwaway
  // cluster, the clients spread over them. pgbench on the same cluster first: the
  // anchor every row is divided by (only ratios from one run mean anything here). The
  // peer of the helper rows, the bare signup app (bare-signup-server.ts), runs right after
  // the row it is read against, so that the two meet the machine as alike as it allows.
  const cluster = await benchCluster();
  try {
    const pgbench = await runPgbench(cluster.url, { clients: 10, seconds: quick ? 3 : 8 });
    console.log(
      pgbench
        ? `  pgbench tpcb-like, same cluster, 10 clients: ${Math.round(pgbench.tps)} transactions/s`
        : "  pgbench not found (it comes with the machine's PostgreSQL): no anchor",
    );
    const rows = [
      ['file', 1, false, 1],
      ['file', 10, false, 1],
      ['file', 10, true, 1],
      [':memory:', 10, false, 1],
      ['postgres', 10, false, 1],
      ['postgres', 10, false, 2],
    ] as const;
    // The quick pass checks that each part runs: one postgres row is enough.
    const run = rows.filter(
      ([db, , , instances]) => !quick || db !== 'postgres' || instances === 2,
    );
    const bare: BareSignupResult[] = [];
    // A bare signup app writing the same signup by hand, in as many statements.
    const bareRow = async (db: 'file' | 'postgres') => {
      const result = await benchBareSignup({
        db,
        postgresUrl: cluster.url,
        durationSeconds: SIZES.seconds,
      });
      console.log(
        `  bare signup (Hono, SQL by hand), ${db.padEnd(8)} 10 clients: ${loadFigures(result, pgbench)}; ${result.acknowledged} acknowledged, ${result.totalSignatures} stored`,
      );
      if (result.totalSignatures !== result.acknowledged || result.failed > 0) {
        throw new Error('bare signup: the signatures stored do not match the acknowledged calls');
      }
      bare.push(result);
    };
    for (const [db, clients, webhook, instances] of run) {
      const result = await benchHelpers({
        db,
        clients,
        webhook,
        instances,
        postgresUrl: cluster.url,
        durationSeconds: SIZES.seconds,
        people: quick ? 1_000 : 10_000,
      });
      console.log(
        `  ${db.padEnd(8)} ${String(clients).padStart(2)} clients${instances > 1 ? `, ${instances} instances` : ''}${webhook ? ', outbox' : ''}: ${loadFigures(result, pgbench)}; ${result.acknowledged} acknowledged, total_signatures ${result.totalSignatures}${webhook ? `, outbox events ${result.outboxEvents}` : ''}${result.failed ? `, ${result.failed} FAILED` : ''}`,
      );
      if (result.totalSignatures !== result.acknowledged || result.failed > 0) {
        throw new Error('helper calls: the total does not match the acknowledged calls');
      }
      if (webhook && result.outboxEvents !== result.acknowledged) {
        throw new Error('helper calls: an acknowledged call without its webhook event');
      }
      results.push({ ...result, webhook });
      const peer = db === 'file' || db === 'postgres' ? db : undefined;
      if (peer && clients === 10 && !webhook && !bare.some((each) => each.db === peer)) {
        await bareRow(peer);
      }
    }
    return { results, bare, pgbench };
  } finally {
    await cluster.stop();
  }
}

async function exportPart(): Promise<ExportBenchRow[]> {
  console.log('\nadis-export against SDK paging with read-ahead (each in its own process):');
  console.log(EXPORT_TABLE_HEADER);
  return benchExport({ sizes: SIZES.exportSizes, onRow: (row) => console.log(formatRow(row)) });
}

async function syncPart(): Promise<SyncFigures> {
  console.log(
    `\nrunSync against a loop of SDK calls, ${SIZES.syncPeople.toLocaleString('en-US')} people and their signatures, each run on a new target:`,
  );
  const figures = await benchSync({
    people: SIZES.syncPeople,
    rounds: SIZES.syncRounds,
    onRun: (run) => console.log(formatSyncRun(run)),
  });
  printSync(figures);
  return figures;
}

function ratio(work: string, value: number, target: number, direction: '≤' | '≥'): Ratio {
  return {
    work,
    value,
    target: `${direction} ${target}`,
    met: direction === '≤' ? value <= target : value >= target,
  };
}

async function main(): Promise<void> {
  const cpu = os.cpus();
  console.log(
    `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}${quick ? ' (quick sizes)' : ''}`,
  );
  const ratios: Ratio[] = [];
  if (runs('paging')) {
    const { seconds, maxRssMb } = await pagingPart();
    const loop = seconds['fetch loop'];
    ratios.push(
      ratio('paging: SDK ÷ fetch loop', seconds.SDK / loop, 1.05, '≤'),
      ratio('paging with read-ahead ÷ fetch loop', seconds['SDK, read-ahead'] / loop, 0.9, '≤'),
      ratio('ketting 8 ÷ SDK, same walk', seconds['ketting 8'] / seconds.SDK, 1.5, '≥'),
      ratio('SDK peak RSS ÷ fetch loop peak RSS', maxRssMb.SDK / maxRssMb['fetch loop'], 1.1, '≤'),
    );
  }
  if (runs('server')) {
    const reads = await serverPart();
    ratios.push(
      ratio(
        'GET one person ÷ bare Hono hello world',
        reads.onePerson / reads.helloWorld,
        0.25,
        '≥',
      ),
      ratio(
        'GET a page of 100 ÷ bare Hono, same bytes',
        reads.page / reads.pageFromMemory,
        0.4,
        '≥',
      ),
    );
  }
  if (runs('helpers')) {
    const { results, bare, pgbench } = await helpersPart();
    const row = (db: string, instances = 1) =>
      results.find(
        (result) =>
          result.db === db &&
          result.clients === 10 &&
          !result.webhook &&
          result.instances === instances,
      );
    const file10 = row('file');
    const outbox10 = results.find((result) => result.webhook);
    const postgres1 = row('postgres');
    const postgres2 = row('postgres', 2);
    const quotient = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined ? undefined : a / b;
    // Each ratio whose two sides this run measured (a quick run or a machine without
    // pgbench leaves some out).
    const peerOf = (db: 'file' | 'postgres') => bare.find((each) => each.db === db)?.callsPerSecond;
    // Issue 48's targets: the bare signup app is the floor these writes stand on (the
    // pgbench ratios, issue 33's, are printed below without a target).
    const helperRatios: [string, number | undefined, number, '≤' | '≥'][] = [
      [
        'helper ÷ bare signup, PostgreSQL, 10 clients',
        quotient(postgres1?.callsPerSecond, peerOf('postgres')),
        0.8,
        '≥',
      ],
      [
        'helper ÷ bare signup, SQLite file, 10 clients',
        quotient(file10?.callsPerSecond, peerOf('file')),
        0.9,
        '≥',
      ],
      [
        'PostgreSQL: 2 servers ÷ 1 server',
        quotient(postgres2?.callsPerSecond, postgres1?.callsPerSecond),
        0.9,
        '≥',
      ],
      [
        'statements per helper call, PostgreSQL',
        (postgres1 ?? postgres2)?.statementsPerCall,
        8,
        '≤',
      ],
      [
        'helper calls/s with the webhook outbox ÷ without',
        quotient(outbox10?.callsPerSecond, file10?.callsPerSecond),
        0.9,
        '≥',
      ],
    ];
    for (const [work, value, target, direction] of helperRatios) {
      if (value !== undefined) ratios.push(ratio(work, value, target, direction));
    }
    // No target: against pgbench, what this machine's PostgreSQL does itself.
    for (const [work, value] of [
      [
        'helper calls/s, SQLite file, 10 clients ÷ pgbench tpcb-like tps',
        quotient(file10?.callsPerSecond, pgbench?.tps),
      ],
      [
        'helper calls/s, PostgreSQL, 1 server, 10 clients ÷ pgbench tps',
        quotient(postgres1?.callsPerSecond, pgbench?.tps),
      ],
      ['bare signup ÷ pgbench, PostgreSQL', quotient(peerOf('postgres'), pgbench?.tps)],
    ] as const) {
      if (value !== undefined) ratios.push({ work, value, target: '—', met: undefined });
    }
  }
  if (runs('export')) {
    const rows = await exportPart();
    for (const row of rows) {
      ratios.push(ratio(`export ÷ paging, ${row.format}`, row.ratio, 0.8, '≥'));
    }
  }
  if (runs('sync')) {
    const figures = await syncPart();
    ratios.push(
      ratio('sync: runSync ÷ SDK loop, records/s, 4 writes at once', figures.ratio, 0.8, '≥'),
      ratio(
        "sync: a second, unchanged run's requests, % of the first's",
        (100 * figures.secondRequests) / figures.firstRequests,
        1,
        '≤',
      ),
      {
        work: 'sync: runSync ÷ SDK loop, records/s, one write at a time',
        value: figures.ratioSequential,
        target: '—',
        met: undefined,
      },
    );
  }
  console.log('\nSummary (each ratio from this run):');
  console.log('| work | measured | target | met |');
  console.log('|---|---:|---:|---|');
  for (const { work, value, target, met } of ratios) {
    const shown = value >= 100 ? Math.round(value).toString() : value.toFixed(2);
    console.log(
      `| ${work} | ${shown} | ${target} | ${met === undefined ? '—' : met ? 'yes' : 'no'} |`,
    );
  }
}

await main();

/**
 * Sync benchmark: `runSync` (adis-sdk/sync) copying people and their signatures between
 * two reference servers, against the same records written by a hand-written loop of SDK
 * calls, and a second, unchanged run's requests against the first's.
 *
 *   npm run bench -- --only sync                          # 2,000 people, 3 rounds
 *   node --import tsx bench/sync.ts --people 2000 --runs 3 [--profile dir]
 *
 * The servers are the command line reference server, each in a process of its own
 * (bench/reference-server.ts: a SQLite file in a temporary folder, the same options on
 * every side): one source, seeded once with the demo people and demo activity of
 * `--seed n` plus a petition that every person signs, and a new, empty target for every
 * measured run. Each side runs in a process of its own too, plain `node` on the built
 * SDK (`dist/`: `npm run build` first), from a script this file writes
 * ({@link sideScript}), so that each starts as cold as the other and their heaps are
 * their own; it connects with a counting `fetch`, times itself from connecting to its
 * last write, and prints one JSON line.
 *
 * - **loop**, the peer: pages the source's people (read-ahead) and signs each up on the
 *   target with `to.signup({ person })`, as runSync writes people; creates each
 *   petition with `to.petitions.create` and, paging the source's signatures, creates
 *   each under its petition's copy linking the person's copy. The copies' addresses are
 *   kept in plain Maps; the bodies are the records' members less the server's, with the
 *   source's `adis:` identifiers as `origin:` (what runSync writes). No state, no
 *   journal, no matching. The writes of a page go 4 at a time (runSync's default), or
 *   one at a time (`loop, sequential`).
 * - **sync**: `runSync` with `openSyncState` in the target's folder, `kinds: ['people',
 *   'petitions', 'signatures']`, `sourceSystem: 'origin'` (both servers' namespace is
 *   `adis`), the default concurrency (4); then, in the same process, a second run as a
 *   second command would make it (connected again, the state opened again), with
 *   nothing changed on the source. Both runs take `overlapMs: 0`: the second run reads
 *   what changed since the first run's mark, which is the first run's start less the
 *   overlap, and with the default minute it would read back every record seeded in the
 *   minute before the first run.
 *
 * Rounds run the sides in turns (loop, sync, loop sequential), each on a new target;
 * the figures are medians over the rounds. Each run is checked: the target ends with
 * as many people, petitions and signatures as the source has.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMsOf } from '../reference-server/bench/process-cpu.js';
import { connect } from '../src/index.js';
import { KEY, startServer } from './reference-server.js';

/** The sides a round runs, in this order. */
export const SYNC_SIDES = ['loop', 'sync', 'loop, sequential'] as const;
/** One of {@link SYNC_SIDES}. */
export type SyncSide = (typeof SYNC_SIDES)[number];

/** runSync's default writes in flight (src/sync/run-sync.ts): the peer's too. */
const CONCURRENCY = 4;

/** The kinds both sides copy. */
const KINDS = ['people', 'petitions', 'signatures'] as const;

/** What the copies carry the source's own identifiers as (both namespaces are `adis`). */
const SOURCE_SYSTEM = 'origin';

/** Requests sent to each server. */
export interface Requests {
  from: number;
  to: number;
}

/** What a side's process prints: one timed copy (and for `sync`, the second run). */
interface ChildReport {
  seconds: number;
  /** Records copied (people, petitions and signatures read and written). */
  records: number;
  requests: Requests;
  /** CPU of the side's process over the timed part, user and system, ms. */
  clientCpuMs: number;
  /** `sync`: the second, unchanged run. */
  second?: { seconds: number; requests: Requests; read: number; written: number };
}

/** One measured run of a side, on a new target. */
export interface SyncRun extends ChildReport {
  side: SyncSide;
  /** CPU of the source's and the target's server processes over the run, ms. */
  sourceCpuMs: number | undefined;
  targetCpuMs: number | undefined;
}

/** The medians of a side over the rounds. */
export interface SideFigures {
  seconds: number;
  recordsPerSecond: number;
  requests: number;
  /** CPU ms a record: the side's process, the source server, the target server. */
  cpuMsPerRecord: { client: number; source: number | undefined; target: number | undefined };
}

/** What {@link benchSync} measured. */
export interface SyncFigures {
  people: number;
  /** Records each run copies: people, petitions, signatures. */
  records: number;
  /** The source's records, by kind. */
  counts: Record<(typeof KINDS)[number], number>;
  rounds: number;
  sides: Record<SyncSide, SideFigures>;
  /** runSync's records/s ÷ the loop's at the same concurrency (medians). */
  ratio: number;
  /** runSync's records/s ÷ the sequential loop's (medians). */
  ratioSequential: number;
  /** The same ratio, round by round (sync ÷ the loop of the same round). */
  roundRatios: number[];
  /** Requests of runSync's first run and of the second, unchanged one (medians). */
  firstRequests: number;
  secondRequests: number;
  secondSeconds: number;
  every: SyncRun[];
}

/** What {@link benchSync} measures. */
export interface SyncBenchOptions {
  /** People on the source, each signing the benchmark's petition. Default 2,000. */
  people?: number;
  /** Rounds of the sides in turns. Default 3. */
  rounds?: number;
  /**
   * A folder: each side's process writes a CPU profile there (`node --cpu-prof`),
   * named `<side>-<time>.cpuprofile`.
   */
  profileDir?: string;
  /** Called with each run as soon as it is measured. */
  onRun?(run: SyncRun): void;
}

/** Runs `work` on each item, at most `concurrency` at once. */
async function eachAtMost<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

const root = new URL('../', import.meta.url);

/**
 * The side's process, an ES module run by plain `node` against the built SDK (`dist/`),
 * as export.ts runs its paging loop: no tsx, whose module hooks would answer every
 * `import()` (the SDK loads the signup body's schema with one per call) through a
 * message to their thread. `node <script> <side> <source> <target> <folder>` prints one
 * JSON line ({@link ChildReport}). The loop's code is here, as a user would write it.
 */
function sideScript(): string {
  const sdk = new URL('dist/index.js', root).href;
  const sync = new URL('dist/sync/index.js', root).href;
  return `import { join } from 'node:path';
import { connect, personKind, petitionKind, signatureKind } from ${JSON.stringify(sdk)};
import { openSyncState, runSync } from ${JSON.stringify(sync)};

const [side, fromUrl, toUrl, dir] = process.argv.slice(2);
const KEY = ${JSON.stringify(KEY)};
const KINDS = ${JSON.stringify(KINDS)};

/** Connects both servers, counting every request each is sent. */
async function connectPair() {
  const requests = { from: 0, to: 0 };
  const counting = (server) => (input, init) => {
    requests[server] += 1;
    return globalThis.fetch(input, init);
  };
  const from = await connect(fromUrl, { apiKey: KEY, fetch: counting('from') });
  const to = await connect(toUrl, { apiKey: KEY, fetch: counting('to') });
  return { from, to, requests };
}

/** At most \`concurrency\` of \`work\` at once over the items. */
async function eachAtMost(items, concurrency, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/** A record's members less the server's, its own identifiers as the copy carries them. */
function members(record, readOnly) {
  const body = {};
  for (const [member, value] of Object.entries(record.document.body)) {
    if (!readOnly.includes(member)) body[member] = value;
  }
  if (Array.isArray(body.identifiers)) {
    body.identifiers = body.identifiers.map((id) =>
      id.startsWith('adis:') ? ${JSON.stringify(`${SOURCE_SYSTEM}:`)} + id.slice('adis:'.length) : id,
    );
  }
  return body;
}

/** The peer: people, petitions, signatures, by SDK calls, the copies in plain Maps. */
async function copyByLoop(from, to, concurrency) {
  const people = new Map();
  const petitions = new Map();
  let records = 0;
  for await (const page of from.people.pages({ readAhead: true })) {
    await eachAtMost(page.items, concurrency, async (person) => {
      const result = await to.signup({ person: members(person, personKind.readOnly) });
      if (!result.record) throw new Error('no copy of ' + person.url);
      people.set(person.url, result.record.url);
    });
    records += page.items.length;
  }
  for await (const page of from.petitions.pages({ readAhead: true })) {
    await eachAtMost(page.items, concurrency, async (petition) => {
      const body = members(petition, petitionKind.readOnly);
      const creator = people.get(petition.link('std:creator')?.url());
      if (creator !== undefined) body._links = { 'std:creator': { href: creator } };
      petitions.set(petition.url, await to.petitions.create(body));
    });
    records += page.items.length;
  }
  for await (const page of from.signatures.pages({ readAhead: true })) {
    await eachAtMost(page.items, concurrency, async (signature) => {
      const petition = petitions.get(signature.link('std:petition')?.url());
      const person = people.get(signature.link('std:person')?.url());
      if (!petition || !person) throw new Error(signature.url + ': no copy of its petition or person');
      const body = members(signature, signatureKind.readOnly);
      body._links = { 'std:person': { href: person } };
      await petition.signatures().create(body);
    });
    records += page.items.length;
  }
  return records;
}

/** One runSync run, from connecting (as a command starts) to closing the state. */
async function timedSync() {
  const started = performance.now();
  const { from, to, requests } = await connectPair();
  const state = await openSyncState(join(dir, 'sync-state.json'), { from: from.root.url, to: to.root.url });
  try {
    const summary = await runSync({
      from, to, state, kinds: KINDS, sourceSystem: ${JSON.stringify(SOURCE_SYSTEM)}, overlapMs: 0,
    });
    const tallies = Object.values(summary.kinds);
    const sum = (of) => tallies.reduce((total, tally) => total + of(tally), 0);
    if (sum((t) => t.refused) > 0) throw new Error('refused: ' + JSON.stringify(summary.refusals[0]));
    return {
      seconds: (performance.now() - started) / 1000,
      requests,
      read: sum((t) => t.read),
      written: sum((t) => t.created + t.updated),
    };
  } finally {
    await state.close();
  }
}

const cpu = process.cpuUsage();
const cpuMs = () => {
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
};
let report;
if (side === 'sync') {
  const first = await timedSync();
  const clientCpuMs = cpuMs();
  const second = await timedSync();
  report = { seconds: first.seconds, records: first.written, requests: first.requests, clientCpuMs, second };
} else {
  const started = performance.now();
  const { from, to, requests } = await connectPair();
  const records = await copyByLoop(from, to, side === 'loop' ? ${CONCURRENCY} : 1);
  report = { seconds: (performance.now() - started) / 1000, records, requests, clientCpuMs: cpuMs() };
}
process.stdout.write(JSON.stringify(report) + '\\n');
`;
}

/** Runs a side in a process of its own and resolves with what it printed. */
async function runSide(
  script: string,
  side: SyncSide,
  fromUrl: string,
  toUrl: string,
  dir: string,
  profileDir: string | undefined,
): Promise<ChildReport> {
  const name = `${side.replace(', ', '-')}-${Date.now()}.cpuprofile`;
  const profile = profileDir
    ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', name]
    : [];
  const process_ = spawn(process.execPath, [...profile, script, side, fromUrl, toUrl, dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  process_.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  process_.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((done) => process_.on('exit', done));
  if (code !== 0) throw new Error(`the ${side} side failed (${code}): ${stderr}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as ChildReport;
}

/** The records of each kind a server holds (its `total_records`). */
async function countsOf(url: string): Promise<SyncFigures['counts']> {
  const client = await connect(url, { apiKey: KEY });
  const total = async (collection: {
    pages(options: { limit: number }): AsyncIterable<{ totalRecords?: number | undefined }>;
  }): Promise<number> => {
    for await (const page of collection.pages({ limit: 1 })) {
      if (page.totalRecords === undefined) throw new Error(`${url} gives no total_records`);
      return page.totalRecords;
    }
    return 0;
  };
  return {
    people: await total(client.people),
    petitions: await total(client.petitions),
    signatures: await total(client.signatures),
  };
}

/**
 * Seeds the source: the demo people and activity of `--seed`, and one petition that
 * every person signs, through the API.
 */
async function seedSignatures(url: string): Promise<void> {
  const client = await connect(url, { apiKey: KEY });
  const petition = await client.petitions.create({
    title: 'Keep the library open on Sundays',
    description: 'A petition every person of the benchmark signs.',
  });
  const signatures = petition.signatures();
  let n = 0;
  for await (const page of client.people.pages({ readAhead: true })) {
    await eachAtMost(page.items, 8, async (person) => {
      n += 1;
      await signatures.create({
        action_date: new Date().toISOString(),
        ...(n % 3 === 0 ? { comments: `Sundays are when I can go (${n}).` } : {}),
        _links: { 'std:person': { href: person.url } },
      });
    });
  }
}

function stop(child_: ChildProcess): Promise<unknown> {
  child_.kill('SIGTERM');
  return new Promise((done) => child_.on('exit', done));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function maybeMedian(values: readonly (number | undefined)[]): number | undefined {
  return values.some((value) => value === undefined)
    ? undefined
    : median(values as readonly number[]);
}

/**
 * Measures runSync against the hand-written loop of SDK calls, in rounds, each run on a
 * new target server, and resolves with the medians.
 *
 * @example
 * ```ts
 * const figures = await benchSync({ people: 2_000, rounds: 3 });
 * console.log(figures.ratio.toFixed(2), figures.secondRequests / figures.firstRequests);
 * ```
 */
export async function benchSync(options: SyncBenchOptions = {}): Promise<SyncFigures> {
  const people = options.people ?? 2_000;
  const rounds = Math.max(1, options.rounds ?? 3);
  const sourceDir = mkdtempSync(join(os.tmpdir(), 'adis-bench-sync-source-'));
  const source = await startServer(sourceDir, people);
  const every: SyncRun[] = [];
  try {
    if (!existsSync(new URL('dist/sync/index.js', root))) {
      throw new Error('the sync benchmark runs the built SDK: npm run build first');
    }
    const script = join(sourceDir, 'side.mjs');
    writeFileSync(script, sideScript());
    await seedSignatures(source.url);
    const counts = await countsOf(source.url);
    const records = counts.people + counts.petitions + counts.signatures;
    // The source's `Date` header, which sets the first run's mark, is in whole seconds:
    // one second later, every record seeded is older than the mark.
    await new Promise((done) => setTimeout(done, 1100));
    for (let round = 0; round < rounds; round += 1) {
      for (const side of SYNC_SIDES) {
        const dir = mkdtempSync(join(os.tmpdir(), 'adis-bench-sync-target-'));
        const target = await startServer(dir, 0);
        try {
          const before = [cpuMsOf([source.child.pid]), cpuMsOf([target.child.pid])];
          const report = await runSide(
            script,
            side,
            source.url,
            target.url,
            dir,
            options.profileDir,
          );
          const after = [cpuMsOf([source.child.pid]), cpuMsOf([target.child.pid])];
          const used = (i: number) => {
            const [a, b] = [before[i], after[i]];
            return a === undefined || b === undefined ? undefined : b - a;
          };
          const copied = await countsOf(target.url);
          if (JSON.stringify(copied) !== JSON.stringify(counts) || report.records !== records) {
            throw new Error(
              `${side}: the target holds ${JSON.stringify(copied)} (${report.records} written), the source ${JSON.stringify(counts)}`,
            );
          }
          const run: SyncRun = { ...report, side, sourceCpuMs: used(0), targetCpuMs: used(1) };
          every.push(run);
          options.onRun?.(run);
        } finally {
          await stop(target.child);
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
    const runsOf = (side: SyncSide) => every.filter((run) => run.side === side);
    const figuresOf = (side: SyncSide): SideFigures => {
      const runs = runsOf(side);
      return {
        seconds: median(runs.map((run) => run.seconds)),
        recordsPerSecond: median(runs.map((run) => run.records / run.seconds)),
        requests: median(runs.map((run) => run.requests.from + run.requests.to)),
        cpuMsPerRecord: {
          client: median(runs.map((run) => run.clientCpuMs / run.records)),
          source: maybeMedian(runs.map((run) => run.sourceCpuMs && run.sourceCpuMs / run.records)),
          target: maybeMedian(runs.map((run) => run.targetCpuMs && run.targetCpuMs / run.records)),
        },
      };
    };
    const sides = Object.fromEntries(SYNC_SIDES.map((side) => [side, figuresOf(side)])) as Record<
      SyncSide,
      SideFigures
    >;
    const syncRuns = runsOf('sync');
    const loopRuns = runsOf('loop');
    const second = (run: SyncRun) => run.second?.requests ?? { from: Number.NaN, to: Number.NaN };
    return {
      people,
      records,
      counts,
      rounds,
      sides,
      ratio: sides.sync.recordsPerSecond / sides.loop.recordsPerSecond,
      ratioSequential: sides.sync.recordsPerSecond / sides['loop, sequential'].recordsPerSecond,
      roundRatios: syncRuns.map((run, i) => {
        const loop = loopRuns[i] as SyncRun;
        return loop.seconds / run.seconds;
      }),
      firstRequests: sides.sync.requests,
      secondRequests: median(syncRuns.map((run) => second(run).from + second(run).to)),
      secondSeconds: median(syncRuns.map((run) => run.second?.seconds ?? Number.NaN)),
      every,
    };
  } finally {
    await stop(source.child);
    rmSync(sourceDir, { recursive: true, force: true });
  }
}

/**
 * One measured run as a line: `sync  4.12 s  1,045 records/s  4,123 requests (…)`.
 *
 * @example
 * ```ts
 * await benchSync({ onRun: (run) => console.log(formatSyncRun(run)) });
 * ```
 */
export function formatSyncRun(run: SyncRun): string {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  const second = run.second
    ? `; second run ${run.second.seconds.toFixed(2)} s, ${run.second.requests.from} + ${run.second.requests.to} requests, ${run.second.read} read, ${run.second.written} written`
    : '';
  return `  ${run.side.padEnd(16)} ${run.seconds.toFixed(2)} s, ${n(run.records / run.seconds)} records/s, ${n(run.requests.from)} + ${n(run.requests.to)} requests${second}`;
}

/**
 * The medians as a table (Markdown) and the ratios under it.
 *
 * @example
 * ```ts
 * printSync(await benchSync({ people: 200, rounds: 1 }));
 * ```
 */
export function printSync(figures: SyncFigures): void {
  const n = (value: number) => Math.round(value).toLocaleString('en-US');
  const ms = (value: number | undefined) => (value === undefined ? '?' : value.toFixed(2));
  const { counts } = figures;
  console.log(
    `Medians of ${figures.rounds} round(s), ${n(figures.records)} records a copy (${n(counts.people)} people, ${counts.petitions} petitions, ${n(counts.signatures)} signatures):`,
  );
  console.log('| side | time | records/s | requests | CPU ms a record: client + source + target |');
  console.log('|---|---:|---:|---:|---|');
  const rows: [string, SyncSide][] = [
    ['SDK loop, 4 writes at once', 'loop'],
    ['SDK loop, sequential', 'loop, sequential'],
    ['runSync, first run', 'sync'],
  ];
  for (const [name, side] of rows) {
    const figures_ = figures.sides[side];
    const cpu = figures_.cpuMsPerRecord;
    console.log(
      `| ${name} | ${figures_.seconds.toFixed(2)} s | ${n(figures_.recordsPerSecond)} | ${n(figures_.requests)} | ${ms(cpu.client)} + ${ms(cpu.source)} + ${ms(cpu.target)} |`,
    );
  }
  console.log(
    `| runSync, second run (unchanged) | ${figures.secondSeconds.toFixed(2)} s | — | ${n(figures.secondRequests)} | — |`,
  );
  console.log(
    `runSync ÷ loop (4 at once): ${figures.ratio.toFixed(2)} (rounds: ${figures.roundRatios.map((r) => r.toFixed(2)).join(', ')}); ÷ sequential loop: ${figures.ratioSequential.toFixed(2)}; second run's requests: ${((100 * figures.secondRequests) / figures.firstRequests).toFixed(2)} % of the first's`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      people: { type: 'string', default: '2000' },
      runs: { type: 'string', default: '3' },
      profile: { type: 'string' },
    },
  });
  process.env.ADIS_BENCH_SERVER ??= 'built';
  console.log(
    `Sync benchmark on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
  );
  const figures = await benchSync({
    people: Number(values.people),
    rounds: Number(values.runs),
    ...(values.profile ? { profileDir: values.profile } : {}),
    onRun: (run) => console.log(formatSyncRun(run)),
  });
  printSync(figures);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}

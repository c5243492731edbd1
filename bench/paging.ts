/**
 * Paging benchmark: the SDK (with and without read-ahead and validation) against a
 * hand-written fetch loop and ketting 8, over loopback.
 *
 *   npm run bench:paging                       # 20,000 people timed, 100,000 for memory
 *   npm run bench:paging -- --people 50000 --rounds 3
 *
 * The reference server runs in a child process on a temporary SQLite file seeded with
 * demo people. Each client runs in a process of its own (bench/paging-client.ts), so
 * that its time and its peak RSS are its own, and the variants take turns: every round
 * runs each of them once (a warm-up walk, then `--runs` timed walks), and the figure of
 * a variant is the median of all its timed walks. `npm run bench` calls
 * {@link benchPaging} as one part of the whole benchmark.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './median.js';
import { PAGING_VARIANTS, type PagingVariant } from './paging-client.js';
import { startServer } from './reference-server.js';

/** Options of {@link benchPaging}. */
export interface PagingBenchOptions {
  /** The reference server's entry point. */
  url: string;
  /** People paged by each timed walk. Default 20,000. */
  people?: number;
  /** Rounds of all variants. Default 2. */
  rounds?: number;
  /** Timed walks per variant and round. Default 2. */
  runs?: number;
  /** People paged by the memory run (0: none). Default 100,000. */
  memoryPeople?: number;
}

/** What each variant measured. */
export interface PagingFigures {
  /** Median seconds of a walk, by variant. */
  seconds: Record<PagingVariant, number>;
  /** Largest peak RSS of the variant's processes, MB. */
  maxRssMb: Record<PagingVariant, number>;
  /** Heap retained above the start while paging `memoryPeople` with read-ahead: [people, MB]. */
  retained: [number, number][];
}

const CLIENT = new URL('./paging-client.ts', import.meta.url).pathname;

async function runClient(args: string[]): Promise<unknown> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CLIENT, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((done) => child.on('exit', done));
  if (code !== 0) throw new Error(`paging client ${args[0]} exited with ${code}`);
  return JSON.parse(output.trim().split('\n').at(-1) ?? '');
}

/**
 * Runs every paging variant against the server at `url`, in turns, each in a process
 * of its own, and the memory run.
 *
 * @example
 * ```ts
 * const figures = await benchPaging({ url: 'http://127.0.0.1:8000/api/v1/', people: 20_000 });
 * console.log(figures.seconds.SDK / figures.seconds['fetch loop']);
 * ```
 */
export async function benchPaging(options: PagingBenchOptions): Promise<PagingFigures> {
  const people = options.people ?? 20_000;
  const rounds = options.rounds ?? 2;
  const runs = options.runs ?? 2;
  const variants = Object.keys(PAGING_VARIANTS) as PagingVariant[];
  const seconds = new Map<PagingVariant, number[]>(variants.map((name) => [name, []]));
  const maxRss = new Map<PagingVariant, number>();
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of variants) {
      const result = (await runClient([variant, options.url, String(people), String(runs)])) as {
        seconds: number[];
        maxRssMb: number;
      };
      seconds.get(variant)?.push(...result.seconds);
      maxRss.set(variant, Math.max(maxRss.get(variant) ?? 0, result.maxRssMb));
    }
  }
  const memoryPeople = options.memoryPeople ?? 100_000;
  const retained =
    memoryPeople > 0
      ? (
          (await runClient(['memory', options.url, String(memoryPeople)])) as {
            retained: [number, number][];
          }
        ).retained
      : [];
  const by = <T>(value: (variant: PagingVariant) => T) =>
    Object.fromEntries(variants.map((variant) => [variant, value(variant)])) as Record<
      PagingVariant,
      T
    >;
  return {
    seconds: by((variant) => median(seconds.get(variant) ?? [])),
    maxRssMb: by((variant) => maxRss.get(variant) ?? Number.NaN),
    retained,
  };
}

/**
 * Prints the figures of {@link benchPaging} as a table.
 *
 * @example
 * ```ts
 * printPaging(await benchPaging({ url }), 20_000);
 * ```
 */
export function printPaging(figures: PagingFigures, people: number): void {
  const loop = figures.seconds['fetch loop'];
  console.log(`\nPaging ${people.toLocaleString('en-US')} people (median walk, own process each):`);
  console.log('variant                           time   people/s  ÷ fetch loop  peak RSS');
  for (const [variant, time] of Object.entries(figures.seconds)) {
    const rss = figures.maxRssMb[variant as PagingVariant];
    console.log(
      `${variant.padEnd(32)} ${time.toFixed(2).padStart(5)} s ${String(Math.round(people / time)).padStart(9)} ${(time / loop).toFixed(2).padStart(12)}× ${rss.toFixed(0).padStart(6)} MB`,
    );
  }
  if (figures.retained.length > 0) {
    const last = figures.retained.at(-1)?.[0] ?? 0;
    console.log(
      `\nHeap retained while paging ${last.toLocaleString('en-US')} people with read-ahead (after GC):`,
    );
    console.log(
      figures.retained
        .map(([count, mb]) => `  after ${String(count).padStart(7)}: ${mb.toFixed(1)} MB`)
        .join('\n'),
    );
    const largest = Math.max(...figures.retained.map(([, mb]) => mb));
    console.log(`  largest: ${largest.toFixed(1)} MB`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      people: { type: 'string', default: '20000' },
      'memory-people': { type: 'string', default: '100000' },
      rounds: { type: 'string', default: '2' },
      runs: { type: 'string', default: '2' },
    },
  });
  const people = Number(values.people);
  const memoryPeople = Number(values['memory-people']);
  const dir = mkdtempSync(join(os.tmpdir(), 'adis-bench-'));
  const { child, url } = await startServer(dir, Math.max(people, memoryPeople));
  try {
    const figures = await benchPaging({
      url,
      people,
      memoryPeople,
      rounds: Number(values.rounds),
      runs: Number(values.runs),
    });
    printPaging(figures, people);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Paging benchmark: the SDK against a hand-written fetch loop, over loopback.
 *
 *   npm run bench                      # 20,000 people timed, 100,000 for memory
 *   npm run bench -- --people 50000 --memory-people 200000 --runs 5
 *
 * The reference server runs in a child process (so it does not share the event loop
 * or the heap with the client being measured), on a temporary SQLite file seeded
 * with demo people. Each variant pages through the same people; the median of
 * `--runs` runs is reported. Memory is sampled in a separate run with forced garbage
 * collection every few pages, so the figures are what paging retains, not garbage.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '../src/index.js';
import { KEY, startServer } from './reference-server.js';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '20000' },
    'memory-people': { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'work-ms': { type: 'string', default: '5' },
  },
});
const timedPeople = Number(values.people);
const memoryPeople = Number(values['memory-people']);
const runs = Number(values.runs);
const workMs = Number(values['work-ms']);

/** What a careful person writes without the SDK: follow `next`, count embedded people. */
async function fetchLoop(entryPoint: string, limit: number): Promise<number> {
  const headers = { 'STD-API-Token': KEY };
  const root = (await (await fetch(entryPoint, { headers })).json()) as {
    _links: Record<string, { href: string }>;
  };
  let url: string | undefined = root._links['std:people']?.href;
  let count = 0;
  while (url && count < limit) {
    const page = (await (await fetch(url, { headers })).json()) as {
      _links?: { next?: { href: string } };
      _embedded?: { 'std:people'?: unknown[] };
    };
    const people = page._embedded?.['std:people'] ?? [];
    if (people.length === 0) break;
    count += people.length;
    url = page._links?.next?.href;
  }
  return Math.min(count, limit);
}

/**
 * Stands in for what a real script does with each page: await a database write, say.
 * It is I/O, not CPU, so the event loop is free meanwhile and a read-ahead request can go
 * out and come back during it.
 */
const callerWork = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sdkLoop(
  entryPoint: string,
  limit: number,
  readAhead: boolean,
  pageWorkMs = 0,
): Promise<number> {
  const client = await connect(entryPoint, { apiKey: KEY });
  let count = 0;
  for await (const page of client.people.pages({ readAhead })) {
    for (const person of page.items) {
      if (count < limit && person.data.given_name !== undefined) count += 1;
    }
    if (pageWorkMs > 0) await callerWork(pageWorkMs);
    if (count >= limit) break;
  }
  return count;
}

async function median(
  label: string,
  run: () => Promise<number>,
  expected: number,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const count = await run();
    times.push(performance.now() - started);
    if (count !== expected)
      throw new Error(`${label}: paged ${count} people, expected ${expected}`);
  }
  times.sort((a, b) => a - b);
  const middle = times[Math.floor(times.length / 2)] ?? Number.NaN;
  console.log(
    `${label.padEnd(28)} ${(middle / 1000).toFixed(2).padStart(7)} s  (${Math.round(expected / (middle / 1000))} people/s)`,
  );
  return middle;
}

async function memoryRun(entryPoint: string, limit: number): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    console.log(
      'memory: run with `node --expose-gc` (npm run bench does) to measure retained heap',
    );
    return;
  }
  const client = await connect(entryPoint, { apiKey: KEY });
  gc();
  const baseline = process.memoryUsage().heapUsed;
  const samples: [number, number][] = [];
  let peakRss = process.memoryUsage().rss;
  let count = 0;
  let pages = 0;
  for await (const page of client.people.pages({ readAhead: true })) {
    count += page.items.length;
    pages += 1;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (pages % 100 === 0 || count >= limit) {
      gc();
      samples.push([count, process.memoryUsage().heapUsed - baseline]);
    }
    if (count >= limit) break;
  }
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(
    `\nMemory while paging ${count} people with read-ahead (heap retained above the baseline after GC):`,
  );
  for (const [records, bytes] of samples)
    console.log(`  after ${String(records).padStart(7)} people: ${mb(bytes)}`);
  console.log(`  peak RSS of the client process: ${mb(peakRss)}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), 'adis-bench-'));
  const seed = Math.max(timedPeople, memoryPeople);
  const seedStart = performance.now();
  const { child, url } = await startServer(dir, seed);
  console.log(
    `Server seeded with ${seed} people in ${((performance.now() - seedStart) / 1000).toFixed(1)} s: ${url}`,
  );
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
  );
  console.log(`\nPaging ${timedPeople} people (median of ${runs} runs):`);
  try {
    // One warm-up pass each, so that JIT and SQLite's page cache are warm for all.
    await fetchLoop(url, timedPeople);
    await sdkLoop(url, timedPeople, false);
    const handWritten = await median(
      'hand-written fetch loop',
      () => fetchLoop(url, timedPeople),
      timedPeople,
    );
    const plain = await median(
      'SDK, read-ahead off',
      () => sdkLoop(url, timedPeople, false),
      timedPeople,
    );
    const ahead = await median(
      'SDK, read-ahead on',
      () => sdkLoop(url, timedPeople, true),
      timedPeople,
    );
    console.log(
      `\nSDK / fetch loop: read-ahead off ${(plain / handWritten).toFixed(2)}×, on ${(ahead / handWritten).toFixed(2)}×`,
    );
    if (workMs > 0) {
      console.log(`\nWith ${workMs} ms of the caller's own I/O per page:`);
      const busyOff = await median(
        'SDK, read-ahead off',
        () => sdkLoop(url, timedPeople, false, workMs),
        timedPeople,
      );
      const busyOn = await median(
        'SDK, read-ahead on',
        () => sdkLoop(url, timedPeople, true, workMs),
        timedPeople,
      );
      console.log(`read-ahead on / off: ${(busyOn / busyOff).toFixed(2)}×`);
    }
    await memoryRun(url, memoryPeople);
  } finally {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

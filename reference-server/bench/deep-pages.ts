/**
 * Deep-page benchmark: seeds 1,000,000 people into a temporary SQLite file, then times
 * GET of page 1, a middle page, the last page by number and a page reached through a
 * `next` cursor, in-process through `app.fetch`. Not a test: run `npm run bench`.
 *
 * Options: `--count <n>` (default 1000000), `--runs <n>` (default 50).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp, openStorage, seedPeople } from '../src/index.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '50' },
  },
});
const count = Number(values.count);
const runs = Number(values.runs);
const perPage = 100;
const token = 'bench-key-000001';

const dir = mkdtempSync(join(tmpdir(), 'adis-bench-'));
const path = join(dir, 'bench.db');
try {
  const storage = openStorage(path);
  await storage.tenants.putApiKey(token, 'bench', 'write');
  const seedStart = performance.now();
  await seedPeople(storage, {
    tenant: 'bench',
    count,
    small: true,
    onProgress: (done) => process.stdout.write(`  seeded ${done.toLocaleString('en-US')}\n`),
  });
  const seedMs = performance.now() - seedStart;
  const sizeMb = statSync(path).size / 1024 / 1024;
  console.log(
    `Seeded ${count.toLocaleString('en-US')} people in ${(seedMs / 1000).toFixed(1)} s ` +
      `(${Math.round(count / (seedMs / 1000)).toLocaleString('en-US')} /s, one transaction; db ${sizeMb.toFixed(0)} MB + WAL)`,
  );

  // Fold the WAL into the database file now, not during the measurements.
  storage.database.pragma('wal_checkpoint(TRUNCATE)');
  const app = createApp({ storage });
  const get = async (url: string) => {
    const res = await app.fetch(new Request(url, { headers: { 'STD-API-Token': token } }));
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return (await res.json()) as {
      total_pages: number;
      _links: { next?: { href: string } };
      _embedded: { 'std:people': unknown[] };
    };
  };
  const base = `http://bench.local/api/v1/people?per_page=${perPage}`;
  const first = await get(`${base}&page=1`);
  const lastPage = first.total_pages;
  const middlePage = Math.floor(lastPage / 2);
  const middle = await get(`${base}&page=${middlePage}`);
  const cursorUrl = middle._links.next?.href;
  if (!cursorUrl) throw new Error('middle page has no next link');
  const last = await get(`${base}&page=${lastPage}`);
  if (last._links.next) throw new Error('last page has a next link');

  const cases: [string, string][] = [
    ['page 1', `${base}&page=1`],
    [`middle page ${middlePage} (by number)`, `${base}&page=${middlePage}`],
    [`last page ${lastPage} (by number)`, `${base}&page=${lastPage}`],
    [`page ${middlePage + 1} via next cursor`, cursorUrl],
  ];
  // Warm up, then measure round-robin so that noise (GC, the checkpoint after the big
  // seeding transaction) spreads over every case instead of hitting the first one.
  for (const [, url] of cases) for (let i = 0; i < 10; i++) await get(url);
  const times = cases.map(() => [] as number[]);
  const records = cases.map(() => 0);
  for (let run = 0; run < runs; run++) {
    for (const [index, [, url]] of cases.entries()) {
      const started = performance.now();
      const body = await get(url);
      times[index]?.push(performance.now() - started);
      records[index] = body._embedded['std:people'].length;
    }
  }
  const results = cases.map(([name], index) => {
    const sorted = [...(times[index] ?? [])].sort((a, b) => a - b);
    return {
      name,
      median: sorted[Math.floor(sorted.length / 2)] ?? 0,
      p90: sorted[Math.floor(sorted.length * 0.9)] ?? 0,
      records: records[index] ?? 0,
    };
  });

  console.log(`\nGET ${perPage} people per page, ${runs} runs each, in-process (app.fetch):\n`);
  console.log(
    `${'request'.padEnd(36)} ${'median ms'.padStart(10)} ${'p90 ms'.padStart(10)} ${'records'.padStart(8)}`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(36)} ${r.median.toFixed(2).padStart(10)} ${r.p90.toFixed(2).padStart(10)} ${String(r.records).padStart(8)}`,
    );
  }
  const [p1, , lastResult] = results;
  if (p1 && lastResult)
    console.log(`\nratio last/first (median): ${(lastResult.median / p1.median).toFixed(2)}`);
  await storage.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

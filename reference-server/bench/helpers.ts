/**
 * Helper benchmark: seeds people (with email addresses) into a temporary SQLite file, a
 * petition and a tag, then times record signature helper calls in-process through
 * `app.fetch`: a keyed call for a new person, a keyed call matching a seeded person by
 * email (merge and update), the same with `add_tags` (one more part, its own
 * transaction), and a call without a key (matching without overwriting). Then it fires
 * `--concurrent` calls at once and checks that `total_signatures` equals the number of
 * signatures (exit code 1 otherwise). Not a test: run `npm run bench:helpers`.
 *
 * Options: `--people <n>` (default 100000), `--runs <n>` (default 200),
 * `--concurrent <n>` (default 500).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp, openStorage, seedPeople } from '../src/index.js';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '200' },
    concurrent: { type: 'string', default: '500' },
  },
});
const peopleCount = Number(values.people);
const runs = Number(values.runs);
const concurrent = Number(values.concurrent);
if (!(peopleCount >= 1 && runs >= 1 && concurrent >= 1)) {
  throw new Error('need --people, --runs and --concurrent >= 1');
}
const token = 'bench-key-000001';
const api = 'http://bench.local/api/v1';
const fmt = (n: number) => n.toLocaleString('en-US');

const dir = mkdtempSync(join(tmpdir(), 'adis-bench-'));
let failed = false;
try {
  const storage = openStorage(join(dir, 'bench.db'));
  storage.putApiKey(token, 'bench', 'write');
  const tenant = storage.ensureTenant('bench');
  seedPeople(storage, { tenant: 'bench', count: peopleCount });
  const emails = storage.database
    .prepare(
      `SELECT json_extract(doc, '$.email_addresses[0].address') FROM records
       WHERE tenant_id = ? AND kind = 'person' LIMIT ?`,
    )
    .pluck()
    .all(tenant.id, runs * 3) as string[];
  if (emails.length === 0 || emails.some((email) => typeof email !== 'string')) {
    throw new Error('the seeded people have no email addresses to match');
  }
  // Anonymous calls share one rate-limit bucket in process; the limit is not measured here.
  const app = createApp({ storage, anonymousRateLimit: false });

  const call = async (method: string, url: string, body?: unknown, keyed = true) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (keyed) headers['STD-API-Token'] = token;
    const res = await app.fetch(
      new Request(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const created = async (url: string, body: unknown) => {
    const res = await call('POST', url, body);
    if (res.status !== 201)
      throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const petition = await created(`${api}/petitions`, { title: 'Benchmark petition' });
  await created(`${api}/tags`, { name: 'Benchmark' });
  const helper = `${(petition._links as { self: { href: string } }).self.href}/record_signature_helper`;

  let n = 0;
  const seeded = () => emails[n++ % emails.length] as string;
  const cases: { name: string; body: () => unknown; keyed: boolean; status: number }[] = [
    {
      name: 'keyed, new person',
      body: () => ({
        person: { given_name: 'New', email_addresses: [{ address: `new${n++}@bench.example` }] },
      }),
      keyed: true,
      status: 201,
    },
    {
      name: 'keyed, matched by email (merged)',
      body: () => ({
        person: { family_name: 'Matched', email_addresses: [{ address: seeded() }] },
      }),
      keyed: true,
      status: 201,
    },
    {
      name: 'keyed, matched, with add_tags',
      body: () => ({
        person: { email_addresses: [{ address: seeded() }] },
        add_tags: ['Benchmark'],
      }),
      keyed: true,
      status: 201,
    },
    {
      name: 'without a key, matched (fill only)',
      body: () => ({ person: { given_name: 'Anon', email_addresses: [{ address: seeded() }] } }),
      keyed: false,
      status: 200,
    },
  ];
  const times = cases.map(() => [] as number[]);
  let signatures = 0;
  for (let run = 0; run < runs + 10; run++) {
    for (const [index, c] of cases.entries()) {
      const begin = performance.now();
      const res = await call('POST', helper, c.body(), c.keyed);
      const elapsed = performance.now() - begin;
      if (res.status !== c.status)
        throw new Error(`${c.name}: ${res.status} ${JSON.stringify(res.body)}`);
      signatures++;
      if (run >= 10) times[index]?.push(elapsed); // the first 10 rounds warm up
    }
  }
  console.log(`\n${fmt(peopleCount)} people; ${runs} calls each, in-process (app.fetch):\n`);
  console.log(
    `${'record_signature_helper call'.padEnd(40)} ${'median ms'.padStart(10)} ${'p90 ms'.padStart(10)}`,
  );
  for (const [index, c] of cases.entries()) {
    const sorted = [...(times[index] ?? [])].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
    console.log(
      `${c.name.padEnd(40)} ${median.toFixed(2).padStart(10)} ${p90.toFixed(2).padStart(10)}`,
    );
  }

  const begin = performance.now();
  const all = await Promise.all(
    Array.from({ length: concurrent }, (_, i) =>
      call('POST', helper, {
        person: { email_addresses: [{ address: `burst${i}@bench.example` }] },
      }),
    ),
  );
  const elapsed = performance.now() - begin;
  signatures += all.filter((res) => res.status === 201).length;
  const total = (
    await call('GET', String((petition._links as { self: { href: string } }).self.href))
  ).body.total_signatures;
  console.log(
    `\n${concurrent} calls at once: ${(elapsed / 1000).toFixed(2)} s ` +
      `(${fmt(Math.round(concurrent / (elapsed / 1000)))} calls/s)`,
  );
  if (total !== signatures) {
    failed = true;
    console.error(`FAILED: total_signatures ${total}, signatures recorded ${signatures}`);
  } else {
    console.log(`check: total_signatures ${fmt(Number(total))} equals the signatures recorded`);
  }
  storage.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;

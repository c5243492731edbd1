/**
 * Totals, filters and writes benchmark: seeds people, 100 petitions and their signatures
 * into a temporary SQLite file, then times, in-process through `app.fetch` with a write
 * key: the petitions collection (each petition rendering `total_signatures` from the
 * totals table), a petition's signatures sub-collection (page 1 and the page its `next`
 * cursor leads to), filtered people (few matches on `modified_date`, one on
 * `email_address`, all of them on `created_date`), a POST of a signature to a petition
 * (one write with its total) and a DELETE of one, and the petition read after the
 * writes. Ends with a correctness check: each petition's `total_signatures` must equal
 * the number of its signatures (exit code 1 otherwise). Not a test: run
 * `npm run bench:activity`.
 *
 * Options: `--people <n>` (default 200000), `--signatures <n>` (default 200000),
 * `--runs <n>` (default 30). With the defaults a run takes about 45 s on a 2-core
 * machine, most of it seeding (the signatures go through full validation).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
// The record service and the served person kind are the server's internals: a
// benchmark of the server may reach behind its entry.
import { personKind } from '../src/domain/person.js';
import { RecordService } from '../src/domain/records/index.js';
import {
  createApp,
  defaultRegistry,
  openStorage,
  type ResourceKind,
  seedPeople,
} from '../src/index.js';

const { values } = parseArgs({
  options: {
    people: { type: 'string', default: '200000' },
    signatures: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '30' },
  },
});
const peopleCount = Number(values.people);
const signatureCount = Number(values.signatures);
const runs = Number(values.runs);
const petitionCount = 100;
const updatedPeople = 50;
const perPage = 100;
const token = 'bench-key-000001';
const origin = 'http://bench.local';
const api = `${origin}/api/v1`;
const fmt = (n: number) => n.toLocaleString('en-US');

// The sub-collection needs a second page for the cursor case.
const minSignatures = petitionCount * (perPage + 1);
if (!(peopleCount >= updatedPeople && signatureCount >= minSignatures && runs >= 1)) {
  throw new Error(
    `need --people >= ${updatedPeople}, --signatures >= ${minSignatures}, --runs >= 1`,
  );
}

interface Collection {
  total_records: number;
  _links: { next?: { href: string } };
  _embedded: Record<string, { total_signatures?: number }[]>;
}

/** One timed request; `before` and `after` run untimed around it. */
interface Case {
  name: string;
  before?: () => Promise<void> | void;
  run: () => Promise<number>;
  after?: () => Promise<void> | void;
}

const dir = mkdtempSync(join(tmpdir(), 'adis-bench-'));
const path = join(dir, 'bench.db');
let failed = false;
try {
  const storage = openStorage(path);
  await storage.tenants.putApiKey(token, 'bench', 'write');
  const tenant = await storage.tenants.ensure('bench');
  const registry = defaultRegistry();
  const records = new RecordService(storage, registry);
  const kindOf = (singular: string): ResourceKind => {
    const kind = registry.bySingular(singular);
    if (!kind) throw new Error(`no kind ${singular}`);
    return kind;
  };
  const petitionKind = kindOf('petition');
  const signatureKind = kindOf('signature');

  // People: the same bulk seeding as the deep-pages benchmark (one created_date for all).
  let started = performance.now();
  await seedPeople(storage, { tenant: 'bench', count: peopleCount, small: true });
  let ms = performance.now() - started;
  console.log(
    `Seeded ${fmt(peopleCount)} people in ${(ms / 1000).toFixed(1)} s ` +
      `(${fmt(Math.round(peopleCount / (ms / 1000)))} /s, one transaction)`,
  );
  const personIds = storage.database
    .prepare(`SELECT id FROM records WHERE tenant_id = ? AND kind = 'person' ORDER BY seq`)
    .pluck()
    .all(tenant.id) as string[];
  const person = (index: number) => personIds[index % personIds.length] as string;

  // Every person's created_date is before this; the 50 people updated below are the only
  // ones modified after it.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const afterSeed = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 5));

  const petitionIds = await storage.transaction(async () => {
    const ids: string[] = [];
    for (let index = 0; index < petitionCount; index++) {
      const fields = {
        title: `Benchmark petition ${index + 1}`,
        description: 'A petition of the totals benchmark.',
      };
      ids.push((await records.create(tenant, petitionKind, petitionKind.parse(fields))).id);
    }
    return ids;
  });
  const petition = (index: number) => petitionIds[index % petitionIds.length] as string;

  // Signatures through the domain layer, as a POST would create them: each validated,
  // linked to a petition (round-robin) and a person, adding 1 to its petition's total.
  started = performance.now();
  await storage.transaction(async () => {
    for (let index = 0; index < signatureCount; index++) {
      await records.create(
        tenant,
        signatureKind,
        signatureKind.parse({ comments: 'Count me in.' }),
        {
          links: {
            petition: { plural: 'petitions', id: petition(index) },
            person: { plural: 'people', id: person(index) },
          },
        },
      );
    }
  });
  ms = performance.now() - started;
  console.log(
    `Created ${fmt(signatureCount)} signatures through RecordService in ${(ms / 1000).toFixed(1)} s ` +
      `(${fmt(Math.round(signatureCount / (ms / 1000)))} /s, each with its total update, one transaction)`,
  );

  // A few people changed after the seed, spread over the collection.
  const step = Math.floor(peopleCount / updatedPeople);
  for (let index = 0; index < updatedPeople; index++) {
    await records.update(
      tenant,
      personKind,
      person(index * step),
      personKind.parse({ family_name: `Updated ${index}` }),
    );
  }
  const sizeMb = statSync(path).size / 1024 / 1024;
  console.log(`db ${sizeMb.toFixed(0)} MB + WAL`);
  // Fold the WAL into the database file now, not during the measurements.
  storage.database.pragma('wal_checkpoint(TRUNCATE)');

  const app = createApp({ storage });
  const request = async (method: string, url: string, body?: unknown) => {
    const init: RequestInit = { method, headers: { 'STD-API-Token': token } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'STD-API-Token': token, 'Content-Type': 'application/json' };
    }
    return app.fetch(new Request(url, init));
  };
  const get = async <T = Collection>(url: string): Promise<T> => {
    const res = await request('GET', url);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const page = async (url: string, rel: string, expectedTotal?: number) => {
    const body = await get(url);
    if (expectedTotal !== undefined && body.total_records !== expectedTotal) {
      throw new Error(`${url}: total_records ${body.total_records}, expected ${expectedTotal}`);
    }
    return body._embedded[rel]?.length ?? 0;
  };
  const filtered = (filter: string) =>
    `${api}/people?per_page=${perPage}&filter=${encodeURIComponent(filter)}`;

  const target = petition(0);
  const targetUrl = `${api}/petitions/${target}`;
  const signaturesUrl = `${targetUrl}/signatures?per_page=${perPage}`;
  const targetSignatures = Math.ceil(signatureCount / petitionCount);
  const first = await get(`${signaturesUrl}&page=1`);
  const cursorUrl = first._links.next?.href;
  if (!cursorUrl) throw new Error('page 1 of the signatures has no next link');
  const cursorPage = new URL(cursorUrl).searchParams.get('page') ?? '2';
  const someone = await storage.records.get(
    tenant.id,
    'person',
    person(Math.floor(peopleCount / 2)),
  );
  const email = (someone?.doc.email_addresses as { address: string }[] | undefined)?.[0]?.address;
  if (!email) throw new Error('no email address to filter on');

  // A signer of another petition signs the target one too (signatures are not unique).
  const signer = { 'std:person': { href: `${api}/people/${person(1)}` } };
  let posted: string | undefined;
  let doomed: string | undefined;
  const remove = async (id: string | undefined) => {
    if (!id) throw new Error('no signature to delete');
    const res = await request('DELETE', `${api}/signatures/${id}`);
    if (res.status !== 204) throw new Error(`DELETE signature: ${res.status} ${await res.text()}`);
  };

  const cases: Case[] = [
    {
      name: `petitions collection (${petitionCount}, totals)`,
      run: () => page(`${api}/petitions?per_page=${perPage}`, 'std:petitions', petitionCount),
    },
    {
      name: `signatures of a petition, page 1`,
      run: () => page(`${signaturesUrl}&page=1`, 'std:signatures', targetSignatures),
    },
    {
      name: `signatures, page ${cursorPage} via next cursor`,
      run: () => page(cursorUrl, 'std:signatures', targetSignatures),
    },
    {
      name: `people modified_date gt (${updatedPeople} match)`,
      run: () => page(filtered(`modified_date gt '${afterSeed}'`), 'std:people', updatedPeople),
    },
    {
      name: 'people email_address eq (1 match)',
      run: () => page(filtered(`email_address eq '${email}'`), 'std:people', 1),
    },
    {
      name: `people created_date lt, page 1 (all ${fmt(peopleCount)})`,
      run: () => page(filtered(`created_date lt '${afterSeed}'`), 'std:people', peopleCount),
    },
    {
      name: 'POST signature to a petition',
      run: async () => {
        const res = await request('POST', `${targetUrl}/signatures`, {
          comments: 'Posted by the benchmark.',
          _links: signer,
        });
        if (res.status !== 201)
          throw new Error(`POST signature: ${res.status} ${await res.text()}`);
        posted = res.headers.get('Location')?.split('/').pop();
        await res.arrayBuffer();
        return 1;
      },
      after: () => remove(posted),
    },
    {
      name: 'DELETE signature',
      before: async () => {
        const made = await records.create(tenant, signatureKind, signatureKind.parse({}), {
          links: { person: { plural: 'people', id: person(1) } },
          parent: { rel: 'petition', ref: { kind: 'petition', id: target } },
        });
        doomed = made.id;
      },
      run: async () => {
        await remove(doomed);
        return 1;
      },
    },
    {
      name: 'GET the petition after the writes',
      run: async () => {
        const body = await get<{ total_signatures: number }>(targetUrl);
        if (body.total_signatures !== targetSignatures) {
          throw new Error(
            `total_signatures ${body.total_signatures}, expected ${targetSignatures}`,
          );
        }
        return 1;
      },
    },
  ];

  const once = async (c: Case) => {
    await c.before?.();
    const begin = performance.now();
    const count = await c.run();
    const elapsed = performance.now() - begin;
    await c.after?.();
    return { elapsed, count };
  };
  // Warm up, then measure round-robin so that noise spreads over every case.
  for (const c of cases) for (let i = 0; i < 5; i++) await once(c);
  const times = cases.map(() => [] as number[]);
  const counts = cases.map(() => 0);
  for (let run = 0; run < runs; run++) {
    for (const [index, c] of cases.entries()) {
      const { elapsed, count } = await once(c);
      times[index]?.push(elapsed);
      counts[index] = count;
    }
  }

  console.log(
    `\n${fmt(peopleCount)} people, ${fmt(signatureCount)} signatures on ${petitionCount} petitions; ` +
      `${runs} runs each, in-process (app.fetch), ${perPage} per page:\n`,
  );
  console.log(
    `${'request'.padEnd(46)} ${'median ms'.padStart(10)} ${'p90 ms'.padStart(10)} ${'records'.padStart(8)}`,
  );
  for (const [index, c] of cases.entries()) {
    const sorted = [...(times[index] ?? [])].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const p90 = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
    console.log(
      `${c.name.padEnd(46)} ${median.toFixed(2).padStart(10)} ${p90.toFixed(2).padStart(10)} ${String(counts[index]).padStart(8)}`,
    );
  }

  // Correctness: every petition's total equals the count of its signatures, read
  // independently from the sub-collection's membership (record_parents), after the
  // writes and deletes above.
  const petitions = await get(`${api}/petitions?per_page=${perPage}`);
  const totals = (petitions._embedded['std:petitions'] ?? []).map((p) => p.total_signatures);
  let wrong = 0;
  for (const [index, id] of petitionIds.entries()) {
    const members = (await get(`${api}/petitions/${id}/signatures?per_page=1`)).total_records;
    const expected =
      Math.floor(signatureCount / petitionCount) + (index < signatureCount % petitionCount ? 1 : 0);
    if (totals[index] !== members || members !== expected) {
      wrong++;
      console.error(
        `petition ${index + 1}: total_signatures ${totals[index]}, signatures ${members}, seeded ${expected}`,
      );
    }
  }
  if (wrong > 0 || totals.length !== petitionCount) {
    failed = true;
    console.error(`\nFAILED: ${wrong} of ${petitionCount} petitions have a wrong total_signatures`);
  } else {
    console.log(
      `\ncheck: total_signatures equals the signature count on all ${petitionCount} petitions`,
    );
  }
  await storage.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;

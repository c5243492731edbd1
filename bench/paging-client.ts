/**
 * One paging client of the benchmark, run in a process of its own so that its time and
 * its peak memory are its own:
 *
 *   node --expose-gc --import tsx bench/paging-client.ts <variant> <entry point> <people> <runs>
 *
 * It pages through `people` people once to warm up, then `runs` times timed, and prints
 * one JSON line: `{ "seconds": [...], "maxRssMb": n }`. With the variant `memory` it
 * instead pages once with read-ahead, forcing a garbage collection every 100 pages, and
 * prints the heap retained above the start after each (`{ "retained": [[people, MB]…] }`).
 *
 * The variants walk the same collection the same way: follow `next` from the entry
 * point's `std:people` and read each person's `given_name`.
 */
import { pathToFileURL } from 'node:url';
import { Ketting } from 'ketting';
import { connect } from '../src/index.js';

/** The write key of the benchmark server's `demo` tenant (bench/reference-server.ts). */
const KEY = 'bench-key';

/** The ways of paging the benchmark compares. */
export const PAGING_VARIANTS = {
  'fetch loop': fetchLoop,
  SDK: (url: string, limit: number) => sdkLoop(url, limit, { readAhead: false, validate: true }),
  'SDK, read-ahead': (url: string, limit: number) =>
    sdkLoop(url, limit, { readAhead: true, validate: true }),
  'SDK, validation off': (url: string, limit: number) =>
    sdkLoop(url, limit, { readAhead: false, validate: false }),
  'SDK, read-ahead, validation off': (url: string, limit: number) =>
    sdkLoop(url, limit, { readAhead: true, validate: false }),
  'ketting 8': kettingLoop,
} satisfies Record<string, (url: string, limit: number) => Promise<number>>;

/** A variant's name. */
export type PagingVariant = keyof typeof PAGING_VARIANTS;

/** What a careful person writes without a library: follow `next`, read embedded people. */
async function fetchLoop(entryPoint: string, limit: number): Promise<number> {
  const headers = { 'STD-API-Token': KEY };
  const root = (await (await fetch(entryPoint, { headers })).json()) as {
    _links: Record<string, { href: string }>;
  };
  let url: string | undefined = root._links['std:people']?.href;
  let count = 0;
  while (url && count < limit) {
    const response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
    const page = (await response.json()) as {
      _links?: { next?: { href: string } };
      _embedded?: { 'std:people'?: { given_name?: string }[] };
    };
    const people = page._embedded?.['std:people'] ?? [];
    if (people.length === 0) break;
    for (const person of people) if (count < limit && person.given_name !== undefined) count += 1;
    url = page._links?.next?.href;
  }
  return count;
}

async function sdkLoop(
  entryPoint: string,
  limit: number,
  options: { readAhead: boolean; validate: boolean },
): Promise<number> {
  const client = await connect(entryPoint, { apiKey: KEY, validate: options.validate });
  let count = 0;
  for await (const page of client.people.pages({ readAhead: options.readAhead })) {
    for (const person of page.items) {
      if (count < limit && person.data.given_name !== undefined) count += 1;
    }
    if (count >= limit) break;
  }
  return count;
}

/** ketting 8, used as its README shows: follow relations, read embedded states. */
async function kettingLoop(entryPoint: string, limit: number): Promise<number> {
  const client = new Ketting(entryPoint);
  client.use((request, next) => {
    request.headers.set('STD-API-Token', KEY);
    return next(request);
  });
  let page = await client.go().follow('std:people');
  let count = 0;
  for (;;) {
    const state = await page.get();
    const people = state.getEmbedded();
    if (people.length === 0) break;
    for (const person of people) {
      const data = person.data as { given_name?: string };
      if (count < limit && data.given_name !== undefined) count += 1;
    }
    if (count >= limit || !state.links.has('next')) break;
    page = await state.follow('next');
  }
  return count;
}

async function timed(variant: PagingVariant, url: string, people: number, runs: number) {
  const walk = PAGING_VARIANTS[variant];
  const check = (count: number) => {
    if (count !== people) throw new Error(`${variant}: paged ${count} people, expected ${people}`);
  };
  check(await walk(url, people));
  const seconds: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    check(await walk(url, people));
    seconds.push((performance.now() - started) / 1000);
  }
  // maxRSS is in KiB, over the whole life of the process.
  return { seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

async function retained(url: string, people: number) {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the memory variant needs node --expose-gc');
  const client = await connect(url, { apiKey: KEY });
  gc();
  const baseline = process.memoryUsage().heapUsed;
  const samples: [number, number][] = [];
  let count = 0;
  let pages = 0;
  for await (const page of client.people.pages({ readAhead: true })) {
    count += page.items.length;
    pages += 1;
    if (pages % 100 === 0 || count >= people) {
      gc();
      samples.push([count, (process.memoryUsage().heapUsed - baseline) / 1024 / 1024]);
    }
    if (count >= people) break;
  }
  return { retained: samples, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [variant, url, people, runs] = process.argv.slice(2);
  if (variant === undefined || url === undefined) {
    throw new Error('usage: paging-client.ts <variant> <entry point> <people> <runs>');
  }
  const result =
    variant === 'memory'
      ? await retained(url, Number(people))
      : await timed(variant as PagingVariant, url, Number(people), Number(runs ?? 1));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

/**
 * The read path over HTTP, against a bare Hono app on the same `@hono/node-server`.
 *
 * Seeds a temporary SQLite file with `people` demo people through the CLI and serves it
 * in a child process (the server as users run it), starts a bare Hono app in another
 * child process, then measures with autocannon (`connections` connections, a short
 * warm-up, then `durationSeconds` per target in three turns) four targets:
 *
 * - `onePerson`: `GET /api/v1/people/<id>` with a valid API key;
 * - `helloWorld`: the bare app's `GET /` answering `Hello World!`;
 * - `page`: `GET /api/v1/people` (a page of 100 people) with the key;
 * - `pageFromMemory`: the bare app answering the very bytes (and content type) of that
 *   page, fetched from the reference server beforehand and held in memory.
 *
 * The ratios (server over bare app) are what to compare: the machine is shared, so the
 * absolute figures move from run to run. Both sides of a ratio are measured in the same
 * run, and in turns (each target a third of its time in each of three rounds), so that
 * a burst of load from elsewhere weighs on both sides instead of on one. Run `npm run bench:reads --workspace adis-server` (options `--people`,
 * `--duration`, `--connections`); the root benchmark calls {@link benchServerReads}.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { KEY, startServer } from '../../bench/reference-server.js';

/** Options of {@link benchServerReads}. */
export interface ServerReadsOptions {
  /** Demo people seeded. Default 20 000. */
  people?: number;
  /** Measured seconds per target, in three turns (after a one-second warm-up). Default 6. */
  durationSeconds?: number;
  /** Concurrent connections. Default 10. */
  connections?: number;
}

/** Requests per second of each target. */
export interface ServerReads {
  onePerson: number;
  helloWorld: number;
  page: number;
  pageFromMemory: number;
}

/** The part of autocannon's programmatic API used here (the package ships no types). */
interface AutocannonResult {
  requests: { total: number };
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

// autocannon is CommonJS without type declarations: required and typed by hand.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const HERE = fileURLToPath(import.meta.url);
/** The first argument that makes this file serve the bare app instead of benchmarking. */
const BARE_APP_FLAG = '--bare-app';

/**
 * The bare app: Hono on `@hono/node-server` with nothing but two routes, `GET /`
 * answering `Hello World!` and `GET /page` answering `body` with `contentType`. The
 * body is a Uint8Array made once, as the fastest a server could answer those bytes.
 */
async function serveBareApp(bodyFile: string, contentType: string): Promise<void> {
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const body = new Uint8Array(readFileSync(bodyFile));
  const app = new Hono();
  app.get('/', (c) => c.text('Hello World!'));
  app.get('/page', (c) => c.body(body, 200, { 'Content-Type': contentType }));
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    console.log(`Listening: http://127.0.0.1:${info.port}`);
  });
}

/** Starts the bare app in a child process; resolves with its root URL. */
async function startBareApp(
  bodyFile: string,
  contentType: string,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', HERE, BARE_APP_FLAG, bodyFile, contentType],
    // From this package's folder, where `--import tsx` and hono resolve.
    { cwd: new URL('..', import.meta.url), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const match = /^Listening: (\S+)/.exec(line);
    if (match?.[1]) return { child, url: match[1] };
  }
  throw new Error('the bare Hono app exited before listening');
}

/** One autocannon run; any error or non-2xx answer fails the benchmark (a fast 401 or
 * 404 would measure the wrong thing). */
async function run(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string>,
): Promise<AutocannonResult> {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    );
  }
  return result;
}

/** A target: its URL and the headers of its requests. */
interface Target {
  url: string;
  headers?: Record<string, string>;
}

/**
 * Requests per second of each target: a one-second warm-up each (JIT, connection
 * set-up), then `rounds` rounds running every target in turn for its share of
 * `durationSeconds`.
 */
async function measure(
  targets: readonly Target[],
  connections: number,
  durationSeconds: number,
  rounds = 3,
): Promise<number[]> {
  for (const target of targets) await run(target.url, connections, 1, target.headers ?? {});
  const seconds = Math.max(1, Math.round(durationSeconds / rounds));
  const totals = targets.map(() => ({ requests: 0, seconds: 0 }));
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) {
      const result = await run(target.url, connections, seconds, target.headers ?? {});
      const total = totals[index] as { requests: number; seconds: number };
      total.requests += result.requests.total;
      total.seconds += result.duration;
    }
  }
  return totals.map((total) => total.requests / total.seconds);
}

/** Stops a child process and waits for it to exit. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Measures the four targets (see the module comment) and returns their requests per
 * second.
 *
 * @example
 * ```ts
 * const reads = await benchServerReads({ durationSeconds: 3 });
 * console.log(reads.onePerson / reads.helloWorld);
 * ```
 */
export async function benchServerReads(options: ServerReadsOptions = {}): Promise<ServerReads> {
  const people = options.people ?? 20_000;
  const durationSeconds = options.durationSeconds ?? 6;
  const connections = options.connections ?? 10;
  const dir = mkdtempSync(join(tmpdir(), 'adis-http-read-'));
  const children: ChildProcess[] = [];
  try {
    const server = await startServer(dir, people);
    children.push(server.child);
    const headers = { 'STD-API-Token': KEY };
    const pageUrl = `${server.url}people`;
    const pageResponse = await fetch(pageUrl, { headers });
    if (!pageResponse.ok) throw new Error(`${pageUrl}: ${pageResponse.status}`);
    const contentType = pageResponse.headers.get('content-type') ?? 'application/json';
    const pageBytes = Buffer.from(await pageResponse.arrayBuffer());
    const page = JSON.parse(pageBytes.toString('utf8')) as {
      _embedded: { 'std:people': { _links: { self: { href: string } } }[] };
    };
    if (page._embedded['std:people'].length !== 100) {
      throw new Error(`expected a page of 100 people, got ${page._embedded['std:people'].length}`);
    }
    const personUrl = page._embedded['std:people'][0]?._links.self.href ?? '';
    const bodyFile = join(dir, 'page.json');
    writeFileSync(bodyFile, pageBytes);
    const bare = await startBareApp(bodyFile, contentType);
    children.push(bare.child);

    const [helloWorld = 0, onePerson = 0, pageFromMemory = 0, pageRate = 0] = await measure(
      [
        { url: `${bare.url}/` },
        { url: personUrl, headers },
        { url: `${bare.url}/page` },
        { url: pageUrl, headers },
      ],
      connections,
      durationSeconds,
    );
    return { onePerson, helloWorld, page: pageRate, pageFromMemory };
  } finally {
    await Promise.all(children.map(stop));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The results as a table, with the ratios the targets of issue 13 are set on. */
export function formatServerReads(reads: ServerReads): string {
  const rate = (n: number) => Math.round(n).toLocaleString('en-US').padStart(8);
  const rows = [
    ['GET one person (key)', reads.onePerson, 'bare hello world', reads.helloWorld],
    ['GET page of 100 (key)', reads.page, 'bare, same bytes', reads.pageFromMemory],
  ] as const;
  const lines = [
    'target                  req/s   | bare Hono app          req/s   | ratio',
    ...rows.map(
      ([name, ours, bareName, theirs]) =>
        `${name.padEnd(22)}${rate(ours)}   | ${bareName.padEnd(20)}${rate(theirs)}   | ${(ours / theirs).toFixed(2)}`,
    ),
  ];
  return lines.join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === BARE_APP_FLAG) {
    await serveBareApp(process.argv[3] ?? '', process.argv[4] ?? 'application/json');
  } else {
    const { values } = parseArgs({
      options: {
        people: { type: 'string', default: '20000' },
        duration: { type: 'string', default: '6' },
        connections: { type: 'string', default: '10' },
      },
    });
    const reads = await benchServerReads({
      people: Number(values.people),
      durationSeconds: Number(values.duration),
      connections: Number(values.connections),
    });
    console.log(formatServerReads(reads));
  }
}

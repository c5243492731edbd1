// adis-export against a server that misbehaves mid-export: it stops with a message
// that says what happened (never a raw error, never a hang) and can resume exactly.
import { copyFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CommandIO, main } from '../../src/cli/export-command.js';
import { type Checkpoint, checkpointPath, readCheckpoint } from '../../src/export/checkpoint.js';
import { ndjsonFormat } from '../../src/export/formats.js';
import type { Output } from '../../src/export/output.js';
import { type ExportProgress, runExport } from '../../src/export/run-export.js';
import { connect } from '../../src/index.js';
import {
  type Fault,
  type FaultServer,
  faultServer,
  json,
  status,
  text,
} from '../fixtures/fault-server.js';

let server: FaultServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A new folder in the OS temp directory, removed after the test. */
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'adis-export-faults-'));
  dirs.push(dir);
  return dir;
}

const person = (n: number) => ({
  _links: { self: { href: `/api/people/${n}` } },
  given_name: `P${n}`,
});
const entryPoint = json({
  _links: {
    self: { href: '/api/' },
    'std:people': { href: '/api/people' },
    curies: [{ name: 'std', href: 'https://example.org/docs/{rel}', templated: true }],
  },
});
const firstPage = json({
  _links: { next: { href: '/api/people?page=2' } },
  _embedded: { 'std:people': [person(1), person(2)] },
});
const secondPage = json({ _embedded: { 'std:people': [person(3)] } });

function sink() {
  let written = '';
  const stream = {
    isTTY: false,
    write(chunk: string | Uint8Array, callback?: unknown) {
      written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
      return true;
    },
    on() {
      return stream;
    },
    off() {
      return stream;
    },
  };
  return { stream: stream as unknown as CommandIO['stderr'], text: () => written };
}

async function run(args: string[], cwd: string, io: Partial<CommandIO> = {}) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: {},
    cwd,
    ...io,
  });
  return { code, stderr: stderr.text() };
}

/** Five pages of two people each, `/api/people` then `/api/people?page=2` to `5`. */
function fivePages(): Record<string, Fault> {
  const routes: Record<string, Fault> = { '/api/': entryPoint };
  for (let page = 1; page <= 5; page += 1) {
    routes[pagePath(page)] = json({
      _links: page < 5 ? { next: { href: pagePath(page + 1) } } : {},
      _embedded: { 'std:people': [person(2 * page - 1), person(2 * page)] },
    });
  }
  return routes;
}
const pagePath = (page: number) => (page === 1 ? '/api/people' : `/api/people?page=${page}`);

/** A fault that holds its request until `release()`, then answers with `then`. */
function held(then: Fault): { fault: Fault; requested: Promise<void>; release: () => void } {
  let requested!: () => void;
  let release!: () => void;
  const asked = new Promise<void>((resolve) => {
    requested = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    requested: asked,
    release,
    fault: (request, response, server) => {
      requested();
      void released.then(() => then(request, response, server));
    },
  };
}

async function names(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { given_name: string }).given_name);
}

/**
 * Polls `probe` until it gives a value: for what the export writes to disk, which it
 * announces to nobody. Bounded by a deadline of the order of the test timeout, a bound
 * on a hang that no loaded machine comes near, not a speed target.
 */
async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + 50_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error('timed out waiting');
    await new Promise((done) => setTimeout(done, 10));
  }
}

const everyName = Array.from({ length: 10 }, (_, i) => `P${i + 1}`);

describe('adis-export against faults', () => {
  it('stops on a long rate-limit wait with the wait in the message, then resumes exactly', async () => {
    server = await faultServer({
      '/api/': entryPoint,
      '/api/people': firstPage,
      '/api/people?page=2': [status(429, { 'retry-after': '3600' }), secondPage],
    });
    const dir = await tempDir();
    const args = ['--url', server.url('/api/'), '--output', 'people.ndjson', '--no-progress'];
    const first = await run(args, dir);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      /rate limited: GET .*page=2 answered 429 Too Many Requests, and the server asks to wait 3600 s \(1h 00m, until \d{4}-[\d-]+T[\d:]+Z\), longer than the 60 s adis-export waits by itself/,
    );
    expect(first.stderr).not.toContain('then the request is retried'); // no wait was made
    expect(first.stderr).toContain('--resume');
    const resumed = await run([...args, '--resume'], dir);
    expect(resumed.code).toBe(0);
    const names = (await readFile(join(dir, 'people.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { given_name: string }).given_name);
    expect(names).toEqual(['P1', 'P2', 'P3']);
    expect(server.hits('/api/people')).toBe(1);
  });

  it('names the wait a 429 asks for while it waits, then goes on', async () => {
    server = await faultServer({
      '/api/': entryPoint,
      '/api/people': firstPage,
      // Once for the export that names the wait, once for the quiet one that does not.
      '/api/people?page=2': [429, 200, 429, 200].map((code) =>
        code === 429 ? status(429, { 'retry-after': '1' }) : secondPage,
      ),
    });
    const dir = await tempDir();
    const { code, stderr } = await run(['--url', server.url('/api/'), '-o', 'p.ndjson'], dir);
    expect(code).toBe(0);
    expect(stderr).toContain(
      `adis-export: GET ${server.url('/api/people?page=2')} answered 429 Too Many Requests: ` +
        'the server asks to wait 1 s, then the request is retried (3 retries at most)\n',
    );
    expect(await names(join(dir, 'p.ndjson'))).toEqual(['P1', 'P2', 'P3']);
    const quiet = await run(['--url', server.url('/api/'), '-q'], dir);
    expect(quiet.code).toBe(0);
    expect(server.hits('/api/people?page=2')).toBe(4);
    expect(quiet.stderr).toBe('');
  });

  it('names the last wait asked for when a 429 outlasts the retries', async () => {
    const refused = status(429, { 'retry-after': '0' });
    server = await faultServer({
      '/api/': entryPoint,
      '/api/people': [refused, refused, refused, refused],
    });
    const dir = await tempDir();
    const { code, stderr } = await run(['--url', server.url('/api/'), '--no-progress'], dir);
    expect(code).toBe(1);
    expect(stderr.match(/answered 429 Too Many Requests: the server asks to wait/g)).toHaveLength(
      4,
    );
    expect(stderr).toMatch(
      /adis-export: .*429.*; the server asks to wait under a second \(until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\): run the command again later, with a lower --rate\n$/,
    );
  });

  it('names a page that is not a HAL document without calling it an entry point', async () => {
    server = await faultServer({
      '/api/': entryPoint,
      '/api/people': firstPage,
      '/api/people?page=2': text('null', 200, { 'content-type': 'application/json' }),
    });
    const dir = await tempDir();
    const { code, stderr } = await run(['--url', server.url('/api/'), '--no-progress'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain(server.url('/api/people?page=2'));
    expect(stderr).not.toContain('not an ADIS entry point');
  });

  it('resumes exactly after a crash between two checkpoints: cut back, no record twice, none lost', async () => {
    // Checkpoints every 2 pages; the process "crashes" while waiting for page 4, with
    // pages 1 to 3 in the file and a checkpoint that vouches for pages 1 and 2 only.
    const routes = fivePages();
    const page4 = held(routes[pagePath(4)]!);
    server = await faultServer({ ...routes, [pagePath(4)]: [page4.fault, routes[pagePath(4)]!] });
    const dir = await tempDir();
    const output = join(dir, 'people.ndjson');
    const running = run(['--url', server.url('/api/'), '-o', 'people.ndjson', '-q'], dir, {
      durableEvery: { pages: 2 },
    });
    await page4.requested;
    const saved = await until(async () => {
      const checkpoint = await readCheckpoint(checkpointPath(output)).catch(() => undefined);
      const lines = (await readFile(output, 'utf8')).split('\n').length - 1;
      return checkpoint && lines === 6 ? checkpoint : undefined;
    });
    expect(saved.records).toBe(4);
    expect(saved.next).toBe(server.url(pagePath(3)));
    // What a crash at this moment leaves on disk: the file and the checkpoint as they are.
    const crashed = join(dir, 'crashed.ndjson');
    await copyFile(output, crashed);
    await copyFile(checkpointPath(output), checkpointPath(crashed));
    expect((await stat(crashed)).size).toBeGreaterThan(saved.bytes);
    expect(await names(crashed)).toEqual(everyName.slice(0, 6));

    page4.release();
    expect((await running).code).toBe(0);
    const hits = () => [1, 2, 3, 4, 5].map((page) => server!.hits(pagePath(page)));
    const before = hits();
    const resumed = await run(['-o', 'crashed.ndjson', '--resume', '-q'], dir);
    expect(resumed.code).toBe(0);
    expect(await names(crashed)).toEqual(everyName);
    expect(await readFile(crashed, 'utf8')).toBe(await readFile(output, 'utf8'));
    // The resume fetched page 3 again (its records past the checkpoint were cut off),
    // then 4 and 5, each once; not 1 or 2.
    expect(hits().map((count, i) => count - before[i]!)).toEqual([0, 0, 1, 1, 1]);
  });

  it('saves where it was when interrupted between two checkpoints, so the resume fetches no page twice', async () => {
    const routes = fivePages();
    const page4 = held(routes[pagePath(4)]!);
    server = await faultServer({ ...routes, [pagePath(4)]: [page4.fault, routes[pagePath(4)]!] });
    const dir = await tempDir();
    const output = join(dir, 'people.ndjson');
    const controller = new AbortController();
    const running = run(['--url', server.url('/api/'), '-o', 'people.ndjson'], dir, {
      durableEvery: { pages: 100, ms: 60_000 },
      signal: controller.signal,
    });
    await page4.requested;
    await until(async () =>
      (await readFile(output, 'utf8')).split('\n').length === 7 ? true : undefined,
    );
    expect(await readCheckpoint(checkpointPath(output))).toBeUndefined();
    controller.abort(new Error('interrupted'));
    const stopped = await running;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Interrupted after 6 people');
    const saved = (await readCheckpoint(checkpointPath(output))) as Checkpoint;
    expect(saved).toMatchObject({ records: 6, next: server.url(pagePath(4)) });
    expect(saved.bytes).toBe((await stat(output)).size);
    page4.release();
    const resumed = await run(['-o', 'people.ndjson', '--resume', '-q'], dir);
    expect(resumed.code).toBe(0);
    expect(await names(output)).toEqual(everyName);
    expect([1, 2, 3, 5].map((page) => server!.hits(pagePath(page)))).toEqual([1, 1, 1, 1]);
  });

  it('never reports a checkpoint ahead of what the output has flushed', async () => {
    server = await faultServer(fivePages());
    const events: string[] = [];
    let written = 0;
    let flushed = 0;
    const output: Output = {
      get bytes() {
        return written;
      },
      async write(chunk) {
        written += Buffer.byteLength(chunk);
      },
      async flush() {
        const covered = written;
        await new Promise((done) => setTimeout(done, 5));
        flushed = covered;
        events.push(`flush ${covered}`);
      },
      async close() {},
    };
    const client = await connect(server.url('/api/'), { validate: false });
    const durable: ExportProgress[] = [];
    const done = await runExport({
      collection: client.people,
      format: ndjsonFormat(),
      output,
      durableEvery: { pages: 2 },
      onDurable: (progress) => {
        expect(progress.bytes).toBeLessThanOrEqual(flushed);
        durable.push(progress);
      },
    });
    expect(done.records).toBe(10);
    // After pages 2 and 4; the end is flushed before runExport resolves.
    expect(durable.map((progress) => progress.records)).toEqual([4, 8]);
    expect(durable.map((progress) => progress.next)).toEqual([
      server.url(pagePath(3)),
      server.url(pagePath(5)),
    ]);
    expect(events.at(-1)).toBe(`flush ${written}`);
  });
});

describe('a next link that loops back', () => {
  it('ends the export, and leaves no page to resume from', async () => {
    const routes = fivePages();
    // The last page's next points back at the first page, as some servers do.
    routes[pagePath(5)] = json({
      _links: { next: { href: pagePath(1) } },
      _embedded: { 'std:people': [person(9), person(10)] },
    });
    server = await faultServer(routes);
    const client = await connect(server.url('/api/'), { validate: false });
    const seen: ExportProgress[] = [];
    let written = '';
    const output: Output = {
      get bytes() {
        return Buffer.byteLength(written);
      },
      async write(chunk) {
        written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      },
      async flush() {},
      async close() {},
    };
    const done = await runExport({
      collection: client.people,
      format: ndjsonFormat(),
      output,
      onPage: (progress) => seen.push(progress),
    });
    expect(done.records).toBe(10);
    expect(server.hits(pagePath(1))).toBe(1);
    // A checkpoint taken after the last page must not send a resume back to page 1.
    expect(seen.at(-1)?.next).toBeUndefined();
    expect(seen.at(-2)?.next).toBe(server.url(pagePath(5)));
  });
});

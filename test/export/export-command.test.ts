import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type RunningServer, startServer } from '../../reference-server/src/index.js';
import { type CommandIO, type CommandStream, main } from '../../src/cli/export-command.js';
import { checkpointPath, readCheckpoint } from '../../src/export/checkpoint.js';
import { connect, type Page, type PersonResource } from '../../src/index.js';
import { testServer } from '../e2e/reference-server.js';

const PEOPLE = 57;
const PAGE = 10;
const root = fileURLToPath(new URL('../../', import.meta.url));

/** A stream that keeps what is written, posing as a terminal when asked. */
function capture(isTTY = false): CommandStream & { text: () => string } {
  const chunks: string[] = [];
  return {
    isTTY,
    columns: 100,
    write(chunk: string | Uint8Array, callback?: unknown) {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
      const done = typeof callback === 'function' ? callback : undefined;
      if (done) queueMicrotask(() => done());
      return true;
    },
    on() {
      return this;
    },
    off() {
      return this;
    },
    text: () => chunks.join(''),
  } as unknown as CommandStream & { text: () => string };
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], io: Partial<CommandIO> = {}): Promise<Ran> {
  const stdout = capture();
  const stderr = capture();
  const code = await main(args, { stdout, stderr, env: {}, cwd: dir, ...io });
  return {
    code,
    stdout: stdout.text(),
    stderr: (io.stderr as ReturnType<typeof capture> | undefined)?.text() ?? stderr.text(),
  };
}

let server: ReturnType<typeof testServer>;
let running: RunningServer;
let url: string;
let key: string;
let dir: string;

beforeAll(async () => {
  server = testServer(PEOPLE, { maxPageSize: PAGE });
  running = await server.listen();
  url = running.entryPoint;
  key = server.keys.read;
  dir = await mkdtemp(join(tmpdir(), 'adis-export-test-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The arguments that point the command at the test server with its read key. */
function target(): string[] {
  return ['--url', url, '--key', key];
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

describe('adis-export to stdout', () => {
  it('writes every person once as NDJSON, following the next links', async () => {
    const { code, stdout, stderr } = await run(['people', ...target()]);
    expect(code).toBe(0);
    const records = lines(stdout).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(PEOPLE);
    const selves = records.map((r) => (r._links as { self: { href: string } }).self.href);
    expect(new Set(selves).size).toBe(PEOPLE);
    expect(records[0]).toHaveProperty('given_name');
    expect(stderr).toMatch(new RegExp(`^Exported ${PEOPLE} people in \\d+\\.\\d s\\.\n`));
    expect(stderr).toMatch(/Next incremental export: --since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z/);
  });

  it('reads the URL and key from ADIS_URL and ADIS_KEY, and stops at --limit', async () => {
    const { code, stdout } = await run(['--limit', '13', '-q'], {
      env: { ADIS_URL: url, ADIS_KEY: key },
    });
    expect(code).toBe(0);
    expect(lines(stdout)).toHaveLength(13);
  });

  it('exports other collections by name, with any curie prefix', async () => {
    const client = await connect(url, { apiKey: server.keys.write });
    await client.tags.create({ name: 'volunteer' });
    await client.tags.create({ name: 'donor' });
    const { code, stdout } = await run(['std:tags', ...target(), '-f', 'csv']);
    expect(code).toBe(0);
    const [header, ...rows] = stdout.trimEnd().split('\r\n');
    expect(header?.startsWith('url,')).toBe(true);
    expect(header).toContain('name');
    expect(
      rows
        .map((row) => row.split(','))
        .map((cells) => cells[header!.split(',').indexOf('name')])
        .sort(),
    ).toEqual(['donor', 'volunteer']);
  });
});

describe('adis-export to a CSV file', () => {
  it('writes a header and one row per person, with chosen columns quoted per RFC 4180', async () => {
    const client = await connect(url, { apiKey: server.keys.write });
    const odd = await client.people.create({
      given_name: 'Zoë, "Z"',
      email_addresses: [{ address: 'zoe@example.org', primary: true }],
    });
    const output = join(dir, 'people.csv');
    const { code, stderr } = await run([
      ...target(),
      '-o',
      output,
      '--columns',
      'url,given_name,email_addresses[primary].address',
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain(`to ${output}`);
    const text = await readFile(output, 'utf8');
    const rows = text.trimEnd().split('\r\n');
    expect(rows[0]).toBe('url,given_name,email_addresses[primary].address');
    expect(rows).toHaveLength(PEOPLE + 2); // header, the seeded people and Zoë
    expect(rows).toContain(`${odd.url},"Zoë, ""Z""",zoe@example.org`);
    expect(existsSync(checkpointPath(output))).toBe(false);
    await odd.delete();
  });

  it('refuses to overwrite an earlier export unless --force', async () => {
    const output = join(dir, 'kept.ndjson');
    await writeFile(output, 'earlier export\n');
    const refused = await run([...target(), '-o', output]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${output} exists: choose another --output, or add --force`);
    expect(await readFile(output, 'utf8')).toBe('earlier export\n');
    const forced = await run([...target(), '-o', output, '--force', '-q']);
    expect(forced.code).toBe(0);
    expect(lines(await readFile(output, 'utf8'))).toHaveLength(PEOPLE);
  });
});

describe('incremental exports', () => {
  it('--since exports only what changed after the time the last export printed', async () => {
    // The server's Date header has whole seconds: step past the second the people were
    // seeded in, so that the first export starts strictly after their modified_date.
    await new Promise((done) => setTimeout(done, 1100 - (Date.now() % 1000)));
    const first = await run([...target()]);
    const since = /--since (\S+)/.exec(first.stderr)?.[1];
    expect(since).toBeDefined();
    const client = await connect(url, { apiKey: server.keys.write });
    await new Promise((done) => setTimeout(done, 1100 - (Date.now() % 1000)));
    const [changed] = await client.people.toArray({ limit: 1 });
    await changed!.update({ family_name: 'Changed' });

    const second = await run([...target(), '--since', since!]);
    expect(second.code).toBe(0);
    const records = lines(second.stdout).map((line) => JSON.parse(line) as { family_name: string });
    expect(records).toHaveLength(1);
    expect(records[0]?.family_name).toBe('Changed');
  });

  it('combines --since with --filter', async () => {
    const { code, stdout } = await run([
      ...target(),
      '--filter',
      "modified_date lt '2000-01-01T00:00:00Z'",
      '--since',
      '1990-01-01',
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('');
  });
});

describe('resuming an interrupted export', () => {
  it('continues after Ctrl-C and ends with the same file as an uninterrupted export', async () => {
    // Both exports through the same front, so that their records link the same origin.
    const front = await frontServer();
    try {
      const whole = join(dir, 'whole.ndjson');
      const through = ['--url', front.entryPoint, '--key', key];
      expect((await run([...through, '-o', whole, '-q'])).code).toBe(0);

      const output = join(dir, 'interrupted.ndjson');
      // An export in a process of its own, stopped by SIGINT part way through: while the
      // front holds back its third page, so after it has written the first.
      front.holdPagesAfter(2);
      const { child, stderr } = childExport(output, front.entryPoint);
      await front.holding;
      child.kill('SIGINT');
      expect(await exitCode(child)).toBe(130);
      expect(stderr()).toMatch(/Interrupted after \d+ people\. Run the same command with --resume/);
      const saved = await readCheckpoint(checkpointPath(output));
      expect(saved?.records).toBeGreaterThan(0);
      expect(saved?.records).toBeLessThan(PEOPLE);
      front.release();

      const refused = await run([...through, '-o', output]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('holds an unfinished export: add --resume');

      const resumed = await run(['--key', key, '-o', output, '--resume']);
      expect(resumed.code).toBe(0);
      expect(resumed.stderr).toMatch(/Exported 57 people to .* \(resumed after \d+\)\./);
      expect(await readFile(output, 'utf8')).toBe(await readFile(whole, 'utf8'));
      expect(existsSync(checkpointPath(output))).toBe(false);
    } finally {
      await front.close();
    }
  });

  it('cuts off records written after the last checkpoint (a crash between the two)', async () => {
    const whole = join(dir, 'whole-2.ndjson');
    expect((await run([...target(), '-o', whole, '-q'])).code).toBe(0);
    const output = join(dir, 'crashed.ndjson');
    expect((await run([...target(), '-o', output, '--limit', '20', '-q'])).code).toBe(0);
    // Fake the state of a process killed after appending half a page, before saving.
    const text = await readFile(output, 'utf8');
    await appendFile(output, '{"half": "a page"}\n{"half');
    // The page after the second, as the export saw it when it had written 20 records.
    let second: Page<PersonResource> | undefined;
    const client = await connect(url, { apiKey: key });
    for await (const page of client.people.pages({ limit: 2 })) second = page;
    expect(second?.next).toBeDefined();
    await writeFile(
      checkpointPath(output),
      JSON.stringify({
        version: 1,
        entryPoint: url,
        collection: 'people',
        filter: null,
        format: 'ndjson',
        columns: null,
        next: second!.next,
        records: 20,
        bytes: Buffer.byteLength(text),
        startedAt: new Date().toISOString(),
      }),
    );
    const resumed = await run(['--key', key, '-o', output, '--resume', '-q']);
    expect(resumed.code).toBe(0);
    expect(await readFile(output, 'utf8')).toBe(await readFile(whole, 'utf8'));
  });

  it('only tidies up when the process stopped after writing the last page', async () => {
    const output = join(dir, 'finished.ndjson');
    expect((await run([...target(), '-o', output, '-q'])).code).toBe(0);
    const text = await readFile(output, 'utf8');
    await writeFile(
      checkpointPath(output),
      JSON.stringify({
        version: 1,
        entryPoint: url,
        collection: 'people',
        filter: null,
        format: 'ndjson',
        columns: null,
        next: null,
        records: PEOPLE,
        bytes: Buffer.byteLength(text),
        startedAt: new Date().toISOString(),
      }),
    );
    const resumed = await run(['--key', key, '-o', output, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`Exported ${PEOPLE} people`);
    expect(await readFile(output, 'utf8')).toBe(text);
    expect(existsSync(checkpointPath(output))).toBe(false);
  });

  it('refuses to change the export while resuming it, and needs something to resume', async () => {
    const output = join(dir, 'changed.ndjson');
    // Stopped part way through, as above: a checkpoint to resume from.
    const front = await frontServer();
    try {
      front.holdPagesAfter(2);
      const { child } = childExport(output, front.entryPoint);
      await front.holding;
      child.kill('SIGINT');
      expect(await exitCode(child)).toBe(130);
    } finally {
      await front.close();
    }
    expect(await readCheckpoint(checkpointPath(output))).toMatchObject({ collection: 'people' });
    const other = await run(['tags', '--key', key, '-o', output, '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('the collection was "people", not "tags"');
    const csv = await run(['--key', key, '-o', output, '--resume', '-f', 'csv']);
    expect(csv.stderr).toContain('--format was "ndjson", not "csv"');
    const columns = await run([
      '--key',
      key,
      '-o',
      output,
      '--resume',
      '--columns',
      'url,given_name',
    ]);
    expect(columns.code).toBe(2);
    expect(columns.stderr).toContain(
      '--columns was not given (so its default), not "url,given_name"',
    );
    expect(columns.stderr).not.toContain('undefined');
    const none = await run(['--key', key, '-o', join(dir, 'never.ndjson'), '--resume']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing to resume');
  });
});

describe('progress on a terminal', () => {
  it('draws a progress line with totals when the records go to a file', async () => {
    const stderr = capture(true);
    const output = join(dir, 'progress.ndjson');
    const { code } = await run([...target(), '-o', output], { stderr });
    expect(code).toBe(0);
    expect(stderr.text()).toMatch(/\rpeople \[#*-*\] +\d+% {2}\d+\/57/);
    expect(stderr.text()).toContain('\r\x1b[K'); // cleared before the summary
  });

  it('draws nothing when the records go to a pipe or the terminal, or with --no-progress', async () => {
    for (const [stdoutKind, extra] of [
      ['pipe', []],
      ['terminal', []],
      ['file', ['--no-progress']],
    ] as const) {
      const stderr = capture(true);
      await run([...target(), ...extra], { stderr, stdoutKind });
      expect(stderr.text()).not.toContain('\r');
    }
    const piped = capture(false);
    await run([...target(), '-o', join(dir, 'quiet.ndjson')], { stderr: piped });
    expect(piped.text()).not.toContain('\r');
  });
});

describe('rate limit', () => {
  it('spaces its requests by --rate', async () => {
    const front = await frontServer();
    try {
      const started = performance.now();
      const { code } = await run([
        '--url',
        front.entryPoint,
        '--key',
        key,
        '--limit',
        '30',
        '--rate',
        '5',
        '-q',
      ]);
      expect(code).toBe(0);
      // connect, the clock, three pages: five requests at 5 a second, so the fifth starts
      // 0.8 s or more after the first, itself sent after the command started. Measured
      // from the start, not from the first arrival: a first request held up on a loaded
      // machine would shorten the span between arrivals, never this one.
      expect(front.seen).toHaveLength(5);
      expect(front.seen.at(-1)!.at - started).toBeGreaterThanOrEqual(800);
    } finally {
      await front.close();
    }
  });
});

/**
 * The test server behind a front of the test's: `seen` is what reached it (the key, the
 * STD-API-Token header, when). With `keyHeader`, the front reads the API key from that
 * header instead of STD-API-Token (which it drops), as servers in the wild do.
 * `holdPagesAfter(n)` holds back every people page requested after the next `n` until
 * `release()` (or `close()`), and `holding` resolves once one is held: a test can stop
 * an export part way through however fast or slow the machine is.
 */
async function frontServer(keyHeader = 'STD-API-Token') {
  const seen: { key: string | null; stdKey: string | null; at: number }[] = [];
  const inner = createApp({
    storage: server.storage,
    maxPageSize: PAGE,
    logError: () => undefined,
  });
  let pagesLeft = Number.POSITIVE_INFINITY;
  let held: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const front = new Hono().all('*', async (c) => {
    const headers = new Headers(c.req.raw.headers);
    const key = headers.get(keyHeader);
    seen.push({ key, stdKey: headers.get('std-api-token'), at: performance.now() });
    if (/\/people$/.test(new URL(c.req.url).pathname) && pagesLeft-- <= 0) {
      held();
      await released;
    }
    headers.delete('std-api-token');
    headers.delete(keyHeader);
    if (key !== null) headers.set('std-api-token', key);
    return inner.fetch(new Request(c.req.raw, { headers }));
  });
  const running = await startServer({ app: front as never, port: 0 });
  return {
    seen,
    entryPoint: running.entryPoint,
    holdPagesAfter: (pages: number) => {
      pagesLeft = pages;
    },
    holding,
    release,
    close: () => {
      release();
      return running.close();
    },
  };
}

describe('server presets', () => {
  it('--server action-network sends the key as OSDI-API-Token, at most 3.5 requests a second', async () => {
    const osdi = await frontServer('OSDI-API-Token');
    try {
      const args = ['--url', osdi.entryPoint, '--key', key, '--limit', '20', '-q'];
      const started = performance.now();
      const { code, stdout } = await run([...args, '--server', 'action-network']);
      expect(code).toBe(0);
      expect(lines(stdout)).toHaveLength(20);
      expect(osdi.seen.length).toBeGreaterThanOrEqual(4); // connect, the clock, two pages
      for (const request of osdi.seen) expect(request).toMatchObject({ key, stdKey: null });
      // Four requests at 3.5 a second start 857 ms apart or more, the first after the
      // command started (measured from there: a first request held up on a loaded
      // machine cannot shorten it). The timing itself is tested with fake timers in
      // test/presets.
      expect(osdi.seen[3]!.at - started).toBeGreaterThanOrEqual(857);

      const without = await run(args);
      expect(without.code).toBe(1);
      expect(without.stderr).toContain(
        'check the key (--key or ADIS_KEY; --server or --key-header if the server reads another header)',
      );
    } finally {
      await osdi.close();
    }
  });
});

describe('resuming with the settings the export ran with', () => {
  it('saves --rate and --key-header, never the key, and a resume without them uses them', async () => {
    const front = await frontServer('X-Export-Key');
    try {
      const settings = ['--key-header', 'X-Export-Key'];
      const whole = join(dir, 'through-front.ndjson');
      const straight = await run([
        '--url',
        front.entryPoint,
        '--key',
        key,
        ...settings,
        '-o',
        whole,
      ]);
      expect(straight.code).toBe(0);

      const output = join(dir, 'remembered.ndjson');
      // Stopped part way through while the front holds back its third page.
      front.holdPagesAfter(2);
      const { child } = childExport(output, front.entryPoint, [...settings, '--rate', '2']);
      await front.holding;
      child.kill('SIGINT');
      expect(await exitCode(child)).toBe(130);
      front.release();
      const saved = await readFile(checkpointPath(output), 'utf8');
      expect(JSON.parse(saved)).toMatchObject({ keyHeader: 'X-Export-Key', rate: 2, server: null });
      expect(saved).not.toContain(key);

      // Given again, a setting replaces the saved one: this header the server does not read.
      const other = await run(['--key', key, '-o', output, '--resume', '--key-header', 'X-Other']);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain('401');
      expect(front.seen.at(-1)).toMatchObject({ key: null });
      expect(await readFile(checkpointPath(output), 'utf8')).toBe(saved);

      const from = front.seen.length;
      const started = performance.now();
      const resumed = await run(['--key', key, '-o', output, '--resume']);
      expect(resumed.code).toBe(0);
      expect(await readFile(output, 'utf8')).toBe(await readFile(whole, 'utf8'));
      const sent = front.seen.slice(from);
      for (const request of sent) expect(request.key).toBe(key);
      // At 2 a second: the connect and at least two pages, starting 500 ms apart or more,
      // the first after the command started (measured from there, as above).
      expect(sent.length).toBeGreaterThanOrEqual(3);
      expect(sent.at(-1)!.at - started).toBeGreaterThanOrEqual((sent.length - 1) * 500);
    } finally {
      await front.close();
    }
  });
});

describe('clear errors', () => {
  it('says when the server cannot be reached', async () => {
    const closed = await startServer({ app: new Hono() as never, port: 0 });
    await closed.close();
    const { code, stderr } = await run(['--url', closed.entryPoint, '--key', key]);
    expect(code).toBe(1);
    expect(stderr).toContain(`adis-export: cannot reach ${closed.entryPoint}`);
    expect(stderr).toContain('check --url and the network');
  });

  it('says when the key is wrong or missing', async () => {
    const wrong = await run(['--url', url, '--key', 'not-a-real-key']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /GET .* was refused \(401 .*\): check the key \(--key or ADIS_KEY/,
    );
    const missing = await run(['--url', url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no API key was given');
  });

  it('says when the URL is not an entry point', async () => {
    const plain: Server = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"hello":"world"}');
    });
    await new Promise<void>((done) => plain.listen(0, '127.0.0.1', done));
    const port = (plain.address() as AddressInfo).port;
    try {
      const { code, stderr } = await run(['--url', `http://127.0.0.1:${port}/`, '--key', key]);
      expect(code).toBe(1);
      expect(stderr).toContain(`http://127.0.0.1:${port}/ is not an ADIS entry point`);
    } finally {
      plain.close();
    }
    const notFound = await run(['--url', `${running.url}/nowhere/`, '--key', key]);
    expect(notFound.code).toBe(1);
    expect(notFound.stderr).toContain('answered 404 Not Found: is --url the API entry point?');
  });

  it('leaves no file behind when it fails before writing anything', async () => {
    const output = join(dir, 'refused.csv');
    const { code, stderr } = await run([
      ...target(),
      '-o',
      output,
      '--filter',
      "shoe_size eq '42'",
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/400 Bad Request: GET .*people\?filter=.*INVALID_FILTER/);
    expect(existsSync(output)).toBe(false);
    expect(existsSync(checkpointPath(output))).toBe(false);
  });

  it('answers bad arguments with exit code 2 and a message naming them', async () => {
    const cases: [string[], string][] = [
      [['--key', key], '--url (or ADIS_URL) is needed'],
      [['--url', 'api.example.org', '--key', key], '--url must be an absolute http(s) URL'],
      [['--url', 'ftp://example.org/', '--key', key], '--url must be an http(s) URL'],
      [['persons', '--url', url], 'unknown collection "persons"; one of: people, organizations'],
      [['--url', url, '-f', 'xml'], '--format must be ndjson or csv'],
      [['--url', url, '--resume'], '--resume needs --output'],
      [['--url', url, '--since', 'yesterday'], '--since must be an ISO 8601 date'],
      [['--url', url, '--rate', '0'], '--rate must be a positive number'],
      [['--url', url, '--limit', '2.5'], '--limit must be a positive whole number'],
      [['--url', url, '--columns', 'a..b', '-f', 'csv'], 'Column "a..b"'],
      [['--url', url, '--columns', 'given_name'], '--columns is for CSV'],
      [['--url', url, '--bogus'], "Unknown option '--bogus'"],
      [['people', 'tags', '--url', url], 'one collection at a time'],
      [
        ['--url', url, '--server', 'nation-builder'],
        'unknown --server "nation-builder"; one of: action-network',
      ],
      [['--url', url, '--server', 'toString'], 'unknown --server "toString"'],
      [['--url', url, '--key-header', 'OSDI API Token'], '--key-header must be an HTTP header'],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await run(args);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stderr).toContain(message);
      expect(stderr).toContain('Run adis-export --help for usage.');
    }
  });

  it('prints its usage with --help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: adis-export [collection] --url <entry point>');
    expect(stdout).toContain('--server <name>');
    expect(stdout).toContain('action-network');
    expect(stdout).toContain('--version');
  });

  it("prints the package's version with --version, whatever else is given", async () => {
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const args of [['--version'], ['people', '--version', '--url', 'not a url']]) {
      const { code, stdout, stderr } = await run(args);
      expect(code).toBe(0);
      expect(stdout).toBe(`adis-export ${version}\n`);
      expect(stderr).toBe('');
    }
  });
});

/**
 * The command in a process of its own, so that a test can stop it with SIGINT (against a
 * front that holds a page back: see `frontServer`); `stderr()` is what it has printed
 * so far.
 */
function childExport(
  output: string,
  entryPoint: string,
  args: string[] = [],
): { child: ChildProcess; stderr: () => string } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/export-cli.ts', '--url', entryPoint, '-o', output, ...args],
    { cwd: root, env: { ...process.env, ADIS_KEY: key }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { child, stderr: () => text };
}

/** The exit code, once the process has ended and its output has all been read. */
function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.on('close', (code) => done(code)));
}

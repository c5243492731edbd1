/**
 * The `adis-sync` command as users run it: a process of its own (`node --import tsx
 * src/cli/sync-cli.ts`) against reference servers on loopback. Exit 0 and a JSON summary
 * when done, the same again with nothing left to copy; exit 1 when the target refuses
 * records; exit 2 for a key file that is missing or empty, a wrong key, a state of
 * another pair, two servers of one namespace without --source-system, --max-requests
 * and Ctrl-C, after which the same command goes on and finishes; Action Network's
 * preset detected from a target's 401.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_NETWORK_PRESET } from '../../reference-server/src/presets/index.js';
import {
  detectPreset,
  MaxRequestsReached,
  RequestBudget,
  SyncConnectError,
} from '../../src/cli/sync-connect.js';
import { describeSyncFailure, sideOf } from '../../src/cli/sync-failure.js';
import { actionNetwork, connect, HTTPError } from '../../src/index.js';
import { journalPath, type SyncSummary } from '../../src/sync/index.js';
import { type TestServer, testServer } from '../e2e/reference-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PEOPLE = 30;

/** What the command printed, and how it ended. */
interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command's JSON output: the summary, the requests and the exit code. */
type SummaryJson = SyncSummary & {
  requests: { from: number; to: number };
  exitCode: number;
  skipped: unknown[];
};

/** Starts the command; `done` resolves once it has ended and its output is read. */
function start(
  args: readonly string[],
  env: Record<string, string> = {},
): { child: ChildProcess; stderr: () => string; done: Promise<Ran> } {
  // The parent's ADIS_* variables must not leak into a test of where keys come from.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('ADIS_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sync-cli.ts', ...args], {
    cwd: root,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<Ran>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, stderr: () => stderr, done };
}

/** Waits until the state's journal of copies holds `lines` lines. */
async function copiesJournalled(path: string, lines: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.split('\n').length > lines) return;
    if (Date.now() > deadline) throw new Error(`${path} has not ${lines} lines after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function run(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  return start(args, env).done;
}

/** The people on a server, by email address. */
async function emailsOn(entryPoint: string, apiKey: string): Promise<string[]> {
  const client = await connect(entryPoint, { apiKey });
  const emails: string[] = [];
  for await (const person of client.people) {
    emails.push(person.data.email_addresses?.[0]?.address ?? '');
  }
  return emails.sort();
}

let dir: string;
let source: TestServer;
let sourceUrl: string;
const servers: TestServer[] = [];

/** An empty target of the specification, listening. */
async function target(): Promise<{ server: TestServer; url: string }> {
  const server = testServer(0);
  servers.push(server);
  return { server, url: (await server.listen()).entryPoint };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adis-sync-cli-'));
  source = testServer(PEOPLE);
  servers.push(source);
  sourceUrl = (await source.listen()).entryPoint;
  await writeFile(join(dir, 'from.key'), `${source.keys.write}\n`);
  await writeFile(join(dir, 'empty.key'), '\n');
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('adis-sync, run as a command', () => {
  it('copies the people, prints the JSON summary and exits 0; run again, nothing is created', async () => {
    const { server, url } = await target();
    const state = join(dir, 'first.json');
    const args = [
      sourceUrl,
      url,
      '--state',
      state,
      '--from-key-file',
      join(dir, 'from.key'),
      '--source-system',
      'origin',
      '--kinds',
      'people',
      '--json',
    ];
    const env = { ADIS_TO_KEY: server.keys.write };
    const first = await run(args, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout) as SummaryJson;
    expect(summary.kinds.people).toMatchObject({ read: PEOPLE, created: PEOPLE, refused: 0 });
    expect(summary).toMatchObject({ exitCode: 0, dryRun: false, resumed: false, refusals: [] });
    expect(summary.requests.from).toBeGreaterThan(0);
    expect(summary.requests.to).toBeGreaterThanOrEqual(PEOPLE);
    expect(await emailsOn(url, server.keys.write)).toEqual(
      await emailsOn(sourceUrl, source.keys.write),
    );
    const progress = JSON.parse(await readFile(state, 'utf8')) as { from: string; to: string };
    expect(progress).toMatchObject({ from: sourceUrl, to: url });

    const again = await run(args, env);
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout) as SummaryJson;
    expect(second.kinds.people).toMatchObject({ created: 0, updated: 0, refused: 0 });
    expect(await emailsOn(url, server.keys.write)).toHaveLength(PEOPLE);

    // The text summary, and a dry run that writes nothing.
    const text = await run([...args.filter((arg) => arg !== '--json'), '--dry-run'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Dry run, nothing written: ${sourceUrl} → ${url}`);
    expect(text.stdout).toMatch(/kind\s+read\s+would create\s+would update\s+unchanged/);
  });

  it('exits 1 when the target refuses records, naming each on stderr', async () => {
    const { server, url } = await target();
    const args = [sourceUrl, url, '--state', join(dir, 'refused.json')];
    const env = {
      ADIS_FROM_KEY: source.keys.write,
      // A read-only key: every write is refused (403).
      ADIS_TO_KEY: server.keys.read,
    };
    const json = await run(
      [...args, '--source-system', 'origin', '--kinds', 'people', '--json'],
      env,
    );
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('');
    const summary = JSON.parse(json.stdout) as SummaryJson;
    expect(summary.exitCode).toBe(1);
    expect(summary.kinds.people?.refused).toBe(PEOPLE);
    expect(summary.refusals[0]).toMatchObject({ kind: 'people', status: 403 });

    const text = await run([...args, '--source-system', 'origin', '--kinds', 'people'], env);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(
      new RegExp(`refused: people ${sourceUrl}people/\\S+ \\(403\\): .*read-only`),
    );
    expect(text.stderr).toContain(`… and ${PEOPLE - 20} more refused`);
    expect(text.stdout).toContain('Refused, by reason:');
  });

  it('exits 2 for a key file that is missing or empty, naming it, before any request', async () => {
    const { url } = await target();
    const base = [sourceUrl, url, '--state', join(dir, 'keys.json'), '--source-system', 'origin'];
    const missing = await run([...base, '--to-key-file', join(dir, 'no-such.key')], {
      ADIS_FROM_KEY: source.keys.write,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--to-key-file ${join(dir, 'no-such.key')}: no such file`);
    expect(missing.stderr).toContain('Run adis-sync --help for usage.');
    const empty = await run([...base, '--from-key-file', join(dir, 'empty.key')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain(`--from-key-file ${join(dir, 'empty.key')} is empty`);
    const argv = await run([...base, '--api-key', 'secret']);
    expect(argv.code).toBe(2);
    expect(argv.stderr).toContain('--api-key: keys are never given on the command line');
  });

  it('exits 2 for a key the target refuses, naming the target and where its key comes from', async () => {
    const { url } = await target();
    const ran = await run(
      [sourceUrl, url, '--state', join(dir, 'wrong.json'), '--source-system', 'origin', '--json'],
      { ADIS_FROM_KEY: source.keys.write, ADIS_TO_KEY: 'not-a-key' },
    );
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`adis-sync: the target (to) ${url} refused GET ${url} (401`);
    expect(ran.stderr).toContain('check the key in --to-key-file or ADIS_TO_KEY');
    expect(JSON.parse(ran.stdout)).toMatchObject({ exitCode: 2, error: expect.any(String) });
  });

  it('exits 2 when both servers name their identifiers alike and no --source-system is given', async () => {
    const { server, url } = await target();
    const ran = await run([sourceUrl, url, '--state', join(dir, 'namespace.json')], {
      ADIS_FROM_KEY: source.keys.write,
      ADIS_TO_KEY: server.keys.write,
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^adis-sync: .*adis:<id>.*--source-system/m);
    expect(await emailsOn(url, server.keys.write)).toEqual([]);
  });

  it('exits 2 for the state of another pair of servers', async () => {
    const { server, url } = await target();
    const other = await target();
    const state = join(dir, 'pair.json');
    const env = { ADIS_FROM_KEY: source.keys.write, ADIS_TO_KEY: server.keys.write };
    const base = ['--state', state, '--source-system', 'origin', '--kinds', 'tags'];
    expect((await run([sourceUrl, url, ...base], env)).code).toBe(0);
    const ran = await run([sourceUrl, other.url, ...base], {
      ...env,
      ADIS_TO_KEY: other.server.keys.write,
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`is the state of a sync from ${sourceUrl} to ${url}`);
  });

  it('stops at --max-requests with exit 2; the same command without it then finishes', async () => {
    const { server, url } = await target();
    const args = [
      sourceUrl,
      url,
      '--state',
      join(dir, 'budget.json'),
      '--source-system',
      'origin',
      '--kinds',
      'people',
      '--json',
    ];
    const env = { ADIS_FROM_KEY: source.keys.write, ADIS_TO_KEY: server.keys.write };
    const stopped = await run([...args, '--max-requests', '15'], env);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toMatch(
      /adis-sync: stopped at --max-requests 15: 15 requests sent \(\d+ to the source, \d+ to the target\).*run the same command again to go on where it stopped/,
    );
    const partial = JSON.parse(stopped.stdout) as {
      exitCode: number;
      requests: { from: number; to: number };
    };
    expect(partial.exitCode).toBe(2);
    expect(partial.requests.from + partial.requests.to).toBe(15);
    const copied = (await emailsOn(url, server.keys.write)).length;
    expect(copied).toBeLessThan(PEOPLE);

    const finished = await run(args, env);
    expect(finished.code).toBe(0);
    const summary = JSON.parse(finished.stdout) as SummaryJson;
    expect(summary.resumed).toBe(true);
    expect(await emailsOn(url, server.keys.write)).toEqual(
      await emailsOn(sourceUrl, source.keys.write),
    );
  });

  it('stops on Ctrl-C with exit 2; the same command then finishes', async () => {
    const big = testServer(300);
    servers.push(big);
    const bigUrl = (await big.listen()).entryPoint;
    const { server, url } = await target();
    const args = [
      bigUrl,
      url,
      '--state',
      join(dir, 'interrupted.json'),
      '--source-system',
      'origin',
      '--kinds',
      'people',
      '--rate',
      '40',
    ];
    const env = { ADIS_FROM_KEY: big.keys.write, ADIS_TO_KEY: server.keys.write };
    const running = start(args, env);
    // Stopped part way: once some copies are journalled, long before the 300 are done at
    // 40 requests a second.
    await copiesJournalled(journalPath(join(dir, 'interrupted.json')), 20);
    running.child.kill('SIGINT');
    const stopped = await running.done;
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain('adis-sync: interrupted; run the same command again to go on');
    const finished = await run(
      args.filter((arg) => arg !== '--rate' && arg !== '40'),
      env,
    );
    expect(finished.code).toBe(0);
    expect(finished.stdout).toContain('(went on from a run that stopped)');
    expect(await emailsOn(url, server.keys.write)).toEqual(await emailsOn(bigUrl, big.keys.write));
  });

  it("detects Action Network's preset from the target's 401 and says so", async () => {
    const server = testServer(0, { preset: ACTION_NETWORK_PRESET, keyRateLimit: false });
    servers.push(server);
    // The kit's own entry point is the specification's path; Action Network's is /api/v2/.
    const url = `${(await server.listen()).url}/api/v2/`;
    const ran = await run(
      [sourceUrl, url, '--state', join(dir, 'an.json'), '--kinds', 'people', '--rate', '1000'],
      { ADIS_FROM_KEY: source.keys.write, ADIS_TO_KEY: server.keys.write },
    );
    expect(ran.stderr).toContain(
      `adis-sync: the target (to) ${url} is Action Network (its 401 asks for OSDI-API-Token): connected with its preset, as --to-preset action-network would`,
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(new RegExp(`people\\s+${PEOPLE}\\s+${PEOPLE}\\s+0\\s+0\\s+0`));
    const client = await connect(url, {
      ...actionNetwork,
      apiKey: server.keys.write,
      rateLimit: 1000,
    });
    expect(await client.people.toArray()).toHaveLength(PEOPLE);
  });

  it('prints its usage with --help and its version with --version, exit 0', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'Usage: adis-sync <from entry point> <to entry point> --state <file>',
    );
    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      version: string;
    };
    const printed = await run(['--version']);
    expect(printed).toEqual({ code: 0, stdout: `adis-sync ${version}\n`, stderr: '' });
  });
});

describe("adis-sync's connections, in-process", () => {
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/hal+json', ...headers },
    });

  it('counts the requests of each side and refuses the one past --max-requests', async () => {
    const controller = new AbortController();
    const budget = new RequestBudget(3, controller);
    const sent: string[] = [];
    const base: typeof fetch = async (input) => {
      sent.push(String(input));
      return new Response('{}');
    };
    const from = budget.fetchFor('from', base);
    const to = budget.fetchFor('to', base);
    await from('http://a.example/1');
    await to('http://b.example/1');
    await to('http://b.example/2');
    expect(budget.counts()).toEqual({ from: 1, to: 2 });
    expect(budget.reached()).toBeUndefined();
    await expect(from('http://a.example/2')).rejects.toBeInstanceOf(MaxRequestsReached);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(budget.reached());
    expect(budget.reached()?.sent).toBe(3);
    expect(sent).toHaveLength(3);
    expect(new RequestBudget(undefined, new AbortController()).reached()).toBeUndefined();
  });

  it("finds Action Network's preset by its host (nothing sent), its 401, or its entry point", async () => {
    const settings = { side: 'to' as const, signal: undefined, timeoutMs: 1000 };
    let requests = 0;
    const never: typeof fetch = async () => {
      requests += 1;
      throw new Error('not sent');
    };
    expect(
      await detectPreset({ ...settings, url: 'https://actionnetwork.org/api/v2/', fetch: never }),
    ).toEqual({
      name: 'action-network',
      server: 'Action Network',
      evidence: 'its host, actionnetwork.org',
    });
    expect(requests).toBe(0);
    const url = 'http://127.0.0.1:9/api/v2/';
    const refusing: typeof fetch = async (_input, init) => {
      expect(new Headers(init?.headers).has('osdi-api-token')).toBe(false);
      return json({ error: 'API Key invalid or not present: send it in OSDI-API-Token' }, 401);
    };
    expect(await detectPreset({ ...settings, url, fetch: refusing })).toMatchObject({
      name: 'action-network',
      evidence: 'its 401 asks for OSDI-API-Token',
    });
    const vendor: typeof fetch = async () =>
      json({ vendor_name: 'Action Network', _links: { self: { href: url } } });
    expect(await detectPreset({ ...settings, url, fetch: vendor })).toMatchObject({
      name: 'action-network',
      evidence: 'vendor_name "Action Network"',
    });
    const other: typeof fetch = async () =>
      json({ namespace: 'adis', _links: { self: { href: url } } });
    expect(await detectPreset({ ...settings, url, fetch: other })).toBeUndefined();
    expect(
      await detectPreset({ ...settings, url, fetch: async () => json({}, 401) }),
    ).toBeUndefined();
  });

  it('says which side cannot be reached, or did not answer in time', async () => {
    const url = 'http://127.0.0.1:9/api/v1/';
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    };
    const error = await detectPreset({
      side: 'from',
      url,
      fetch: refused,
      signal: undefined,
      timeoutMs: 1000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SyncConnectError);
    expect((error as SyncConnectError).side).toBe('from');
    expect((error as Error).message).toBe(
      `cannot reach the source (from) ${url}: fetch failed: connect ECONNREFUSED 127.0.0.1:9; check the URL and the network`,
    );
    const slow: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    await expect(
      detectPreset({ side: 'to', url, fetch: slow, signal: undefined, timeoutMs: 50 }),
    ).rejects.toThrow(
      `the target (to) ${url} did not answer within 0.05 s: check the URL and the network, or give a longer --timeout`,
    );
  });

  it('tells which side an address is on, and names it in failures', () => {
    const pair = {
      from: 'http://127.0.0.1:8001/api/v1/',
      to: 'http://127.0.0.1:8002/api/v1/',
      keys: { from: true, to: false },
      presets: { from: undefined, to: undefined },
    };
    expect(sideOf('http://127.0.0.1:8002/api/v1/people/1', pair)).toBe('to');
    expect(sideOf('http://127.0.0.1:8001/api/v1/people/1', pair)).toBe('from');
    expect(sideOf('http://elsewhere.example/', pair)).toBeUndefined();
    // One origin, two paths: the longer shared path wins.
    const shared = { from: 'http://h.example/a/api/', to: 'http://h.example/b/api/' };
    expect(sideOf('http://h.example/b/api/people', shared)).toBe('to');
    expect(sideOf('http://h.example/a/api/people', shared)).toBe('from');

    const refused = (url: string) =>
      new HTTPError({
        method: 'GET',
        url,
        status: 401,
        statusText: 'Unauthorized',
        headers: new Headers(),
        body: undefined,
      });
    expect(describeSyncFailure(refused(pair.to), pair)).toBe(
      `the target (to) ${pair.to} refused GET ${pair.to} (401 Unauthorized): no key was given: put it in a file and give --to-key-file, or set ADIS_TO_KEY; if the server reads the key from another header, name it with --to-preset`,
    );
    expect(
      describeSyncFailure(refused(pair.from), {
        ...pair,
        presets: { from: 'action-network', to: undefined },
      }),
    ).toBe(
      `the source (from) ${pair.from} refused GET ${pair.from} (401 Unauthorized): check the key in --from-key-file or ADIS_FROM_KEY`,
    );
  });
});

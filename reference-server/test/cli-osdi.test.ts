/**
 * The command line's flags for acting as an OSDI-style server (`--key-header`,
 * `--curie-prefix`, `--key-rate`) and its access log (`--quiet`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type CliRun, killCliRuns, runCli } from './run-cli.js';

afterEach(killCliRuns);

/** The access log lines of a run's stdout so far. */
function accessLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^\d{4}-\d\d-\d\dT\S+Z [A-Z]+ \//.test(line));
}

/**
 * Resolves once the run's stdout passes `test`, checked as each chunk arrives (the log is
 * written just after each answer); rejects if the run exits first.
 */
function printed(run: CliRun, test: (stdout: string) => boolean): Promise<void> {
  const stdout = run.child.stdout;
  return new Promise((done, fail) => {
    const check = () => {
      if (!test(run.output().stdout)) return;
      stdout?.off('data', check);
      done();
    };
    // After runCli's own listener, which adds the chunk to output().
    stdout?.on('data', check);
    run.child.once('exit', () => fail(new Error(`exited: ${run.output().stdout}`)));
    check();
  });
}

/** One call: its answer and body, and when it was sent and answered. */
interface TimedCall {
  res: Response;
  body: string;
  sent: number;
  answered: number;
}

async function timedFetch(url: string, headers: Record<string, string>): Promise<TimedCall> {
  const sent = performance.now();
  const res = await fetch(url, { headers });
  const answered = performance.now();
  return { res, body: await res.text(), sent, answered };
}

/**
 * Checks one key's calls against `limit` calls in any rolling second, whatever their
 * timing: the server decided each call at a moment between its `sent` and `answered`
 * (one steady clock in both processes). So any `limit` + 1 calls let through must span a
 * second from the first sent to the last answered (no more are let through), and each
 * call refused must have had `limit` calls let through that can lie in its second (no
 * fewer are).
 */
function expectRollingLimit(calls: readonly TimedCall[], limit: number): void {
  const allowed = calls.filter((call) => call.res.status === 200);
  for (const first of allowed) {
    // The `limit` others sent after it that were answered soonest: its tightest group.
    const soonest = allowed
      .filter((call) => call !== first && call.sent >= first.sent)
      .map((call) => call.answered)
      .sort((a, b) => a - b)
      .slice(0, limit);
    if (soonest.length < limit) continue;
    const span = Math.max(first.answered, ...soonest) - first.sent;
    expect(span, `${limit + 1} calls let through`).toBeGreaterThanOrEqual(1000);
  }
  for (const refused of calls.filter((call) => call.res.status === 429)) {
    const inItsSecond = allowed.filter(
      (call) => call.sent <= refused.answered && call.answered > refused.sent - 1000,
    );
    expect(inItsSecond.length, 'calls let through before a refusal').toBeGreaterThanOrEqual(limit);
  }
}

describe('command line as an OSDI-style server', () => {
  it('--key-header OSDI-API-Token --curie-prefix osdi --key-rate 4, with the access log', async () => {
    const server = runCli([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--seed',
      '0',
      '--key-header',
      'OSDI-API-Token',
      '--curie-prefix',
      'osdi',
      '--key-rate',
      '4',
    ]);
    const entry = await server.ready;
    const { stdout } = server.output();
    expect(stdout).toContain(
      'Key header OSDI-API-Token, curie prefix osdi, at most 4 calls a second per key',
    );
    const key = /API key \(demo tenant, write\): (\S+)/.exec(stdout)?.[1] as string;

    const refused = await fetch(entry, { headers: { 'STD-API-Token': key } });
    expect(refused.status).toBe(401);
    const firstSent = performance.now();
    const first = await fetch(entry, { headers: { 'OSDI-API-Token': key } });
    const firstAnswered = performance.now();
    expect(first.status).toBe(200);
    const body = (await first.json()) as Record<string, unknown> & {
      _links: Record<string, unknown>;
    };
    expect(body.osdi_version).toBe('1.0');
    expect(Object.keys(body._links)).toContain('osdi:people');

    // Four calls a second, the entry point's included. Calls in rounds of five at once
    // until one is refused (on a loaded machine a round can spread over a second), every
    // call checked against the limit whatever its timing.
    const calls: TimedCall[] = [{ res: first, body: '', sent: firstSent, answered: firstAnswered }];
    while (!calls.some((call) => call.res.status === 429)) {
      const round = Array.from({ length: 5 }, () =>
        timedFetch(`${entry}people`, { 'OSDI-API-Token': key }),
      );
      calls.push(...(await Promise.all(round)));
      expect(calls.filter((call) => ![200, 429].includes(call.res.status))).toEqual([]);
      expectRollingLimit(calls, 4);
    }
    const limited = calls.find((call) => call.res.status === 429) as TimedCall;
    expect(Number(limited.res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Object.keys(JSON.parse(limited.body))).toEqual(['osdi:error']);

    // One access log line per request, with its status, tenant and id (in the order the
    // server finished them, which for calls at once is any).
    const all = [refused, ...calls.map((call) => call.res)];
    await printed(server, (stdout) => accessLines(stdout).length >= all.length);
    const lines = accessLines(server.output().stdout);
    expect(lines).toHaveLength(all.length);
    const byId = new Map(all.map((res) => [res.headers.get('x-request-id'), res]));
    for (const line of lines) {
      const fields = line.split(' ');
      expect(fields).toHaveLength(7);
      const res = byId.get(fields[6] ?? '');
      expect(res, line).toBeDefined();
      byId.delete(fields[6] ?? '');
      expect(fields[3]).toBe(String(res?.status));
      expect(fields[4]).toMatch(/^\d+\.\dms$/);
      expect(fields[5]).toBe(res === refused ? '-' : 'demo');
    }

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('--quiet writes no access log', async () => {
    const server = runCli(['--port', '0', '--db', ':memory:', '--seed', '0', '--quiet']);
    const entry = await server.ready;
    const key = /API key \(demo tenant, write\): (\S+)/.exec(server.output().stdout)?.[1] as string;
    for (let i = 0; i < 3; i++) {
      expect((await fetch(entry, { headers: { 'STD-API-Token': key } })).status).toBe(200);
    }
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(accessLines(server.output().stdout)).toEqual([]);
  });

  it('exits 2 with a message on a bad key header, curie prefix or key rate', async () => {
    const cases: [string[], string][] = [
      [
        ['--key-header', 'OSDI API Token'],
        '--key-header: API key header must be an HTTP header name',
      ],
      [['--key-header', 'Content-Type'], '--key-header: API key header cannot be Content-Type'],
      [['--curie-prefix', 'osdi:'], '--curie-prefix: curie prefix must be'],
      [['--key-rate', '0'], '--key-rate must be an integer from 1 to 10000, got "0"'],
      [['--key-rate', 'four'], '--key-rate must be an integer'],
      [['--key-rate', '10001'], '--key-rate must be an integer'],
    ];
    const runs = cases.map(([args]) => runCli(['--db', ':memory:', ...args]));
    const codes = await Promise.all(runs.map((run) => run.exited));
    cases.forEach(([args, message], index) => {
      expect(codes[index], args.join(' ')).toBe(2);
      expect(runs[index]?.output().stderr, args.join(' ')).toContain(message);
    });
  });

  it('--preset action-network serves the Action Network API at /api/v2/; an unknown preset exits 2', async () => {
    const server = runCli([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--seed',
      '5',
      '--preset',
      'action-network',
      '--quiet',
    ]);
    const entry = await server.ready;
    expect(entry).toMatch(/\/api\/v2\/$/);
    const { stdout } = server.output();
    expect(stdout).toContain(
      'Preset action-network. Key header OSDI-API-Token, curie prefix osdi, at most 4 calls a second per key',
    );
    const key = /API key \(demo tenant, write\): (\S+)/.exec(stdout)?.[1] as string;
    const res = await fetch(`${entry}people`, { headers: { 'OSDI-API-Token': key } });
    expect(res.status).toBe(200);
    const page = (await res.json()) as { _embedded: Record<string, { identifiers: string[] }[]> };
    const people = page._embedded['osdi:people'] ?? [];
    expect(people.length).toBe(5);
    for (const person of people) expect(person.identifiers[0]).toMatch(/^action_network:/);

    const unknown = runCli(['--port', '0', '--db', ':memory:', '--preset', 'nation-builder']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.output().stderr).toContain(
      '--preset must be one of specification, action-network',
    );
  });
});

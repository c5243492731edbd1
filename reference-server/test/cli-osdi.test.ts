/**
 * The command line's flags for acting as an OSDI-style server (`--key-header`,
 * `--curie-prefix`, `--key-rate`) and its access log (`--quiet`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { killCliRuns, runCli } from './run-cli.js';

afterEach(killCliRuns);

/** The access log lines of a run's stdout so far. */
function accessLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => /^\d{4}-\d\d-\d\dT\S+Z [A-Z]+ \//.test(line));
}

/** Waits until `check` passes (the log is written just after each answer). */
async function eventually(check: () => void, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
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
    const first = await fetch(entry, { headers: { 'OSDI-API-Token': key } });
    expect(first.status).toBe(200);
    const body = (await first.json()) as Record<string, unknown> & {
      _links: Record<string, unknown>;
    };
    expect(body.osdi_version).toBe('1.0');
    expect(Object.keys(body._links)).toContain('osdi:people');

    const answers: Response[] = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await fetch(`${entry}people`, { headers: { 'OSDI-API-Token': key } }));
    }
    const statuses = answers.map((res) => res.status);
    // Four calls a second: the entry point and three more, then 429 within that second.
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses[3]).toBe(429);
    expect(Number(answers[3]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const limited = (await answers[3]?.json()) as Record<string, unknown>;
    expect(Object.keys(limited)).toEqual(['osdi:error']);

    // One access log line per request, with its status, tenant and id.
    const all = [refused, first, ...answers];
    await eventually(() => expect(accessLines(server.output().stdout)).toHaveLength(all.length));
    const lines = accessLines(server.output().stdout);
    lines.forEach((line, index) => {
      const res = all[index] as Response;
      const fields = line.split(' ');
      expect(fields).toHaveLength(7);
      expect(fields[3]).toBe(String(res.status));
      expect(fields[4]).toMatch(/^\d+\.\dms$/);
      expect(fields[5]).toBe(index === 0 ? '-' : 'demo');
      expect(fields[6]).toBe(res.headers.get('x-request-id'));
    });

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

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliTempDir, endCliRuns, runCli } from './run-cli.js';

afterEach(endCliRuns);

const tempDir = () => cliTempDir('adis-cli-');

function run(args: string[]) {
  return runCli(args);
}

describe('command line', () => {
  it('serves over loopback on port 0 with a keys file and exits 0 on SIGTERM', async () => {
    const dir = tempDir();
    const keys = join(dir, 'keys.json');
    writeFileSync(
      keys,
      JSON.stringify({
        keys: [
          { token: 'cli-write-key-1', tenant: 'acme', access: 'write' },
          { token: 'cli-read-key-01', tenant: 'acme', access: 'read' },
        ],
      }),
    );
    const server = run([
      '--port',
      '0',
      '--db',
      join(dir, 'adis.db'),
      '--keys',
      keys,
      '--seed',
      '12',
    ]);
    const entry = await server.ready;
    expect(entry).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/$/);
    expect(entry).not.toContain(':0/');
    expect(server.output().stdout.match(/^Entry point:/gm)).toHaveLength(1);

    const res = await fetch(entry, { headers: { 'STD-API-Token': 'cli-read-key-01' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
    const body = (await res.json()) as { _links: Record<string, { href: string }> };
    expect(body._links.self?.href).toBe(entry);
    const people = await fetch(`${entry}people`, {
      headers: { 'STD-API-Token': 'cli-write-key-1' },
    });
    // Seeded people go to the demo tenant, not to acme.
    expect(((await people.json()) as { total_records: number }).total_records).toBe(0);
    const created = await fetch(`${entry}people`, {
      method: 'POST',
      headers: { 'STD-API-Token': 'cli-write-key-1', 'Content-Type': 'application/json' },
      body: JSON.stringify({ given_name: 'Over the wire' }),
    });
    expect(created.status).toBe(201);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('creates a demo key once and reprints it on restart', async () => {
    const dir = tempDir();
    const db = join(dir, 'adis.db');
    const first = run(['--port', '0', '--db', db]);
    await first.ready;
    const token = /API key \(demo tenant, write\): (\S+)/.exec(first.output().stdout)?.[1];
    expect(token).toBeDefined();
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    const second = run(['--port', '0', '--db', db]);
    const entry = await second.ready;
    expect(second.output().stdout).toContain(`API key (demo tenant, write): ${token}`);
    const res = await fetch(`${entry}people?per_page=1`, {
      headers: { 'STD-API-Token': token ?? '' },
    });
    // 300 demo people were seeded when the database was new, none on restart.
    expect(((await res.json()) as { total_records: number }).total_records).toBe(300);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('exits 2 on bad arguments and bad key files', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ keys: [{ token: 'short', tenant: 'a', access: 'admin' }] }),
    );
    const cases = [
      ['--port', 'abc'],
      ['--bogus'],
      ['--keys', bad],
      ['--keys', join(dir, 'missing.json')],
    ];
    // All at once: each start of the command takes seconds on a loaded machine.
    const procs = cases.map((args) => run([...args, '--db', ':memory:']));
    const help = run(['--help']);
    for (const [index, proc] of procs.entries()) {
      const args = cases[index]?.join(' ');
      expect(await proc.exited, args).toBe(2);
      expect(proc.output().stderr, args).toMatch(/error:/);
    }
    expect(await help.exited).toBe(0);
    expect(help.output().stdout).toContain('--keys');
  });
  it("takes a tenant's namespace from whichever of its keys names it, and refuses two", async () => {
    const dir = tempDir();
    const db = join(dir, 'adis.db');
    const keys = join(dir, 'keys.json');
    writeFileSync(
      keys,
      JSON.stringify({
        keys: [
          { token: 'acme-write-key', tenant: 'acme', access: 'write' },
          { token: 'acme-read-key1', tenant: 'acme', access: 'read', namespace: 'acme' },
        ],
      }),
    );
    const server = run(['--port', '0', '--db', db, '--keys', keys, '--seed', '0']);
    const entry = await server.ready;
    const root = await fetch(entry, { headers: { 'STD-API-Token': 'acme-write-key' } });
    expect(((await root.json()) as { namespace: string }).namespace).toBe('acme');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    // The tenant exists now: a new namespace in the file is reported, not applied.
    writeFileSync(
      keys,
      JSON.stringify({
        keys: [{ token: 'acme-write-key', tenant: 'acme', access: 'write', namespace: 'other' }],
      }),
    );
    const again = run(['--port', '0', '--db', db, '--keys', keys]);
    await again.ready;
    expect(again.output().stdout).toContain(
      "Tenant acme keeps namespace acme, set when it was created; the keys file's other is not applied",
    );
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    writeFileSync(
      keys,
      JSON.stringify({
        keys: [
          { token: 'acme-write-key', tenant: 'acme', access: 'write', namespace: 'one' },
          { token: 'acme-read-key1', tenant: 'acme', access: 'read', namespace: 'two' },
        ],
      }),
    );
    const conflicting = run(['--port', '0', '--db', ':memory:', '--keys', keys]);
    expect(await conflicting.exited).toBe(2);
    expect(conflicting.output().stderr).toContain(
      'keys file: tenant acme is given two namespaces, one and two',
    );
  });
});

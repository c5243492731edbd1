/**
 * What a start checks first, and what a failed start leaves: the port is claimed before
 * the database is opened, so a taken port leaves no file, no seeded people and no key; the
 * demo key is written last; a start with a keys file says when an earlier start's demo
 * key is still in the database, and `--remove-demo-key` removes it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../src/index.js';
import { listen } from '../src/server.js';
import { cliTempDir, endCliRuns, runCli } from './run-cli.js';
import { holdTakenPort } from './taken-port.js';

const takenPort = holdTakenPort();
afterEach(endCliRuns);

const tempDir = () => cliTempDir('adis-start-order-');

/** A database path and a keys file with one key of the tenant `acme`, in a new folder. */
function databaseAndKeys(): { db: string; keys: string } {
  const dir = tempDir();
  const keys = join(dir, 'keys.json');
  writeFileSync(
    keys,
    JSON.stringify({ keys: [{ token: 'start-order-key', tenant: 'acme', access: 'write' }] }),
  );
  return { db: join(dir, 'adis.db'), keys };
}

const DEMO_TOKEN = /API key \(demo tenant, write\): (\S+)/;

describe('a start on a taken port', () => {
  it('fails before the database is touched: no file, no people, no key', async () => {
    const db = join(tempDir(), 'adis.db');
    const server = runCli(['--port', String(takenPort()), '--db', db]);
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toContain(`port ${takenPort()} is taken`);
    expect(server.output().stdout).not.toMatch(/Seeded|API key/);
    expect(existsSync(db)).toBe(false);
  });

  it('leaves an existing database as it was: no demo key added', async () => {
    const { db, keys } = databaseAndKeys();
    const first = runCli(['--port', '0', '--db', db, '--keys', keys, '--seed', '0', '--quiet']);
    await first.ready;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const failed = runCli(['--port', String(takenPort()), '--db', db, '--seed', '0']);
    expect(await failed.exited).toBe(1);
    const storage = openStorage(db);
    try {
      expect(await storage.tenants.getSetting('demo_token')).toBeUndefined();
      expect(await storage.tenants.authenticate('start-order-key')).toBeDefined();
    } finally {
      await storage.close();
    }
  });
});

describe('demo keys beside a keys file', () => {
  it('are named at start, and --remove-demo-key removes them', async () => {
    const { db, keys } = databaseAndKeys();
    // A start without a keys file makes the demo key.
    const demo = runCli(['--port', '0', '--db', db, '--seed', '0', '--quiet']);
    const entry = await demo.ready;
    const token = DEMO_TOKEN.exec(demo.output().stdout)?.[1] as string;
    expect(token).toMatch(/^demo-/);
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);

    // With the keys file, the demo key still works, and the start says so.
    const withKeys = runCli(['--port', '0', '--db', db, '--keys', keys, '--quiet']);
    const entry2 = await withKeys.ready;
    expect(withKeys.output().stdout).toContain(
      `Note: the database also holds a demo key (tenant demo, write: ${token.slice(0, 9)}…)`,
    );
    expect(withKeys.output().stdout).not.toContain(token);
    const answered = await fetch(`${entry2}people`, { headers: { 'STD-API-Token': token } });
    expect(answered.status).toBe(200);
    withKeys.child.kill('SIGTERM');
    expect(await withKeys.exited).toBe(0);

    const removing = runCli(['--port', '0', '--db', db, '--keys', keys, '--remove-demo-key']);
    const entry3 = await removing.ready;
    expect(removing.output().stdout).toContain('Demo key removed from the database');
    const refused = await fetch(`${entry3}people`, { headers: { 'STD-API-Token': token } });
    expect(refused.status).toBe(401);
    removing.child.kill('SIGTERM');
    expect(await removing.exited).toBe(0);
    expect(entry).toMatch(/\/api\/v1\/$/);
  });

  it('--remove-demo-key without --keys is a usage error, and touches nothing', async () => {
    const db = join(tempDir(), 'adis.db');
    const server = runCli(['--port', '0', '--db', db, '--remove-demo-key']);
    expect(await server.exited).toBe(2);
    expect(server.output().stderr).toContain('--remove-demo-key needs --keys <file>');
    expect(existsSync(db)).toBe(false);
  });
});

describe('while the database opens', () => {
  it('the claimed port answers 503 with Retry-After, as std:error', async () => {
    const listening = await listen({ port: 0 });
    try {
      const res = await fetch(`${listening.url}/api/v1/`);
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toBe('1');
      const body = (await res.json()) as Record<string, unknown>;
      expect(JSON.stringify(body)).toContain('SERVICE_UNAVAILABLE');
    } finally {
      await listening.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPatch, dropNulls } from '../src/domain/merge.js';
import { createApp, openStorage, seedPeople } from '../src/index.js';
import { MIGRATIONS } from '../src/storage/sqlite.js';
import { engineStorages, STORAGE_ENGINES } from './storage-engines.js';

const dirs: string[] = [];
function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adis-storage-'));
  dirs.push(dir);
  return join(dir, 'nested', 'adis.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.each(STORAGE_ENGINES)('storage ($name)', (engine) => {
  const { open, openKept, rows } = engineStorages(engine);

  it('durability: data written through one instance is there after close and reopen', async () => {
    const { storage: first, reopen } = await openKept();
    expect(first.engine).toBe(engine.name);
    expect(first.created).toBe(true);
    await first.tenants.putApiKey('durable-key-0001', 'acme', 'write');
    await first.tenants.setSetting('demo_token', 'abc');
    const app = createApp({ storage: first });
    const res = await app.fetch(
      new Request('http://h/api/v1/people', {
        method: 'POST',
        headers: { 'STD-API-Token': 'durable-key-0001', 'Content-Type': 'application/json' },
        body: JSON.stringify({ given_name: 'Durable', identifiers: ['crm:1'] }),
      }),
    );
    expect(res.status).toBe(201);
    const self = ((await res.json()) as { _links: { self: { href: string } } })._links.self.href;
    await first.close();

    const second = await reopen();
    expect(second.created).toBe(false);
    expect(await second.tenants.getSetting('demo_token')).toBe('abc');
    const again = await createApp({ storage: second }).fetch(
      new Request(self, { headers: { 'STD-API-Token': 'durable-key-0001' } }),
    );
    expect(again.status).toBe(200);
    expect(((await again.json()) as { given_name: string }).given_name).toBe('Durable');
    const tenant = await second.tenants.get('acme');
    expect(tenant).toBeDefined();
    expect(await second.records.findByIdentifier(tenant?.id ?? 0, 'person', 'crm:1')).toBeDefined();
  });

  it('keeps totals and side tables in step with inserts and deletes', async () => {
    const storage = await open();
    await seedPeople(storage, { tenant: 'demo', count: 40, seed: 3 });
    const tenant = await storage.tenants.ensure('demo');
    const scope = { tenantId: tenant.id, kind: 'person' };
    expect(await storage.records.count(scope)).toBe(40);
    const [first] = await storage.records.list({ ...scope, limit: 1 });
    expect(first).toBeDefined();
    const emails = (first?.doc.email_addresses ?? []) as { address: string }[];
    const email = emails[0]?.address ?? '';
    expect(
      await storage.records.findByKey(tenant.id, 'person', 'email', email.toLowerCase()),
    ).toEqual([first?.id]);
    expect(await storage.records.delete(tenant.id, 'person', first?.id ?? '')).toBe(true);
    expect(await storage.records.count(scope)).toBe(40 - 1);
    expect(
      await storage.records.findByKey(tenant.id, 'person', 'email', email.toLowerCase()),
    ).toEqual([]);
    expect(await rows(storage, 'identifiers')).toBe(39);
  });
});

describe('SqliteStorage', () => {
  it('opens a file (making its folder) in WAL mode, fully synchronous, at the newest schema', async () => {
    const storage = openStorage(tempDb());
    expect(storage.created).toBe(true);
    expect(storage.database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(storage.database.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(storage.database.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    await storage.close();
  });

  it('uses the covering seq index for paging queries', async () => {
    const storage = openStorage(':memory:');
    const plan = storage.database
      .prepare(
        'EXPLAIN QUERY PLAN SELECT seq FROM records WHERE tenant_id = 1 AND kind = ? ORDER BY seq DESC LIMIT 10 OFFSET 5',
      )
      .all('person') as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).toMatch(/COVERING INDEX records_by_seq/);
    await storage.close();
  });

  it('refuses a database from a newer server', async () => {
    const path = tempDb();
    const storage = openStorage(path);
    storage.database.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    await storage.close();
    expect(() => openStorage(path)).toThrow(/newer/);
  });
});

describe('merge rules', () => {
  it('applyPatch: null clears, arrays replace, objects merge, ignored keys skipped', () => {
    expect(
      applyPatch(
        { a: 1, b: [1, 2], c: { x: 1, y: 2 }, d: 'keep' },
        { a: null, b: [3], c: { y: null, z: 3 }, d: 'no' },
        ['d'],
      ),
    ).toEqual({ b: [3], c: { x: 1, z: 3 }, d: 'keep' });
  });

  it('dropNulls removes nulls at every depth', () => {
    expect(dropNulls({ a: null, b: { c: null, d: [{ e: null, f: 1 }] } })).toEqual({
      b: { d: [{ f: 1 }] },
    });
  });
});

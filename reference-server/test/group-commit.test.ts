/**
 * Group commit: concurrent writes share one COMMIT, a failing unit rolls back alone, a
 * failed COMMIT acknowledges nothing, and no answer shows a write before its commit.
 * Commits are counted (`storage.commits`), never timed: requests started in one turn of
 * the event loop run their units before the COMMIT, which waits for the next turn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CommitError, createApp, openStorage, type SqliteStorage } from '../src/index.js';
import type { RecordWrite } from '../src/storage/storage.js';
import type { Json } from './helpers.js';

const KEY = 'group-commit-key';
const ORIGIN = 'http://adis.test';
const dirs: string[] = [];
const opened: SqliteStorage[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(path = ':memory:'): SqliteStorage {
  const storage = openStorage(path, { groupCommit: true });
  opened.push(storage);
  return storage;
}

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'adis-group-commit-'));
  dirs.push(dir);
  return join(dir, 'test.db');
}

/** A server on a group-commit storage, called in-process. */
async function server(storage = open()) {
  await storage.tenants.putApiKey(KEY, 'acme', 'write');
  await storage.flush();
  const app = createApp({ storage, logError: () => {}, anonymousRateLimit: false });
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await app.fetch(
      new Request(url.startsWith('http') ? url : `${ORIGIN}/api/v1/${url}`, {
        method,
        headers: { 'STD-API-Token': KEY, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json };
  };
  return { storage, call };
}

type Server = Awaited<ReturnType<typeof server>>;

async function petition(s: Server): Promise<{ href: string; helper: string }> {
  const created = await s.call('POST', 'petitions', { title: 'Save Elm Park' });
  expect(created.status).toBe(201);
  const href: string = created.body._links.self.href;
  return { href, helper: `${href}/record_signature_helper` };
}

const signer = (n: number, extra: Json = {}) => ({
  person: { given_name: `Signer ${n}`, email_addresses: [{ address: `signer${n}@example.org` }] },
  ...extra,
});

function personWrite(tenantId: number, id: string): RecordWrite {
  const now = new Date().toISOString();
  return {
    tenantId,
    kind: 'person',
    id,
    doc: { given_name: id },
    created_date: now,
    modified_date: now,
    identifiers: [`adis:${id}`],
  };
}

describe('group commit: storage', () => {
  it('units of one turn share one COMMIT, and durable() resolves after it', async () => {
    const storage = open(tempFile());
    const tenant = await storage.tenants.ensure('acme');
    await storage.durable();
    const before = storage.commits;
    const mark = storage.commitMark();
    await Promise.all(
      ['a', 'b', 'c'].map((id) =>
        storage.transaction(() => storage.records.insert(personWrite(tenant.id, id))),
      ),
    );
    // Another connection (another process would be the same) sees nothing yet.
    const other = new Database(storage.path, { readonly: true });
    try {
      const count = () =>
        (
          other.prepare("SELECT count(*) AS n FROM records WHERE kind = 'person'").get() as {
            n: number;
          }
        ).n;
      expect(count()).toBe(0);
      expect(storage.commits).toBe(before);
      await storage.durable(mark);
      expect(storage.commits).toBe(before + 1);
      expect(count()).toBe(3);
    } finally {
      other.close();
    }
  });

  it('a unit that throws rolls back alone; the others of its batch commit', async () => {
    const storage = open();
    const tenant = await storage.tenants.ensure('acme');
    await storage.durable();
    const before = storage.commits;
    const mark = storage.commitMark();
    const units = await Promise.allSettled([
      storage.transaction(() => storage.records.insert(personWrite(tenant.id, 'kept-1'))),
      storage.transaction(async () => {
        await storage.records.insert(personWrite(tenant.id, 'lost'));
        throw new Error('this unit fails');
      }),
      storage.transaction(() => storage.records.insert(personWrite(tenant.id, 'kept-2'))),
    ]);
    expect(units.map((unit) => unit.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(units[1]?.status === 'rejected' && String(units[1].reason)).toMatch('this unit fails');
    await storage.durable(mark);
    expect(storage.commits - before).toBe(1);
    expect(await storage.records.get(tenant.id, 'person', 'kept-1')).toBeDefined();
    expect(await storage.records.get(tenant.id, 'person', 'lost')).toBeUndefined();
    expect(await storage.records.get(tenant.id, 'person', 'kept-2')).toBeDefined();
  });

  it('a failed COMMIT rejects durable() with CommitError and keeps none of the batch', async () => {
    const storage = open();
    const tenant = await storage.tenants.ensure('acme');
    await storage.durable();
    const mark = storage.commitMark();
    // Both units in one batch: started in the same turn.
    await Promise.all([
      storage.transaction(() => storage.records.insert(personWrite(tenant.id, 'doomed'))),
      failTheCommit(storage),
    ]);
    await expect(storage.durable(mark)).rejects.toBeInstanceOf(CommitError);
    expect(await storage.records.get(tenant.id, 'person', 'doomed')).toBeUndefined();
    // Later work is not affected, and a mark taken after the failure does not see it.
    const next = storage.commitMark();
    await storage.transaction(() => storage.records.insert(personWrite(tenant.id, 'later')));
    await expect(storage.durable(next)).resolves.toBeUndefined();
    expect(await storage.records.get(tenant.id, 'person', 'later')).toBeDefined();
  });

  it('without groupCommit each transaction commits before it resolves', async () => {
    const storage = openStorage(':memory:');
    opened.push(storage);
    const tenant = await storage.tenants.ensure('acme');
    const before = storage.commits;
    await storage.transaction(() => storage.records.insert(personWrite(tenant.id, 'x')));
    expect(storage.commits).toBe(before + 1);
    await expect(storage.durable(0)).resolves.toBeUndefined();
  });
});

/**
 * Adds a unit to the open batch whose COMMIT will fail: a foreign key checked only at
 * COMMIT (`defer_foreign_keys`) that the unit breaks.
 */
function failTheCommit(storage: SqliteStorage): Promise<void> {
  return storage.transaction(() => {
    storage.database.pragma('defer_foreign_keys = ON');
    storage.database
      .prepare('INSERT INTO identifiers (tenant_id, kind, identifier, seq) VALUES (?, ?, ?, ?)')
      .run(1, 'nothing', 'dangling', 999_999_999);
  });
}

describe('group commit: over the app', () => {
  it('concurrent helper calls share one COMMIT and are all acknowledged', async () => {
    const s = await server();
    const { href, helper } = await petition(s);
    const before = s.storage.commits;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, n) => s.call('POST', helper, signer(n))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(s.storage.commits - before).toBe(1);
    expect((await s.call('GET', href)).body.total_signatures).toBe(8);
  });

  it('a call that fails in a batch gets its own error; the others are kept', async () => {
    const s = await server();
    const { href, helper } = await petition(s);
    const before = s.storage.commits;
    // Two signatures claiming the same identifier: the second one's unit (its person
    // and its signature) rolls back; the calls around it are not affected.
    const results = await Promise.all([
      s.call('POST', helper, signer(1)),
      s.call('POST', helper, signer(2, { identifiers: ['crm:sig-1'] })),
      s.call('POST', helper, signer(3, { identifiers: ['crm:sig-1'] })),
      s.call('POST', helper, signer(4)),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 400, 201]);
    expect(results[2]?.body['std:error']).toBeDefined();
    expect(s.storage.commits - before).toBe(1);
    expect((await s.call('GET', href)).body.total_signatures).toBe(3);
    const people = await s.call('GET', 'people');
    expect(people.body.total_records).toBe(3);
  });

  it('a failed COMMIT answers 500 to every call of the batch, and nothing is kept', async () => {
    const s = await server();
    const { href, helper } = await petition(s);
    const calls = [1, 2, 3].map((n) => s.call('POST', helper, signer(n)));
    // A read in the same batch sees the uncommitted signatures, so it must fail too
    // rather than show them.
    const read = s.call('GET', href);
    const failing = failTheCommit(s.storage);
    const results = await Promise.all(calls);
    await failing;
    for (const result of results) {
      expect(result.status).toBe(500);
      expect(result.body['std:error'].resource_status[0].error_descriptions[0].error_code).toBe(
        'INTERNAL_ERROR',
      );
    }
    expect((await read).status).toBe(500);
    expect((await s.call('GET', href)).body.total_signatures).toBe(0);
    // The server goes on.
    expect((await s.call('POST', helper, signer(4))).status).toBe(201);
    expect((await s.call('GET', href)).body.total_signatures).toBe(1);
  });

  it('an answer that shows a write comes after the COMMIT holding it', async () => {
    const s = await server();
    const { href, helper } = await petition(s);
    const before = s.storage.commits;
    const write = s.call('POST', helper, signer(1));
    const read = s.call('GET', href).then((r) => ({ ...r, commits: s.storage.commits }));
    const seen = await read;
    expect(seen.status).toBe(200);
    if (seen.body.total_signatures === 1) expect(seen.commits).toBeGreaterThan(before);
    expect((await write).status).toBe(201);
    // And a read after an acknowledged write sees it.
    expect((await s.call('GET', href)).body.total_signatures).toBe(1);
  });

  it('a read right after an acknowledged write sees it, from another connection too', async () => {
    const s = await server(open(tempFile()));
    const { helper } = await petition(s);
    const signed = await s.call('POST', helper, signer(1));
    expect(signed.status).toBe(201);
    const other = new Database(s.storage.path, { readonly: true });
    try {
      const row = other
        .prepare('SELECT kind FROM records WHERE id = ?')
        .get(String(signed.body._links.self.href).split('/').pop());
      expect(row).toEqual({ kind: 'signature' });
    } finally {
      other.close();
    }
  });
});

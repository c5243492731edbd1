/**
 * Crash test: the real command line server on a SQLite file takes concurrent helper
 * calls and is killed with SIGKILL in the middle. Reopened, the database must hold every
 * call that was answered 2xx, and its totals must be exact (total_signatures equals the
 * signatures stored). Calls cut off by the kill may or may not be there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openStorage } from '../src/index.js';
import { killCliRuns, runCli } from './run-cli.js';

const KEY = 'crash-test-write-key';
const dirs: string[] = [];

afterEach(() => {
  killCliRuns();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('every acknowledged helper call survives kill -9 of the server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'adis-crash-'));
  dirs.push(dir);
  const db = join(dir, 'crash.db');
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify({ keys: [{ token: KEY, tenant: 'crash', access: 'write' }] }));
  const server = runCli(['--port', '0', '--db', db, '--keys', keys, '--seed', '0']);
  const api = (await server.ready).replace(/\/$/, '');
  const headers = { 'STD-API-Token': KEY, 'Content-Type': 'application/json' };
  const created = await fetch(`${api}/petitions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: 'Crash test' }),
  });
  expect(created.status).toBe(201);
  const petitionHref: string = ((await created.json()) as { _links: { self: { href: string } } })
    ._links.self.href;
  const petitionId = petitionHref.split('/').pop() as string;

  // 10 clients, each calling in a loop until the server dies; the kill comes once
  // 150 calls have been acknowledged, so that many are in flight at that moment.
  const acknowledged: string[] = [];
  let killed = false;
  const client = async (index: number) => {
    for (let n = 0; !killed; n++) {
      try {
        const res = await fetch(`${petitionHref}/record_signature_helper`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            person: {
              given_name: `C${index}`,
              email_addresses: [{ address: `c${index}-${n}@x.org` }],
            },
            add_tags: ['not-a-tag'], // a part that fails: the call still answers (400)
          }),
        });
        type Rendered = { _links?: { self: { href: string } } };
        const body = (await res.json()) as Rendered & Record<string, Rendered>;
        // 400 non-atomic: the signature and person were written, a part was not.
        const signature: Rendered | undefined = res.status === 400 ? body['std:signature'] : body;
        if (res.status < 500 && signature?._links) {
          acknowledged.push(signature._links.self.href.split('/').pop() as string);
        }
        if (acknowledged.length >= 150 && !killed) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      } catch {
        return; // the connection died with the server
      }
    }
  };
  await Promise.all(Array.from({ length: 10 }, (_, index) => client(index)));
  await server.exited;
  expect(acknowledged.length).toBeGreaterThanOrEqual(150);

  // Read back: the server is gone, the file is ours.
  const storage = openStorage(db);
  try {
    const tenant = await storage.tenants.get('crash');
    expect(tenant).toBeDefined();
    const tenantId = tenant?.id as number;
    for (const id of acknowledged) {
      expect(await storage.records.get(tenantId, 'signature', id), `signature ${id}`).toBeDefined();
    }
    const stored = await storage.records.count({
      tenantId,
      kind: 'signature',
      parent: { kind: 'petition', id: petitionId },
    });
    expect(stored).toBeGreaterThanOrEqual(acknowledged.length);
    const total = (await storage.records.totalsOf(tenantId, 'petition', [petitionId])).get(
      petitionId,
    );
    expect(total?.total_signatures).toBe(stored);
  } finally {
    await storage.close();
  }
}, 60_000);

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../src/index.js';
import { KeyCache } from '../src/storage/key-cache.js';
import { errorOf, harness, READ, WRITE } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('API key cache', () => {
  it('refuses a removed key at once, though it was just used', async () => {
    const h = harness();
    await h.storage.putApiKey('revocable-key-01', 'acme', 'write', 'rotation');
    const before = await h.call('GET', '/api/v1/people', { key: 'revocable-key-01' });
    expect(before.status).toBe(200);
    expect(await h.storage.removeApiKeys('rotation')).toBe(1);
    const after = await h.json('GET', '/api/v1/people', { key: 'revocable-key-01' });
    expect(after.status).toBe(401);
    expect(errorOf(after.body)[0]?.error_code).toBe('UNAUTHORIZED');
    // The other keys still work.
    expect((await h.call('GET', '/api/v1/people', { key: WRITE })).status).toBe(200);
  });

  it('applies a changed access or tenant at once', async () => {
    const h = harness();
    expect((await h.call('GET', '/api/v1/people', { key: READ })).status).toBe(200);
    await h.storage.putApiKey(READ, 'acme', 'write');
    const write = await h.call('POST', '/api/v1/tags', { key: READ, body: { name: 'now' } });
    expect(write.status).toBe(201);
    await h.storage.putApiKey(READ, 'elsewhere', 'read');
    const tags = await h.json('GET', '/api/v1/tags', { key: READ });
    expect(tags.body.total_records).toBe(0);
    expect((await h.storage.authenticate(READ))?.tenant.name).toBe('elsewhere');
  });

  // The SQLite engine's own cache, through its synchronous units of work.
  it('does not keep a key read inside a transaction that rolls back', () => {
    const storage = openStorage(':memory:').sqlite;
    expect(() =>
      storage.transaction(() => {
        storage.putApiKey('rolled-back-key', 'acme', 'write');
        expect(storage.authenticate('rolled-back-key')?.access).toBe('write');
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(storage.authenticate('rolled-back-key')).toBeUndefined();
    storage.close();
  });

  it('sees keys removed by another connection to the same file within its time limit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adis-keys-'));
    dirs.push(dir);
    const path = join(dir, 'adis.db');
    const server = openStorage(path).sqlite;
    const other = openStorage(path).sqlite;
    server.putApiKey('shared-file-key', 'acme', 'read', 'keys-file');
    expect(server.authenticate('shared-file-key')?.access).toBe('read');
    other.removeApiKeys('keys-file');
    // The cache answers for at most its time limit (one second), then asks the file.
    const deadline = Date.now() + 1500;
    while (server.authenticate('shared-file-key') !== undefined) {
      expect(Date.now()).toBeLessThan(deadline);
    }
    other.close();
    server.close();
  });
});

describe('KeyCache', () => {
  const info = { access: 'read' as const, tenant: { id: 1, name: 'acme', namespace: 'adis' } };

  it('answers for its time limit only', () => {
    let now = 0;
    const cache = new KeyCache(10, 1000, () => now);
    cache.set('token-1', info);
    now = 999;
    expect(cache.get('token-1')).toEqual(info);
    now = 1000;
    expect(cache.get('token-1')).toBeUndefined();
  });

  it('holds at most its bound, dropping the oldest', () => {
    const cache = new KeyCache(2, 1000, () => 0);
    cache.set('a', info);
    cache.set('b', info);
    cache.set('c', info);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual(info);
    expect(cache.get('c')).toEqual(info);
  });

  it('shares frozen answers, so no request can change another one', () => {
    const cache = new KeyCache();
    const kept = cache.set('token-1', { ...info, tenant: { ...info.tenant } });
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(kept.tenant)).toBe(true);
  });
});

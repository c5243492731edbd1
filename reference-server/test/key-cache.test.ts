import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyCache } from '../src/storage/key-cache.js';
import { errorOf, harness, READ, WRITE } from './helpers.js';
import { engineStorages, STORAGE_ENGINES } from './storage-engines.js';

describe('API key cache', () => {
  it('refuses a removed key at once, though it was just used', async () => {
    const h = harness();
    await h.storage.tenants.putApiKey('revocable-key-01', 'acme', 'write', 'rotation');
    const before = await h.call('GET', '/api/v1/people', { key: 'revocable-key-01' });
    expect(before.status).toBe(200);
    expect(await h.storage.tenants.removeApiKeys('rotation')).toBe(1);
    const after = await h.json('GET', '/api/v1/people', { key: 'revocable-key-01' });
    expect(after.status).toBe(401);
    expect(errorOf(after.body)[0]?.error_code).toBe('UNAUTHORIZED');
    // The other keys still work.
    expect((await h.call('GET', '/api/v1/people', { key: WRITE })).status).toBe(200);
  });

  it('applies a changed access or tenant at once', async () => {
    const h = harness();
    expect((await h.call('GET', '/api/v1/people', { key: READ })).status).toBe(200);
    await h.storage.tenants.putApiKey(READ, 'acme', 'write');
    const write = await h.call('POST', '/api/v1/tags', { key: READ, body: { name: 'now' } });
    expect(write.status).toBe(201);
    await h.storage.tenants.putApiKey(READ, 'elsewhere', 'read');
    const tags = await h.json('GET', '/api/v1/tags', { key: READ });
    expect(tags.body.total_records).toBe(0);
    expect((await h.storage.tenants.authenticate(READ))?.tenant.name).toBe('elsewhere');
  });
});

// Each engine keeps its own cache of keys: it must follow rollbacks and other instances.
describe.each(STORAGE_ENGINES)('API key cache of the storage ($name)', (engine) => {
  const { open, openKept } = engineStorages(engine);

  it('does not keep a key read inside a transaction that rolls back', async () => {
    const storage = await open();
    await expect(
      storage.transaction(async () => {
        await storage.tenants.putApiKey('rolled-back-key', 'acme', 'write');
        expect((await storage.tenants.authenticate('rolled-back-key'))?.access).toBe('write');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await storage.tenants.authenticate('rolled-back-key')).toBeUndefined();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('sees keys removed by another instance on the same database within its time limit', async () => {
    // The cache's clock (Date.now, taken when the storage is opened) moves only when the
    // test moves it, so the limit is checked exactly, however slow the calls are.
    vi.useFakeTimers({ toFake: ['Date'] });
    const { storage: server, reopen } = await openKept();
    const other = await reopen();
    await server.tenants.putApiKey('shared-file-key', 'acme', 'read', 'keys-file');
    expect((await server.tenants.authenticate('shared-file-key'))?.access).toBe('read');
    expect(await other.tenants.removeApiKeys('keys-file')).toBe(1);
    // The cache answers for at most its time limit (one second), then asks the database.
    vi.advanceTimersByTime(1000);
    expect(await server.tenants.authenticate('shared-file-key')).toBeUndefined();
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

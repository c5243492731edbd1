/**
 * The guarantees of the Storage contract hold with several processes on one database:
 * two PostgresStorage instances (two pools, as two server processes have) race on the
 * same rows. Look-up-then-insert makes one record, read-then-update loses nothing,
 * identifiers stay unique, tenants stay apart, and an exhausted pool fails fast.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStorage, type PostgresStorage } from '../../src/storage/postgres.js';
import {
  DuplicateIdentifierError,
  type RecordWrite,
  StorageUnavailableError,
} from '../../src/storage/storage.js';
import { type FreshDatabase, freshDatabase } from './database.js';
import { watchLockWaits } from './lock-waits.js';

let db: FreshDatabase;
let a: PostgresStorage;
let b: PostgresStorage;

beforeAll(async () => {
  db = await freshDatabase('storage_concurrency');
  // Both open at once: the migrations run once, under their advisory lock.
  [a, b] = await Promise.all([
    openPostgresStorage(db.url, { poolSize: 6 }),
    openPostgresStorage(db.url, { poolSize: 6 }),
  ]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await db?.drop();
});

const now = '2024-03-01T00:00:00.000Z';
function person(tenantId: number, id: string, extra: Partial<RecordWrite> = {}): RecordWrite {
  return {
    tenantId,
    kind: 'person',
    id,
    doc: { n: 0 },
    created_date: now,
    modified_date: now,
    identifiers: [],
    ...extra,
  };
}

describe('two PostgresStorage instances on one database', () => {
  it('migrated once when opened together', () => {
    expect([a.created, b.created].sort()).toEqual([false, true]);
  });

  it('20 concurrent "find by email, insert if none" transactions make exactly one record', async () => {
    const t = (await a.tenants.ensure('match')).id;
    const email = 'ana@example.org';
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const storage = i % 2 ? a : b;
        return storage.transaction(async () => {
          const found = await storage.records.findByKey(t, 'person', 'email', email, {
            forInsert: true,
          });
          if (found.length > 0) return 'matched';
          // Give the others every chance to slip in between the look-up and the insert.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await storage.records.insert(
            person(t, `p${i}`, { keys: [{ name: 'email', value: email }] }),
          );
          return 'inserted';
        });
      }),
    );
    expect(outcomes.filter((o) => o === 'inserted')).toHaveLength(1);
    expect(await a.records.findByKey(t, 'person', 'email', email)).toHaveLength(1);
    expect(await b.records.count({ tenantId: t, kind: 'person' })).toBe(1);
  });

  it('concurrent "find by parents, insert if none" make one child per parent pair', async () => {
    const t = (await a.tenants.ensure('parents')).id;
    await a.records.insertMany([person(t, 'ana'), { ...person(t, 'pet'), kind: 'petition' }]);
    const parents = [
      { kind: 'person', id: 'ana' },
      { kind: 'petition', id: 'pet' },
    ];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const storage = i % 2 ? a : b;
        return storage.transaction(async () => {
          const found = await storage.records.findByParents(t, 'signature', parents, {
            forInsert: true,
          });
          if (found.length > 0) return;
          await new Promise((resolve) => setTimeout(resolve, 5));
          await storage.records.insert({ ...person(t, `s${i}`, { parents }), kind: 'signature' });
        });
      }),
    );
    expect(await b.records.findByParents(t, 'signature', [...parents].reverse())).toHaveLength(1);
  });

  it('concurrent "get, then update" transactions lose no update', async () => {
    const t = (await a.tenants.ensure('counter')).id;
    await a.records.insert(person(t, 'c'));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const storage = i % 2 ? a : b;
        return storage.transaction(async () => {
          const record = await storage.records.get(t, 'person', 'c', { forUpdate: true });
          const n = Number(record?.doc.n ?? 0);
          await new Promise((resolve) => setTimeout(resolve, 1));
          await storage.records.update(person(t, 'c', { doc: { n: n + 1 } }));
        });
      }),
    );
    expect((await b.records.get(t, 'person', 'c'))?.doc.n).toBe(20);
  });

  it('lets plain look-ups and shared reads of one hot key or row through while a transaction holds them', async () => {
    const t = (await a.tenants.ensure('hot')).id;
    await a.records.insert(person(t, 'hot', { keys: [{ name: 'name', value: 'volunteer' }] }));
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let taken = () => {};
    const holding = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const holder = a.transaction(async () => {
      await a.records.findByKey(t, 'person', 'name', 'volunteer');
      await a.records.get(t, 'person', 'hot');
      taken();
      await held;
    });
    await holding;
    // Another process's transaction reads the same key and row while the holder is open.
    // That it did not wait for the holder is PostgreSQL's word (no session of the
    // database waiting on a lock), not a time bound: a wait would last until release().
    const watch = watchLockWaits(db.url);
    const reads = b.transaction(async () => {
      await b.records.get(t, 'person', 'hot');
      return b.records.findByKey(t, 'person', 'name', 'volunteer');
    });
    let first: string;
    try {
      first = await Promise.race([
        reads.then(() => 'read through'),
        watch.waiting.then(() => 'waited on a lock the holder has'),
      ]);
    } finally {
      release();
      await holder;
      await watch.stop();
    }
    expect(first).toBe('read through');
    expect(await reads).toEqual(['hot']);
  });

  it('refuses an identifier taken through the other instance, even when both insert at once', async () => {
    const t = (await a.tenants.ensure('ids')).id;
    await a.records.insert(person(t, 'x1', { identifiers: ['ext:1'] }));
    await expect(b.records.insert(person(t, 'x2', { identifiers: ['ext:1'] }))).rejects.toEqual(
      new DuplicateIdentifierError('ext:1', 'person'),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).records.insert(person(t, `y${i}`, { identifiers: ['ext:2'] })),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(DuplicateIdentifierError);
    }
  });

  it('keeps tenants apart across instances', async () => {
    const t1 = await a.tenants.ensure('iso-1');
    const t2 = await b.tenants.ensure('iso-2');
    expect(await b.tenants.ensure('iso-1')).toEqual(t1);
    await a.records.insert(
      person(t1.id, 'shared-id', { identifiers: ['e:1'], keys: [{ name: 'email', value: 'x' }] }),
    );
    await b.records.insert(
      person(t2.id, 'other-id', { identifiers: ['e:1'], keys: [{ name: 'email', value: 'x' }] }),
    );
    expect(await b.records.get(t2.id, 'person', 'shared-id')).toBeUndefined();
    expect(await b.records.findByKey(t2.id, 'person', 'email', 'x')).toEqual(['other-id']);
    expect(await a.records.findByIdentifier(t1.id, 'person', 'e:1')).toBe('shared-id');
    expect(await b.records.tenantOf('person', 'shared-id')).toEqual(t1);
    expect(await a.records.count({ tenantId: t2.id, kind: 'person' })).toBe(1);
  });

  it('a unit spans awaits of anything and its writes are seen by the other instance only once it ends', async () => {
    const t = (await a.tenants.ensure('unit')).id;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted = () => {};
    const firstInserted = new Promise<void>((resolve) => (inserted = resolve));
    const unit = a.unit(async () => {
      await a.records.insert(person(t, 'u1'));
      inserted();
      await gate;
      await a.records.insert(person(t, 'u2'));
    });
    // The unit's first insert ran (and is visible to the unit's own connection only).
    await firstInserted;
    expect(await b.records.get(t, 'person', 'u1')).toBeUndefined();
    release();
    await unit;
    expect(await b.records.get(t, 'person', 'u1')).toBeDefined();
    expect(await b.records.get(t, 'person', 'u2')).toBeDefined();
  });

  it('an exhausted pool fails with StorageUnavailableError within bounded time', async () => {
    const small = await openPostgresStorage(db.url, { poolSize: 1, poolWaitMs: 200 });
    try {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let taken = () => {};
      const held = new Promise<void>((resolve) => (taken = resolve));
      const holding = small.transaction(async () => {
        await small.tenants.getSetting('x');
        taken();
        await gate;
      });
      await held;
      // Another unit of work (not inside the transaction) needs a connection of its own.
      const started = performance.now();
      const error = await small
        .unit(() => small.tenants.getSetting('y'), { detached: true })
        .catch((e: unknown) => e);
      const waited = performance.now() - started;
      expect(error).toBeInstanceOf(StorageUnavailableError);
      expect((error as StorageUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect((error as StorageUnavailableError).retryAfterSeconds).toBeLessThanOrEqual(5);
      // It waited its 200 ms first. The upper bound catches a hang (the holder is released
      // only afterwards) and a wait of the default 5000 ms instead of the one asked for;
      // below that it leaves a loaded machine seconds to spare.
      expect(waited).toBeGreaterThanOrEqual(150);
      expect(waited).toBeLessThan(5000);
      release();
      await holding;
      // Free again: the next call is served.
      expect(await small.tenants.getSetting('y')).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('an unreachable database is StorageUnavailableError', async () => {
    const url = new URL(db.url);
    url.port = '1';
    const error = await openPostgresStorage(url.toString(), { poolWaitMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StorageUnavailableError);
  });
});

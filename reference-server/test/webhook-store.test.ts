/**
 * The webhook store on every engine (test/storage-engines.ts): subscriptions, the
 * outbox, the delivery log, claims, pruning, and events that commit with the caller's
 * transaction. What one engine alone has follows: SQLite's group commit and migration,
 * PostgreSQL's migration; its behaviour with several processes is
 * test/postgres/webhooks-processes.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../src/storage/postgres/migrations.js';
import type { PostgresStorage } from '../src/storage/postgres.js';
import { MIGRATIONS, openStorage } from '../src/storage/sqlite.js';
import { CommitError, type Storage } from '../src/storage/storage.js';
import { ATTEMPTS_KEPT, type WebhookStore } from '../src/storage/webhook-store.js';
import { oldDatabase } from './old-database.js';
import { engineStorages, STORAGE_ENGINES } from './storage-engines.js';
import { storageFixture } from './storage-fixture.js';
import { append, attempt, settled, subscription } from './webhook-values.js';

describe.each(STORAGE_ENGINES)('webhook store ($name)', (engine) => {
  const { open } = engineStorages(engine);

  /** A new empty storage's webhook store, and tenants made in it, in order. */
  async function fresh(
    tenants: number,
  ): Promise<{ storage: Storage; store: WebhookStore; ids: number[] }> {
    const storage = await open();
    const ids: number[] = [];
    for (let n = 0; n < tenants; n++) ids.push((await storage.tenants.ensure(`t${n}`)).id);
    return { storage, store: storage.webhooks, ids };
  }

  describe('subscriptions', () => {
    it('starts a new subscription at the newest event and lists a tenant’s own, oldest first', async () => {
      const { store, ids } = await fresh(2);
      const [a = 0, b = 0] = ids;
      await append(store, a);
      const second = await append(store, b);
      const first = await store.addSubscription(subscription(a, 's1', { createdMs: 1 }));
      await store.addSubscription(subscription(b, 's2'));
      await store.addSubscription(subscription(a, 's3', { createdMs: 2, triggers: ['signature'] }));
      // Same created_ms: insertion order breaks the tie.
      await store.addSubscription(subscription(a, 's0', { createdMs: 2 }));
      expect(first).toEqual({
        ...subscription(a, 's1', { createdMs: 1 }),
        active: true,
        cursor: second,
      });
      expect((await store.listSubscriptions(a)).map((s) => s.id)).toEqual(['s1', 's3', 's0']);
      expect((await store.listSubscriptions()).map((s) => s.id).sort()).toEqual([
        's0',
        's1',
        's2',
        's3',
      ]);
      expect((await store.getSubscription('s3'))?.triggers).toEqual(['signature']);
      expect(await store.getSubscription('s3', b)).toBeUndefined();
      expect(await store.deleteSubscription(b, 's1')).toBe(false);
      expect(await store.deleteSubscription(a, 's1')).toBe(true);
      expect(await store.getSubscription('s1')).toBeUndefined();
    });

    it('knows which tenants have an active subscription, after every change', async () => {
      const { store, ids } = await fresh(2);
      const [a = 0, b = 0] = ids;
      expect(await store.hasSubscribers(a)).toBe(false);
      await store.addSubscription(subscription(a, 's1'));
      expect(await store.hasSubscribers(a)).toBe(true);
      expect(await store.hasSubscribers(b)).toBe(false);
      await store.recordAttempt(attempt('s1', 'gave_up', { error: 'HTTP 503' }), {
        disabledReason: 'failing for 24 hours',
      });
      expect(await store.hasSubscribers(a)).toBe(false);
      expect(await store.getSubscription('s1')).toMatchObject({
        active: false,
        disabledReason: 'failing for 24 hours',
      });
      await store.replaceFileSubscriptions([subscription(b, 'f1', { source: 'file' })]);
      expect(await store.hasSubscribers(b)).toBe(true);
      await store.replaceFileSubscriptions([]);
      expect(await store.hasSubscribers(b)).toBe(false);
      await store.addSubscription(subscription(b, 's2'));
      await store.deleteSubscription(b, 's2');
      expect(await store.hasSubscribers(b)).toBe(false);
    });

    it('replaces the file’s subscriptions, keeping the cursor and state of those kept', async () => {
      const { store, ids } = await fresh(2);
      const [a = 0, b = 0] = ids;
      await store.addSubscription(subscription(a, 'api1'));
      await store.replaceFileSubscriptions([
        subscription(a, 'f1', { source: 'file' }),
        subscription(a, 'f2', { source: 'file' }),
      ]);
      const seq = await append(store, a);
      await store.recordAttempt(attempt('f1', 'delivered', { firstSeq: seq, lastSeq: seq }), {
        advanceTo: seq,
      });
      await store.recordAttempt(attempt('f2', 'failed', { nextAttemptMs: 99 }), {});
      await append(store, a);
      const newest = await append(store, a);

      await store.replaceFileSubscriptions([
        subscription(a, 'f1', { source: 'file', secret: 'rotated', triggers: ['signup'] }),
        subscription(a, 'f3', { source: 'file' }),
      ]);
      expect((await store.listSubscriptions(a)).map((s) => s.id)).toEqual(['api1', 'f1', 'f3']);
      expect(await store.getSubscription('f1')).toMatchObject({
        cursor: seq,
        secret: 'rotated',
        triggers: ['signup'],
      });
      expect((await store.getSubscription('f3'))?.cursor).toBe(newest);
      expect(await store.listAttempts('f1', 10)).toHaveLength(1);
      // The API's subscription is not the file's to remove.
      expect((await store.getSubscription('api1'))?.active).toBe(true);

      await store.replaceFileSubscriptions([subscription(b, 'f4', { source: 'file' })]);
      expect(await store.hasSubscribers(b)).toBe(true);
      await store.replaceFileSubscriptions([]);
      expect(await store.hasSubscribers(b)).toBe(false);
      expect((await store.listSubscriptions()).map((s) => s.id)).toEqual(['api1']);
    });
  });

  describe('outbox', () => {
    it('gives a subscription its tenant’s events after its cursor, oldest first, at most limit', async () => {
      const { store, ids } = await fresh(2);
      const [a = 0, b = 0] = ids;
      const first = await append(store, a, 'signature');
      await append(store, b);
      const second = await append(store, a, 'signup');
      const third = await append(store, a, 'donation');
      expect(second).toBeGreaterThan(first);
      await settled(store, a, third);
      const events = await store.eventsAfter(a, first, 10);
      expect(events.map((e) => e.seq)).toEqual([second, third]);
      expect(events[0]).toMatchObject({
        tenantId: a,
        type: 'signup',
        payload: { record: { kind: 'signup' } },
      });
      expect(events[0]?.idempotencyKey).toMatch(/^key-/);
      expect(typeof events[0]?.createdMs).toBe('number');
      expect((await store.eventsAfter(a, 0, 1)).map((e) => e.seq)).toEqual([first]);
      expect(await store.eventsAfter(a, third, 10)).toEqual([]);
    });

    it('gives the payload back as written, key order included', async () => {
      const { store, ids } = await fresh(1);
      const [a = 0] = ids;
      const payload = { z: 1, a: { y: 'x', b: [3, 1.5, null] }, m: 'ü' };
      const seq = await store.appendEvent({
        tenantId: a,
        type: 'signature',
        idempotencyKey: 'k-order',
        payload,
        createdMs: 5,
      });
      await settled(store, a, seq);
      const [event] = await store.eventsAfter(a, 0, 10);
      expect(JSON.stringify(event?.payload)).toBe(JSON.stringify(payload));
      expect(event).toEqual({
        seq,
        tenantId: a,
        type: 'signature',
        idempotencyKey: 'k-order',
        payload,
        createdMs: 5,
      });
    });

    it('moves a cursor forward only: delivered, skipped, never back', async () => {
      const { store, ids } = await fresh(1);
      const [a = 0] = ids;
      await store.addSubscription(subscription(a, 's1'));
      const one = await append(store, a);
      const two = await append(store, a);
      await store.skipTo('s1', two);
      expect((await store.getSubscription('s1'))?.cursor).toBe(two);
      await store.skipTo('s1', one);
      expect((await store.getSubscription('s1'))?.cursor).toBe(two);
      await store.recordAttempt(attempt('s1', 'delivered'), { advanceTo: one });
      expect((await store.getSubscription('s1'))?.cursor).toBe(two);
    });

    it('keeps the failure state until a delivery clears it; retryNow forgets the backoff', async () => {
      const { store, ids } = await fresh(1);
      const [a = 0] = ids;
      await store.addSubscription(subscription(a, 's1'));
      const seq = await append(store, a);
      const failed = await store.recordAttempt(
        attempt('s1', 'failed', { atMs: 1000, nextAttemptMs: 2000, error: 'connection refused' }),
        {},
      );
      await store.recordAttempt(
        attempt('s1', 'failed', { atMs: 2000, nextAttemptMs: 4000, attempt: 2 }),
        {},
      );
      expect(await store.getSubscription('s1')).toMatchObject({
        failingSinceMs: 1000,
        nextAttemptMs: 4000,
      });
      await store.retryNow('s1');
      const due = await store.getSubscription('s1');
      expect(due?.nextAttemptMs).toBeUndefined();
      expect(due?.failingSinceMs).toBe(1000);
      await store.recordAttempt(
        attempt('s1', 'delivered', { atMs: 4000, attempt: 3, status: 200, durationMs: 12.5 }),
        { advanceTo: seq },
      );
      const after = await store.getSubscription('s1');
      expect(after?.cursor).toBe(seq);
      expect(after?.failingSinceMs).toBeUndefined();
      expect(after?.nextAttemptMs).toBeUndefined();
      const log = await store.listAttempts('s1', 10);
      expect(log.map((entry) => entry.attempt)).toEqual([3, 2, 1]);
      expect(log[2]).toEqual(failed);
      expect(log[0]).toMatchObject({ outcome: 'delivered', status: 200, durationMs: 12.5 });
    });

    it('keeps only the newest attempts of each subscription', async () => {
      const { store, ids } = await fresh(1);
      const [a = 0] = ids;
      await store.addSubscription(subscription(a, 's1'));
      await store.addSubscription(subscription(a, 's2'));
      await store.recordAttempt(attempt('s2', 'failed', { attempt: 1 }), {});
      for (let n = 1; n <= ATTEMPTS_KEPT + 20; n++) {
        await store.recordAttempt(attempt('s1', 'failed', { attempt: n }), {});
      }
      const log = await store.listAttempts('s1', 1000);
      expect(log).toHaveLength(ATTEMPTS_KEPT);
      expect(log[0]?.attempt).toBe(ATTEMPTS_KEPT + 20);
      expect(log.at(-1)?.attempt).toBe(21);
      expect(await store.listAttempts('s2', 10)).toHaveLength(1);
      await store.deleteSubscription(a, 's1');
      expect(await store.listAttempts('s1', 10)).toEqual([]);
    });

    it('records nothing for a subscription deleted while its attempt ran', async () => {
      const { store, ids } = await fresh(1);
      const [a = 0] = ids;
      await store.addSubscription(subscription(a, 'gone'));
      await store.deleteSubscription(a, 'gone');
      expect(await store.recordAttempt(attempt('gone', 'delivered'), { advanceTo: 5 })).toBe(
        undefined,
      );
      expect(await store.listAttempts('gone', 10)).toEqual([]);
    });

    it('prunes the events every active subscription of their tenant has passed', async () => {
      const { store, ids } = await fresh(3);
      const [a = 0, b = 0, c = 0] = ids;
      await store.addSubscription(subscription(a, 'fast'));
      await store.addSubscription(subscription(a, 'slow'));
      await store.addSubscription(subscription(b, 'off'));
      const a1 = await append(store, a);
      const a2 = await append(store, a);
      await append(store, b);
      await append(store, c);
      await store.skipTo('fast', a2);
      await store.skipTo('slow', a1);
      await store.recordAttempt(attempt('off', 'gave_up'), { disabledReason: 'gone' });
      // a1 (both passed), b's (switched off holds nothing), c's (no subscription).
      expect(await store.pruneEvents()).toBe(3);
      await settled(store, a, a2);
      expect((await store.eventsAfter(a, 0, 10)).map((e) => e.seq)).toEqual([a2]);
      expect(await store.eventsAfter(b, 0, 10)).toEqual([]);
      expect(await store.pruneEvents()).toBe(0);
      // Seqs are never reused after a prune: cursors stay valid.
      expect(await append(store, a)).toBeGreaterThan(a2);
    });
  });

  describe('delivery claims', () => {
    it('lets one owner at a time claim a subscription, until it releases or its claim expires', async () => {
      const { store, ids } = await fresh(1);
      const [a = 0] = ids;
      await store.addSubscription(subscription(a, 's1'));
      await store.addSubscription(subscription(a, 's2'));
      expect(await store.claimSubscription('s1', 'worker-a', 1000, 2000)).toBe(true);
      expect(await store.claimSubscription('s1', 'worker-b', 1500, 2500)).toBe(false);
      // Renewed by its owner; another subscription is free.
      expect(await store.claimSubscription('s1', 'worker-a', 1900, 3000)).toBe(true);
      expect(await store.claimSubscription('s2', 'worker-b', 1900, 3000)).toBe(true);
      expect(await store.claimSubscription('s1', 'worker-b', 2999, 4000)).toBe(false);
      // Expired: anyone may take it.
      expect(await store.claimSubscription('s1', 'worker-b', 3000, 4000)).toBe(true);
      // Only its owner releases a claim.
      await store.releaseSubscription('s1', 'worker-a');
      expect(await store.claimSubscription('s1', 'worker-a', 3100, 4100)).toBe(false);
      await store.releaseSubscription('s1', 'worker-b');
      expect(await store.claimSubscription('s1', 'worker-a', 3100, 4100)).toBe(true);
    });
  });

  describe('transactions', () => {
    it('appends an event inside the caller’s transaction: a rollback takes it, a commit keeps it', async () => {
      const { storage, store, ids } = await fresh(1);
      const [a = 0] = ids;
      const before = store.appendedCount;
      await expect(
        storage.transaction(async () => {
          await append(store, a);
          throw new Error('the write failed');
        }),
      ).rejects.toThrow('the write failed');
      // Inside a unit PostgreSQL holds it until the commit: its seq is read back after.
      await storage.unit(() => append(store, a, 'signature', 'kept'));
      // Rolled back ones count too: a request compares the count before and after.
      expect(store.appendedCount).toBe(before + 2);
      await expect
        .poll(async () => (await store.eventsAfter(a, 0, 10)).map((e) => e.idempotencyKey), {
          timeout: 30_000,
          interval: 20,
        })
        .toEqual(['kept']);
    });

    it('calls this process’s watchers at each announce', async () => {
      const { store } = await fresh(0);
      let calls = 0;
      const stop = store.watchCommitted(() => calls++);
      store.announceCommitted();
      stop();
      store.announceCommitted();
      expect(calls).toBe(1);
    });
  });
});

describe('webhook store (SQLite alone)', () => {
  const { opened, dirs } = storageFixture();

  it('forgets a subscription added in a group-commit batch whose commit failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adis-webhooks-'));
    dirs.push(dir);
    const storage = openStorage(join(dir, 'sqlite'), { groupCommit: true });
    opened.push(storage);
    const a = (await storage.tenants.ensure('a')).id;
    await storage.durable();
    const mark = storage.commitMark();
    await storage.webhooks.addSubscription(subscription(a, 's1'));
    expect(await storage.webhooks.hasSubscribers(a)).toBe(true);
    // A commit that fails: SQLite's own rollback, as on an I/O error.
    storage.database.prepare('ROLLBACK').run();
    await expect(storage.durable(mark)).rejects.toBeInstanceOf(CommitError);
    expect(await storage.webhooks.hasSubscribers(a)).toBe(false);
    expect(await storage.webhooks.getSubscription('s1')).toBeUndefined();
  });

  it('migration 6 upgrades a database of the previous version, keeping its records', async () => {
    const path = oldDatabase(MIGRATIONS.length - 1, '2024-01-01T00:00:00.000Z', dirs);

    const storage = openStorage(path);
    opened.push(storage);
    expect(storage.created).toBe(false);
    expect(storage.database.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect((await storage.records.get(1, 'petition', 'p1'))?.doc).toEqual({ title: 'Old' });
    expect(await storage.webhooks.hasSubscribers(1)).toBe(false);
    await storage.webhooks.addSubscription(subscription(1, 's1'));
    const seq = await append(storage.webhooks, 1);
    expect((await storage.webhooks.eventsAfter(1, 0, 10)).map((e) => e.seq)).toEqual([seq]);
  });
});

describe('webhook store (PostgreSQL alone)', () => {
  const postgres = STORAGE_ENGINES.find((engine) => engine.name === 'postgres');
  if (!postgres) throw new Error('STORAGE_ENGINES lists no PostgreSQL engine');
  const { open } = engineStorages(postgres);

  it('its migration is one step of the list, run once', async () => {
    const { connection } = (await open()) as PostgresStorage;
    const { rows } = await connection.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    const { rows: tables } = await connection.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables
       WHERE schemaname = current_schema() AND tablename LIKE 'webhook_%' ORDER BY 1`,
    );
    expect(tables.map((t) => t.name)).toEqual([
      'webhook_attempts',
      'webhook_events',
      'webhook_subscriptions',
    ]);
  });
});

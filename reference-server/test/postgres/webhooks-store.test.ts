/**
 * The PostgreSQL webhook store answers as SQLite's does (test/webhook-store.test.ts):
 * subscriptions, the outbox, the delivery log, pruning, and events that commit with
 * the caller's transaction. Its behaviour with several processes: webhooks-processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../../src/storage/postgres/migrations.js';
import { ATTEMPTS_KEPT } from '../../src/storage/postgres/webhooks.js';
import {
  append,
  attempt,
  settled,
  subscription,
  type WebhookDatabase,
  webhookDatabase,
} from './webhooks-fixture.js';

let db: WebhookDatabase;
beforeAll(async () => {
  db = await webhookDatabase('webhooks_store');
});
afterAll(() => db?.drop());

describe('subscriptions', () => {
  it('starts a new subscription at the newest event and lists a tenant’s own, oldest first', async () => {
    const store = db.store();
    const a = await db.tenant();
    const b = await db.tenant();
    await append(store, a);
    const second = await append(store, b);
    const first = await store.addSubscription(subscription(a, 'list-1', { createdMs: 1 }));
    await store.addSubscription(subscription(b, 'list-2'));
    await store.addSubscription(
      subscription(a, 'list-3', { createdMs: 2, triggers: ['signature'] }),
    );
    // Same created_ms: insertion order breaks the tie.
    await store.addSubscription(subscription(a, 'list-0', { createdMs: 2 }));
    expect(first).toEqual({
      ...subscription(a, 'list-1', { createdMs: 1 }),
      active: true,
      cursor: second,
    });
    expect((await store.listSubscriptions(a)).map((s) => s.id)).toEqual([
      'list-1',
      'list-3',
      'list-0',
    ]);
    const all = (await store.listSubscriptions()).map((s) => s.id);
    expect(all).toEqual(expect.arrayContaining(['list-1', 'list-2', 'list-3', 'list-0']));
    expect((await store.getSubscription('list-3'))?.triggers).toEqual(['signature']);
    expect(await store.getSubscription('list-3', b)).toBeUndefined();
    expect(await store.deleteSubscription(b, 'list-1')).toBe(false);
    expect(await store.deleteSubscription(a, 'list-1')).toBe(true);
    expect(await store.getSubscription('list-1')).toBeUndefined();
  });

  it('knows which tenants have an active subscription, after every change', async () => {
    const store = db.store();
    const a = await db.tenant();
    const b = await db.tenant();
    expect(await store.hasSubscribers(a)).toBe(false);
    await store.addSubscription(subscription(a, 'has-1'));
    expect(await store.hasSubscribers(a)).toBe(true);
    expect(await store.hasSubscribers(b)).toBe(false);
    await store.recordAttempt(attempt('has-1', 'gave_up', { error: 'HTTP 503' }), {
      disabledReason: 'failing for 24 hours',
    });
    expect(await store.hasSubscribers(a)).toBe(false);
    expect(await store.getSubscription('has-1')).toMatchObject({
      active: false,
      disabledReason: 'failing for 24 hours',
    });
    await store.addSubscription(subscription(b, 'has-2'));
    await store.deleteSubscription(b, 'has-2');
    expect(await store.hasSubscribers(b)).toBe(false);
  });

  it('replaces the file’s subscriptions, keeping the cursor and state of those kept', async () => {
    // Its own database: the file's subscriptions are every tenant's.
    const own = await webhookDatabase('webhooks_file');
    try {
      const store = own.store();
      const a = await own.tenant();
      const b = await own.tenant();
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
    } finally {
      await own.drop();
    }
  });
});

describe('outbox', () => {
  it('gives a subscription its tenant’s events after its cursor, oldest first, at most limit', async () => {
    const store = db.store();
    const a = await db.tenant();
    const b = await db.tenant();
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
    const store = db.store();
    const a = await db.tenant();
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
    const store = db.store();
    const a = await db.tenant();
    await store.addSubscription(subscription(a, 'fwd'));
    const one = await append(store, a);
    const two = await append(store, a);
    await store.skipTo('fwd', two);
    expect((await store.getSubscription('fwd'))?.cursor).toBe(two);
    await store.skipTo('fwd', one);
    expect((await store.getSubscription('fwd'))?.cursor).toBe(two);
    await store.recordAttempt(attempt('fwd', 'delivered'), { advanceTo: one });
    expect((await store.getSubscription('fwd'))?.cursor).toBe(two);
  });

  it('keeps the failure state until a delivery clears it; retryNow forgets the backoff', async () => {
    const store = db.store();
    const a = await db.tenant();
    await store.addSubscription(subscription(a, 'fail'));
    const seq = await append(store, a);
    const failed = await store.recordAttempt(
      attempt('fail', 'failed', { atMs: 1000, nextAttemptMs: 2000, error: 'connection refused' }),
      {},
    );
    await store.recordAttempt(
      attempt('fail', 'failed', { atMs: 2000, nextAttemptMs: 4000, attempt: 2 }),
      {},
    );
    expect(await store.getSubscription('fail')).toMatchObject({
      failingSinceMs: 1000,
      nextAttemptMs: 4000,
    });
    await store.retryNow('fail');
    const due = await store.getSubscription('fail');
    expect(due?.nextAttemptMs).toBeUndefined();
    expect(due?.failingSinceMs).toBe(1000);
    await store.recordAttempt(
      attempt('fail', 'delivered', { atMs: 4000, attempt: 3, status: 200, durationMs: 12.5 }),
      { advanceTo: seq },
    );
    const after = await store.getSubscription('fail');
    expect(after?.cursor).toBe(seq);
    expect(after?.failingSinceMs).toBeUndefined();
    expect(after?.nextAttemptMs).toBeUndefined();
    const log = await store.listAttempts('fail', 10);
    expect(log.map((entry) => entry.attempt)).toEqual([3, 2, 1]);
    expect(log[2]).toEqual(failed);
    expect(log[0]).toMatchObject({ outcome: 'delivered', status: 200, durationMs: 12.5 });
  });

  it('keeps only the newest attempts of each subscription', async () => {
    const store = db.store();
    const a = await db.tenant();
    await store.addSubscription(subscription(a, 'log-1'));
    await store.addSubscription(subscription(a, 'log-2'));
    await store.recordAttempt(attempt('log-2', 'failed', { attempt: 1 }), {});
    for (let n = 1; n <= ATTEMPTS_KEPT + 20; n++) {
      await store.recordAttempt(attempt('log-1', 'failed', { attempt: n }), {});
    }
    const log = await store.listAttempts('log-1', 1000);
    expect(log).toHaveLength(ATTEMPTS_KEPT);
    expect(log[0]?.attempt).toBe(ATTEMPTS_KEPT + 20);
    expect(log.at(-1)?.attempt).toBe(21);
    expect(await store.listAttempts('log-2', 10)).toHaveLength(1);
    await store.deleteSubscription(a, 'log-1');
    expect(await store.listAttempts('log-1', 10)).toEqual([]);
  });

  it('records nothing for a subscription deleted while its attempt ran', async () => {
    const store = db.store();
    const a = await db.tenant();
    await store.addSubscription(subscription(a, 'gone'));
    await store.deleteSubscription(a, 'gone');
    expect(await store.recordAttempt(attempt('gone', 'delivered'), { advanceTo: 5 })).toBe(
      undefined,
    );
    expect(await store.listAttempts('gone', 10)).toEqual([]);
  });

  it('prunes the events every active subscription of their tenant has passed', async () => {
    // Its own database: pruning is every tenant's.
    const own = await webhookDatabase('webhooks_prune');
    try {
      const store = own.store();
      const a = await own.tenant();
      const b = await own.tenant();
      const c = await own.tenant();
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
    } finally {
      await own.drop();
    }
  });
});

describe('transactions', () => {
  it('appends an event inside the caller’s transaction: a rollback takes it, a commit keeps it', async () => {
    const store = db.store();
    const connection = db.connectionOf(store);
    const a = await db.tenant();
    const before = store.appendedCount;
    await expect(
      connection.transaction(async () => {
        await append(store, a);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    const kept = await connection.unit(() => append(store, a));
    // Rolled back ones count too: a request compares the count before and after.
    expect(store.appendedCount).toBe(before + 2);
    await settled(store, a, kept);
    expect((await store.eventsAfter(a, 0, 10)).map((e) => e.seq)).toEqual([kept]);
  });

  it('calls this process’s watchers at each announce', async () => {
    const store = db.store();
    let calls = 0;
    const stop = store.watchCommitted(() => calls++);
    store.announceCommitted();
    stop();
    store.announceCommitted();
    expect(calls).toBe(1);
  });
});

describe('migration', () => {
  it('is one step of the list, run once', async () => {
    const connection = db.connect();
    const { rows } = await connection.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    const { rows: tables } = await connection.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'webhook_%' ORDER BY 1`,
    );
    expect(tables.map((t) => t.name)).toEqual([
      'webhook_attempts',
      'webhook_events',
      'webhook_subscriptions',
    ]);
  });
});

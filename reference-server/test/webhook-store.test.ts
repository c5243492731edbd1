import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTEMPTS_KEPT } from '../src/storage/sqlite/webhooks.js';
import { MIGRATIONS, openStorage } from '../src/storage/sqlite.js';
import { CommitError } from '../src/storage/storage.js';
import type {
  DeliveryAttempt,
  NewWebhookSubscription,
  WebhookStore,
} from '../src/storage/webhook-store.js';
import { oldDatabase } from './old-database.js';
import { storageFixture } from './storage-fixture.js';

const { memory, opened, dirs } = storageFixture();

function subscription(
  tenantId: number,
  id: string,
  extra: Partial<NewWebhookSubscription> = {},
): NewWebhookSubscription {
  return {
    id,
    tenantId,
    url: `https://example.org/${id}`,
    secret: `secret-${id}`,
    triggers: ['*'],
    source: 'api',
    createdMs: 1_700_000_000_000,
    ...extra,
  };
}

let keys = 0;
function append(store: WebhookStore, tenantId: number, type = 'signature'): number {
  keys++;
  return store.appendEvent({
    tenantId,
    type,
    idempotencyKey: `key-${keys}`,
    payload: { record: { kind: type, id: `r${keys}`, doc: { n: keys } } },
    createdMs: 1_700_000_000_000 + keys,
  });
}

function attempt(
  subscriptionId: string,
  outcome: DeliveryAttempt['outcome'],
  extra: Partial<DeliveryAttempt> = {},
): Omit<DeliveryAttempt, 'id'> {
  return {
    subscriptionId,
    firstSeq: 1,
    lastSeq: 1,
    eventCount: 1,
    attempt: 1,
    atMs: 1_700_000_000_000,
    outcome,
    durationMs: 5,
    ...extra,
  };
}

describe('subscriptions', () => {
  it('starts a new subscription at the newest event and lists a tenant’s own, oldest first', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const b = storage.ensureTenant('b').id;
    const store = storage.webhooks;
    append(store, a);
    const second = append(store, b);
    const first = store.addSubscription(subscription(a, 's1', { createdMs: 1 }));
    store.addSubscription(subscription(b, 's2'));
    store.addSubscription(subscription(a, 's3', { createdMs: 2, triggers: ['signature'] }));
    expect(first).toEqual({
      ...subscription(a, 's1', { createdMs: 1 }),
      active: true,
      cursor: second,
    });
    expect(store.listSubscriptions(a).map((s) => s.id)).toEqual(['s1', 's3']);
    expect(store.listSubscriptions().map((s) => s.id)).toHaveLength(3);
    expect(store.getSubscription('s3')?.triggers).toEqual(['signature']);
    expect(store.getSubscription('s3', b)).toBeUndefined();
    expect(store.deleteSubscription(b, 's1')).toBe(false);
    expect(store.deleteSubscription(a, 's1')).toBe(true);
    expect(store.getSubscription('s1')).toBeUndefined();
  });

  it('knows which tenants have an active subscription, after every change', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const b = storage.ensureTenant('b').id;
    const store = storage.webhooks;
    expect(store.hasSubscribers(a)).toBe(false);
    store.addSubscription(subscription(a, 's1'));
    expect(store.hasSubscribers(a)).toBe(true);
    expect(store.hasSubscribers(b)).toBe(false);
    store.recordAttempt(attempt('s1', 'gave_up', { error: 'HTTP 503' }), {
      disabledReason: 'failing for 24 hours',
    });
    expect(store.hasSubscribers(a)).toBe(false);
    expect(store.getSubscription('s1')).toMatchObject({
      active: false,
      disabledReason: 'failing for 24 hours',
    });
    store.replaceFileSubscriptions([subscription(b, 'f1', { source: 'file' })]);
    expect(store.hasSubscribers(b)).toBe(true);
    store.replaceFileSubscriptions([]);
    expect(store.hasSubscribers(b)).toBe(false);
    store.addSubscription(subscription(b, 's2'));
    store.deleteSubscription(b, 's2');
    expect(store.hasSubscribers(b)).toBe(false);
  });

  it('replaces the file’s subscriptions, keeping the cursor and state of those kept', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const store = storage.webhooks;
    store.addSubscription(subscription(a, 'api1'));
    store.replaceFileSubscriptions([
      subscription(a, 'f1', { source: 'file' }),
      subscription(a, 'f2', { source: 'file' }),
    ]);
    const seq = append(store, a);
    store.recordAttempt(attempt('f1', 'delivered', { firstSeq: seq, lastSeq: seq }), {
      advanceTo: seq,
    });
    store.recordAttempt(attempt('f2', 'failed', { nextAttemptMs: 99 }), {});
    append(store, a);
    const newest = append(store, a);

    store.replaceFileSubscriptions([
      subscription(a, 'f1', { source: 'file', secret: 'rotated', triggers: ['signup'] }),
      subscription(a, 'f3', { source: 'file' }),
    ]);
    expect(store.listSubscriptions(a).map((s) => s.id)).toEqual(['api1', 'f1', 'f3']);
    expect(store.getSubscription('f1')).toMatchObject({
      cursor: seq,
      secret: 'rotated',
      triggers: ['signup'],
    });
    expect(store.getSubscription('f3')?.cursor).toBe(newest);
    expect(store.listAttempts('f1', 10)).toHaveLength(1);
    // The API's subscription is not the file's to remove.
    expect(store.getSubscription('api1')?.active).toBe(true);
  });
});

describe('outbox', () => {
  it('gives a subscription its tenant’s events after its cursor, oldest first, at most limit', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const b = storage.ensureTenant('b').id;
    const store = storage.webhooks;
    const first = append(store, a, 'signature');
    append(store, b);
    const second = append(store, a, 'signup');
    const third = append(store, a, 'donation');
    expect(second).toBeGreaterThan(first);
    const events = store.eventsAfter(a, first, 10);
    expect(events.map((e) => e.seq)).toEqual([second, third]);
    expect(events[0]).toMatchObject({
      tenantId: a,
      type: 'signup',
      payload: { record: { kind: 'signup' } },
    });
    expect(events[0]?.idempotencyKey).toMatch(/^key-/);
    expect(store.eventsAfter(a, 0, 1).map((e) => e.seq)).toEqual([first]);
    expect(store.eventsAfter(a, third, 10)).toEqual([]);
  });

  it('moves a cursor forward only: delivered, skipped, never back', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const store = storage.webhooks;
    store.addSubscription(subscription(a, 's1'));
    const one = append(store, a);
    const two = append(store, a);
    store.skipTo('s1', two);
    expect(store.getSubscription('s1')?.cursor).toBe(two);
    store.skipTo('s1', one);
    expect(store.getSubscription('s1')?.cursor).toBe(two);
    store.recordAttempt(attempt('s1', 'delivered'), { advanceTo: one });
    expect(store.getSubscription('s1')?.cursor).toBe(two);
  });

  it('keeps the failure state until a delivery clears it', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const store = storage.webhooks;
    store.addSubscription(subscription(a, 's1'));
    const seq = append(store, a);
    const failed = store.recordAttempt(
      attempt('s1', 'failed', { atMs: 1000, nextAttemptMs: 2000, error: 'connection refused' }),
      {},
    );
    store.recordAttempt(
      attempt('s1', 'failed', { atMs: 2000, nextAttemptMs: 4000, attempt: 2 }),
      {},
    );
    expect(store.getSubscription('s1')).toMatchObject({
      failingSinceMs: 1000,
      nextAttemptMs: 4000,
    });
    store.recordAttempt(attempt('s1', 'delivered', { atMs: 4000, attempt: 3, status: 200 }), {
      advanceTo: seq,
    });
    const after = store.getSubscription('s1');
    expect(after?.cursor).toBe(seq);
    expect(after?.failingSinceMs).toBeUndefined();
    expect(after?.nextAttemptMs).toBeUndefined();
    const log = store.listAttempts('s1', 10);
    expect(log.map((entry) => entry.attempt)).toEqual([3, 2, 1]);
    expect(log[2]).toEqual(failed);
    expect(log[0]).toMatchObject({ outcome: 'delivered', status: 200 });
  });

  it('keeps only the newest attempts of each subscription', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const store = storage.webhooks;
    store.addSubscription(subscription(a, 's1'));
    store.addSubscription(subscription(a, 's2'));
    store.recordAttempt(attempt('s2', 'failed', { attempt: 1 }), {});
    for (let n = 1; n <= ATTEMPTS_KEPT + 20; n++) {
      store.recordAttempt(attempt('s1', 'failed', { attempt: n }), {});
    }
    const log = store.listAttempts('s1', 1000);
    expect(log).toHaveLength(ATTEMPTS_KEPT);
    expect(log[0]?.attempt).toBe(ATTEMPTS_KEPT + 20);
    expect(log.at(-1)?.attempt).toBe(21);
    expect(store.listAttempts('s2', 10)).toHaveLength(1);
    store.deleteSubscription(a, 's1');
    expect(store.listAttempts('s1', 10)).toEqual([]);
  });

  it('prunes the events every active subscription of their tenant has passed', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const b = storage.ensureTenant('b').id;
    const c = storage.ensureTenant('c').id;
    const store = storage.webhooks;
    store.addSubscription(subscription(a, 'fast'));
    store.addSubscription(subscription(a, 'slow'));
    store.addSubscription(subscription(b, 'off'));
    const a1 = append(store, a);
    const a2 = append(store, a);
    append(store, b);
    append(store, c);
    store.skipTo('fast', a2);
    store.skipTo('slow', a1);
    store.recordAttempt(attempt('off', 'gave_up'), { disabledReason: 'gone' });
    // a1 (both passed), b's (switched off holds nothing), c's (no subscription).
    expect(store.pruneEvents()).toBe(3);
    expect(store.eventsAfter(a, 0, 10).map((e) => e.seq)).toEqual([a2]);
    expect(store.eventsAfter(b, 0, 10)).toEqual([]);
    expect(store.pruneEvents()).toBe(0);
    // Seqs are never reused after a prune: cursors stay valid.
    expect(append(store, a)).toBeGreaterThan(a2);
  });
});

describe('transactions', () => {
  it('appends an event inside the caller’s transaction: a rollback takes it too', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    expect(() =>
      storage.transaction(() => {
        append(storage.webhooks, a);
        throw new Error('the write failed');
      }),
    ).toThrow('the write failed');
    expect(storage.webhooks.eventsAfter(a, 0, 10)).toEqual([]);
  });

  it('forgets a subscription added in a group-commit batch whose commit failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adis-webhooks-'));
    dirs.push(dir);
    const storage = openStorage(join(dir, 'db.sqlite'), { groupCommit: true });
    opened.push(storage);
    const a = storage.ensureTenant('a').id;
    await storage.durable();
    const mark = storage.commitMark();
    storage.webhooks.addSubscription(subscription(a, 's1'));
    expect(storage.webhooks.hasSubscribers(a)).toBe(true);
    // A commit that fails: SQLite's own rollback, as on an I/O error.
    storage.database.prepare('ROLLBACK').run();
    await expect(storage.durable(mark)).rejects.toBeInstanceOf(CommitError);
    expect(storage.webhooks.hasSubscribers(a)).toBe(false);
    expect(storage.webhooks.getSubscription('s1')).toBeUndefined();
  });
});

describe('migration 6', () => {
  it('upgrades a database of the previous version, keeping its records', () => {
    const path = oldDatabase(MIGRATIONS.length - 1, '2024-01-01T00:00:00.000Z', dirs);

    const storage = openStorage(path);
    opened.push(storage);
    expect(storage.created).toBe(false);
    expect(storage.database.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(storage.getRecord(1, 'petition', 'p1')?.doc).toEqual({ title: 'Old' });
    expect(storage.webhooks.hasSubscribers(1)).toBe(false);
    storage.webhooks.addSubscription(subscription(1, 's1'));
    const seq = append(storage.webhooks, 1);
    expect(storage.webhooks.eventsAfter(1, 0, 10).map((e) => e.seq)).toEqual([seq]);
  });
});

/**
 * The PostgreSQL webhook store with several server processes on one database (each a
 * pool of its own here): the outbox is read in order although transactions commit out
 * of order, one process at a time delivers a subscription, and a subscription added by
 * one process is seen by the others within the subscribers cache's lifetime.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresWebhookStore } from '../../src/storage/postgres/webhooks.js';
import { append, settled, subscription } from '../webhook-values.js';
import { freshDatabase } from './database.js';
import { type WebhookDatabase, webhookDatabase } from './webhooks-fixture.js';

let sentKeys = 0;

/**
 * Appends an event inside the caller's transaction on `store`'s connection and sends it
 * there and then (the statement reading it back makes the transaction send its held
 * writes): its seq is drawn now, while the transaction stays open, as when a request
 * writes more after its event. Resolves to the seq.
 */
async function appendSent(
  db: WebhookDatabase,
  store: PostgresWebhookStore,
  tenantId: number,
): Promise<number> {
  const key = `sent-${process.pid}-${++sentKeys}`;
  await append(store, tenantId, 'signature', key);
  const { rows } = await db
    .connectionOf(store)
    .query<{ seq: string }>('SELECT seq FROM webhook_events WHERE idempotency_key = $1', [key]);
  return Number(rows[0]?.seq);
}

/**
 * How long a poll waits for the outbox to give out what committed: a transaction of
 * another test anywhere on the cluster may hold its horizon back, for longer on a loaded
 * machine. A bound on a hang only; an event held back for good still fails the poll.
 */
const SETTLE_MS = 30_000;

let db: WebhookDatabase;
beforeAll(async () => {
  db = await webhookDatabase('webhooks_processes');
});
afterAll(() => db?.drop());

/** A promise and what resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('outbox order with concurrent writers', () => {
  it('is not held back by a writing transaction left open in another database of the cluster', async () => {
    const writer = db.store();
    const reader = db.store();
    const a = await db.tenant();
    const base = await append(writer, a);
    await settled(reader, a, base);
    // Another database's transaction takes a transaction id and stays open.
    const elsewhere = await freshDatabase('webhooks_elsewhere');
    const other = new pg.Client({ connectionString: elsewhere.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()');
      const seq = await append(writer, a);
      await expect
        .poll(async () => (await reader.eventsAfter(a, base, 10)).map((event) => event.seq), {
          timeout: SETTLE_MS,
        })
        .toEqual([seq]);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
      await elsewhere.drop();
    }
  });

  it('holds back a committed event while an open transaction holds a lower seq', async () => {
    const first = db.store();
    const second = db.store();
    const reader = db.store();
    const a = await db.tenant();
    const base = await append(first, a);
    await settled(reader, a, base);

    // The second writer takes its transaction id first, so the event it commits is
    // from a transaction older than the open one: a filter on the event's own
    // transaction id alone would let it through, and lose the lower seq.
    const secondReady = gate();
    const secondGo = gate();
    const secondDone = db.connectionOf(second).transaction(async () => {
      await db.connectionOf(second).query('SELECT pg_current_xact_id()');
      secondReady.open();
      await secondGo.promise;
      return appendSent(db, second, a);
    });
    await secondReady.promise;

    const held = gate();
    const firstAppended = gate();
    let low = 0;
    const firstDone = db.connectionOf(first).transaction(async () => {
      low = await appendSent(db, first, a);
      firstAppended.open();
      await held.promise;
    });
    await firstAppended.promise;
    secondGo.open();
    const high = await secondDone;
    try {
      expect(high).toBeGreaterThan(low);
      // Committed and visible, yet not given out: the lower seq may still commit.
      const { rows } = await db
        .connect()
        .query<{ n: string }>('SELECT count(*) AS n FROM webhook_events WHERE seq = $1', [high]);
      expect(rows[0]?.n).toBe('1');
      for (let read = 0; read < 3; read++) {
        expect(await reader.eventsAfter(a, base, 10)).toEqual([]);
        expect(await first.eventsAfter(a, base, 10)).toEqual([]);
      }
    } finally {
      held.open();
      await firstDone;
    }
    await expect
      .poll(async () => (await reader.eventsAfter(a, base, 10)).map((event) => event.seq), {
        timeout: SETTLE_MS,
        interval: 20,
      })
      .toEqual([low, high]);
  });

  it('gives a reader every committed event once, in order, whatever the writers interleave', async () => {
    const writers = [db.store(), db.store(), db.store()];
    const reader = db.store();
    const a = await db.tenant();
    const committed: number[] = [];
    let writing = true;
    // Random but repeatable: each writer's choices follow its own counter.
    const choice = (writer: number, step: number, of: number): number =>
      (writer * 7 + step * 13 + ((writer + 1) * step) ** 2) % of;
    const write = async (store: (typeof writers)[number], writer: number): Promise<void> => {
      const connection = db.connectionOf(store);
      for (let step = 0; step < 12; step++) {
        const seqs: number[] = [];
        const outcome = connection.transaction(async () => {
          // Some take their transaction id early, as a write before the event does.
          if (choice(writer, step, 2) === 0) await connection.query('SELECT pg_current_xact_id()');
          await new Promise((resolve) => setTimeout(resolve, choice(writer, step, 4)));
          for (let n = 0; n <= choice(writer, step, 2); n++) {
            seqs.push(await appendSent(db, store, a));
          }
          await new Promise((resolve) => setTimeout(resolve, choice(writer, step, 5)));
          if (choice(writer, step, 5) === 1) throw new Error('rolled back');
        });
        await outcome.then(
          () => committed.push(...seqs),
          () => undefined,
        );
      }
    };
    const read: number[] = [];
    let cursor = 0;
    const readAll = async (): Promise<void> => {
      for (const event of await reader.eventsAfter(a, cursor, 4)) {
        expect(event.seq).toBeGreaterThan(cursor);
        read.push(event.seq);
        cursor = event.seq;
      }
    };
    const reading = (async () => {
      while (writing) await readAll();
    })();
    await Promise.all(writers.map(write));
    writing = false;
    await reading;
    await expect
      .poll(
        async () => {
          await readAll();
          return read;
        },
        { timeout: SETTLE_MS, interval: 20 },
      )
      .toEqual([...committed].sort((x, y) => x - y));
    expect(committed.length).toBeGreaterThan(20);
  });

  it('gives out the events before a gap left by a rolled back append', async () => {
    const store = db.store();
    const a = await db.tenant();
    const kept = await append(store, a);
    await expect(
      db.connectionOf(store).transaction(async () => {
        await append(store, a);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const after = await append(store, a);
    await settled(store, a, after);
    expect((await store.eventsAfter(a, 0, 10)).map((event) => event.seq)).toEqual([kept, after]);
  });

  it('counts appends per process', async () => {
    const one = db.store();
    const two = db.store();
    const a = await db.tenant();
    await append(one, a);
    await append(one, a);
    expect([one.appendedCount, two.appendedCount]).toEqual([2, 0]);
  });
});

describe('delivery claims', () => {
  it('lets exactly one of two processes claiming at once deliver a subscription', async () => {
    const one = db.store();
    const two = db.store();
    const a = await db.tenant();
    for (let n = 0; n < 8; n++) {
      await one.addSubscription(subscription(a, `race-${n}`));
    }
    for (let n = 0; n < 8; n++) {
      const won = await Promise.all([
        one.claimSubscription(`race-${n}`, 'process-1', 1_000, 31_000),
        two.claimSubscription(`race-${n}`, 'process-2', 1_000, 31_000),
      ]);
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });

  it('gives a claim to another once it expires or is released; the owner renews its own', async () => {
    const one = db.store();
    const two = db.store();
    const a = await db.tenant();
    await one.addSubscription(subscription(a, 'lease'));
    expect(await one.claimSubscription('lease', 'process-1', 1_000, 31_000)).toBe(true);
    expect(await two.claimSubscription('lease', 'process-2', 30_999, 60_999)).toBe(false);
    // The owner renews while it delivers.
    expect(await one.claimSubscription('lease', 'process-1', 30_000, 60_000)).toBe(true);
    expect(await two.claimSubscription('lease', 'process-2', 59_999, 89_999)).toBe(false);
    // process-1 died mid-delivery: its claim expires.
    expect(await two.claimSubscription('lease', 'process-2', 60_000, 90_000)).toBe(true);
    expect(await one.claimSubscription('lease', 'process-1', 60_001, 90_001)).toBe(false);
    // A release by one that does not hold it changes nothing; the holder's frees it.
    await one.releaseSubscription('lease', 'process-1');
    expect(await one.claimSubscription('lease', 'process-1', 60_002, 90_002)).toBe(false);
    await two.releaseSubscription('lease', 'process-2');
    expect(await one.claimSubscription('lease', 'process-1', 60_003, 90_003)).toBe(true);
  });

  it('keeps a claim across the subscription’s own changes, and claims one that is gone', async () => {
    const one = db.store();
    const two = db.store();
    const a = await db.tenant();
    await one.addSubscription(subscription(a, 'kept-claim'));
    expect(await one.claimSubscription('kept-claim', 'process-1', 1_000, 31_000)).toBe(true);
    await one.recordAttempt(
      {
        subscriptionId: 'kept-claim',
        firstSeq: 1,
        lastSeq: 1,
        eventCount: 1,
        attempt: 1,
        atMs: 1_000,
        outcome: 'failed',
        nextAttemptMs: 2_000,
        durationMs: 3,
      },
      {},
    );
    expect(await two.claimSubscription('kept-claim', 'process-2', 2_000, 32_000)).toBe(false);
    // As on SQLite: nothing to keep apart.
    expect(await two.claimSubscription('no-such-subscription', 'process-2', 1, 2)).toBe(true);
  });
});

describe('subscribers seen by other processes', () => {
  it('sees a subscription added by another process once its cached read expires', async () => {
    const adder = db.store();
    const quick = db.store({ subscribersTtlMs: 100 });
    // Cached for an hour: still within its lifetime below, however slow the poll was.
    const slow = db.store({ subscribersTtlMs: 3_600_000 });
    const a = await db.tenant();
    expect(await quick.hasSubscribers(a)).toBe(false);
    expect(await slow.hasSubscribers(a)).toBe(false);
    await adder.addSubscription(subscription(a, 'seen-later'));
    expect(await adder.hasSubscribers(a)).toBe(true);
    // Bounded as a hang: the cache lasts 100 ms, the read after it as long as the load makes it.
    await expect.poll(() => quick.hasSubscribers(a), { timeout: 30_000, interval: 20 }).toBe(true);
    // The read is cached: within its lifetime the other process still says no.
    expect(await slow.hasSubscribers(a)).toBe(false);
    // Its own changes it sees at once.
    await slow.deleteSubscription(a, 'seen-later');
    expect(await slow.hasSubscribers(a)).toBe(false);
    await slow.addSubscription(subscription(a, 'seen-now'));
    expect(await slow.hasSubscribers(a)).toBe(true);
  });

  it('calls only this process’s watchers', async () => {
    const one = db.store();
    const two = db.store();
    const calls: string[] = [];
    one.watchCommitted(() => calls.push('one'));
    two.watchCommitted(() => calls.push('two'));
    one.announceCommitted();
    expect(calls).toEqual(['one']);
  });
});

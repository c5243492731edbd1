/**
 * SQLite's unit lock (storage/sqlite/unit-lock.ts), seen through SqliteStorage: a
 * transaction that awaits holds the one connection from start to end, so calls from
 * outside it wait their turn, in the order they came, and never see its writes before it
 * ends; nested transactions are savepoints; a throw hands the lock on; group commit
 * still batches the transactions that ran one after another into one COMMIT.
 *
 * No timing: a transaction is held open on a gate the test opens, and "still waiting" is
 * checked after several turns of the event loop (a call that did not wait would have
 * been answered within the first).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  openStorage,
  type SqliteStorage,
  type SqliteStorageOptions,
} from '../src/storage/sqlite.js';
import type { RecordWrite } from '../src/storage/storage.js';

const opened: SqliteStorage[] = [];
/** Held transactions' releases: called before closing, should a failed test have left one held. */
const gates: (() => void)[] = [];
afterEach(async () => {
  for (const open of gates.splice(0)) open();
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
});

async function setUp(options: SqliteStorageOptions = {}) {
  const storage = openStorage(':memory:', options);
  opened.push(storage);
  const tenantId = (await storage.tenants.ensure('acme')).id;
  let clock = Date.parse('2024-01-01T00:00:00.000Z');
  const write = (id: string): RecordWrite => {
    const date = new Date(clock++).toISOString();
    return {
      tenantId,
      kind: 'person',
      id,
      doc: { id },
      created_date: date,
      modified_date: date,
      identifiers: [`test:${id}`],
    };
  };
  const insert = (id: string) => storage.records.insert(write(id));
  const get = (id: string) => storage.records.get(tenantId, 'person', id);
  /** Ids of the people, in the order they were written (seq). */
  const people = async () =>
    (await storage.records.list({ tenantId, kind: 'person', limit: 100 })).map((r) => r.id);
  return { storage, insert, get, people };
}

/**
 * A transaction held open: it runs `first`, then waits until the test calls `release()`,
 * then runs `last`. Resolves once `first` has run, with the transaction's promise. It is
 * released after the test anyway, so that a failed expectation does not leave it holding
 * the lock (and the storage's closing waiting behind it).
 */
async function heldOpen(
  storage: SqliteStorage,
  first: () => Promise<unknown>,
  last: () => Promise<unknown>,
): Promise<{ unit: Promise<void>; release(): void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  gates.push(() => release());
  let entered = () => {};
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const unit = storage.transaction(async () => {
    await first();
    entered();
    await released;
    await last();
  });
  // A unit that throws before `first` has run rejects here rather than hanging.
  await Promise.race([inside, unit]);
  return { unit, release };
}

/** Lets the event loop go round `n` times (timers, I/O, immediates, every microtask). */
async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Whether `promise` has settled yet, without waiting for it. */
function watch<T>(promise: Promise<T>): { readonly settled: boolean } {
  const state = { settled: false };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

describe('SQLite unit lock', () => {
  it('a read from outside waits for an awaiting transaction, then sees its committed writes', async () => {
    const { storage, insert, get, people } = await setUp();
    const { unit, release } = await heldOpen(
      storage,
      () => insert('in-unit'),
      () => insert('in-unit-2'),
    );
    const read = get('in-unit');
    const count = people();
    const readState = watch(read);
    const countState = watch(count);
    await turns();
    // The unit's write is on the connection, uncommitted: nobody outside may see it yet.
    expect(readState.settled).toBe(false);
    expect(countState.settled).toBe(false);
    release();
    await unit;
    expect((await read)?.id).toBe('in-unit');
    expect(await count).toEqual(['in-unit', 'in-unit-2']);
  });

  it('a read waiting for a transaction that rolls back never sees its writes', async () => {
    const { storage, insert, get, people } = await setUp();
    const { unit, release } = await heldOpen(
      storage,
      () => insert('doomed'),
      async () => {
        throw new Error('roll back');
      },
    );
    const read = get('doomed');
    const readState = watch(read);
    await turns();
    expect(readState.settled).toBe(false);
    release();
    await expect(unit).rejects.toThrow('roll back');
    expect(await read).toBeUndefined();
    expect(await people()).toEqual([]);
  });

  it('nested transactions are savepoints: an inner throw caught leaves the outer’s writes', async () => {
    const { storage, insert, people } = await setUp();
    await storage.transaction(async () => {
      await insert('outer-1');
      await expect(
        storage.transaction(async () => {
          await insert('inner-lost');
          await turns(1);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await storage.transaction(async () => {
        await turns(1);
        await insert('inner-kept');
      });
      await insert('outer-2');
    });
    expect(await people()).toEqual(['outer-1', 'inner-kept', 'outer-2']);
    // An outer throw takes its inner units' writes with it.
    await expect(
      storage.transaction(async () => {
        await storage.transaction(() => insert('inner-of-failed'));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await people()).toEqual(['outer-1', 'inner-kept', 'outer-2']);
  });

  it('serves waiting calls and transactions in the order they came', async () => {
    const { storage, insert, people } = await setUp();
    const { unit: first, release } = await heldOpen(
      storage,
      () => insert('first-start'),
      () => insert('first-end'),
    );
    // Each writes a record: the records' order (seq) is the order they were served in.
    const waiting = [
      insert('call-a'),
      storage.transaction(async () => {
        await insert('unit-b');
        await turns(1);
        await insert('unit-b-end');
      }),
      insert('call-c'),
      storage.transaction(() => insert('unit-d')),
      insert('call-e'),
    ];
    await turns();
    release();
    await first;
    await Promise.all(waiting);
    expect(await people()).toEqual([
      'first-start',
      'first-end',
      'call-a',
      'unit-b',
      'unit-b-end',
      'call-c',
      'unit-d',
      'call-e',
    ]);
  });

  it('a throw inside a transaction releases the lock: the next one runs', async () => {
    const { storage, insert, people } = await setUp();
    const failing = storage.transaction(async () => {
      await insert('lost');
      await turns(1);
      throw new Error('unit fails');
    });
    const next = storage.transaction(() => insert('next'));
    const call = insert('after');
    await expect(failing).rejects.toThrow('unit fails');
    await next;
    await call;
    // A synchronous throw (no await before it) releases it too.
    await expect(
      storage.transaction(() => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    await insert('still-served');
    expect(await people()).toEqual(['next', 'after', 'still-served']);
  });

  it('group commit batches concurrent awaiting transactions into one COMMIT', async () => {
    const { storage, insert, people } = await setUp({ groupCommit: true });
    await storage.flush();
    const before = storage.commits;
    const mark = storage.commitMark();
    const ids = ['a', 'b', 'c', 'd', 'e'];
    await Promise.all(
      ids.map((id) =>
        storage.transaction(async () => {
          await insert(`${id}-1`);
          await turns(1); // across a turn of the event loop, when a batch commits
          await insert(`${id}-2`);
        }),
      ),
    );
    await storage.durable(mark);
    expect(storage.commits - before).toBe(1);
    expect(await people()).toEqual(ids.flatMap((id) => [`${id}-1`, `${id}-2`]));
  });
});

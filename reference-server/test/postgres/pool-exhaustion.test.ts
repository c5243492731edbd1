/**
 * Every pooled connection busy: a request waits its turn (up to `poolWaitMs`), and is
 * then answered 503 `SERVICE_UNAVAILABLE` with `Retry-After`, never left hanging; once a
 * connection is free again the next request is served. Through the whole app, with a pool
 * of one held by a transaction the test controls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/index.js';
import { openPostgresStorage, type PostgresStorage } from '../../src/storage/postgres.js';
import { errorOf } from '../helpers.js';
import { type FreshDatabase, freshDatabase } from './database.js';

const KEY = 'pool-key';
const POOL_WAIT_MS = 300;

let db: FreshDatabase;
let storage: PostgresStorage;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  db = await freshDatabase('pool_exhaustion');
  storage = await openPostgresStorage(db.url, { poolSize: 1, poolWaitMs: POOL_WAIT_MS });
  await storage.putApiKey(KEY, 'acme', 'write');
  app = createApp({ storage, logError: () => {} });
});
afterAll(async () => {
  await storage?.close();
  await db?.drop();
});

function people(): Promise<Response> {
  return Promise.resolve(
    app.request('http://adis.test/api/v1/people', { headers: { 'STD-API-Token': KEY } }),
  );
}

/**
 * Holds the pool's only connection in a transaction: `held` resolves once it is taken,
 * `release()` ends the transaction and resolves when it has committed.
 */
function holdTheConnection(): { held: Promise<void>; release: () => Promise<void> } {
  let letGo = () => {};
  const released = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  let taken = () => {};
  const held = new Promise<void>((resolve) => {
    taken = resolve;
  });
  const transaction = storage.transaction(async () => {
    await storage.getTenant('acme');
    taken();
    await released;
  });
  return {
    held,
    release: async () => {
      letGo();
      await transaction;
    },
  };
}

describe('an exhausted connection pool', () => {
  it('queues a request that a connection frees in time: it is served', async () => {
    const hold = holdTheConnection();
    await hold.held;
    const answer = people();
    await new Promise((resolve) => setTimeout(resolve, POOL_WAIT_MS / 3));
    await hold.release();
    expect((await answer).status).toBe(200);
  });

  it('answers 503 with Retry-After after the wait, never hangs, and serves again once free', async () => {
    const hold = holdTheConnection();
    await hold.held;
    const started = performance.now();
    const answer = await people();
    const waited = performance.now() - started;
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorOf(await answer.json())[0]?.error_code).toBe('SERVICE_UNAVAILABLE');
    // It waited for a connection first, and not much longer than it was told to.
    expect(waited).toBeGreaterThanOrEqual(POOL_WAIT_MS * 0.8);
    expect(waited).toBeLessThan(POOL_WAIT_MS + 3000);
    await hold.release();
    expect((await people()).status).toBe(200);
  });
});

/**
 * What the PostgreSQL webhook store's tests share: a migrated database of their own, as
 * many connections to it (server processes) as a test needs, tenants, and the values
 * of subscriptions, events and attempts.
 */
import { expect } from 'vitest';
import { PostgresConnection } from '../../src/storage/postgres/connection.js';
import { migrate } from '../../src/storage/postgres/migrations.js';
import {
  PostgresWebhookStore,
  type PostgresWebhookStoreOptions,
} from '../../src/storage/postgres/webhooks.js';
import type {
  DeliveryAttempt,
  NewWebhookSubscription,
  WebhookStore,
} from '../../src/storage/webhook-store.js';
import { freshDatabase } from './database.js';

/** A migrated database and what opens stores on it. */
export interface WebhookDatabase {
  /** A new pool on the database: what one server process has. */
  connect(): PostgresConnection;
  /** A store on a new pool. */
  store(options?: PostgresWebhookStoreOptions): PostgresWebhookStore;
  /** The connection of a store made by {@link store}. */
  connectionOf(store: PostgresWebhookStore): PostgresConnection;
  /** Creates a tenant; returns its id. */
  tenant(name?: string): Promise<number>;
  /** Closes every pool, then drops the database. */
  drop(): Promise<void>;
}

let tenants = 0;

/**
 * Creates and migrates a database of its own for a test file.
 *
 * @example
 * ```ts
 * let db: WebhookDatabase;
 * beforeAll(async () => { db = await webhookDatabase('webhooks'); });
 * afterAll(() => db.drop());
 * ```
 */
export async function webhookDatabase(prefix: string): Promise<WebhookDatabase> {
  const database = await freshDatabase(prefix);
  const pools: PostgresConnection[] = [];
  const connections = new Map<PostgresWebhookStore, PostgresConnection>();
  const connect = (): PostgresConnection => {
    const connection = new PostgresConnection(database.url, { poolSize: 4 });
    pools.push(connection);
    return connection;
  };
  const admin = connect();
  await migrate(admin);
  return {
    connect,
    store(options) {
      const connection = connect();
      const store = new PostgresWebhookStore(connection, options);
      connections.set(store, connection);
      return store;
    },
    connectionOf(store) {
      const connection = connections.get(store);
      if (!connection) throw new Error('not a store of this database');
      return connection;
    },
    async tenant(name = `tenant-${++tenants}`) {
      const { rows } = await admin.query<{ id: number }>(
        `INSERT INTO tenants (name, namespace, created_date) VALUES ($1, $1, '2024-01-01T00:00:00.000Z')
         RETURNING id`,
        [name],
      );
      return rows[0]?.id ?? 0;
    },
    async drop() {
      await Promise.all(pools.map((pool) => pool.close()));
      await database.drop();
    },
  };
}

/** A new subscription's values. */
export function subscription(
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

/** Appends an event of `type` for `tenantId`; resolves to its seq. */
export function append(store: WebhookStore, tenantId: number, type = 'signature'): Promise<number> {
  keys++;
  return store.appendEvent({
    tenantId,
    type,
    idempotencyKey: `key-${keys}`,
    payload: { record: { kind: type, id: `r${keys}`, doc: { n: keys } } },
    createdMs: 1_700_000_000_000 + keys,
  });
}

/** An attempt's values. */
export function attempt(
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

/**
 * Waits until `store` reads the outbox through `seq` (an event of `tenantId`): a
 * transaction of another test, anywhere on the cluster, may hold the horizon back a
 * moment. Afterwards the store's reads up to `seq` are settled (its bound only grows).
 *
 * @example
 * ```ts
 * await settled(store, tenantId, await append(store, tenantId));
 * ```
 */
export async function settled(store: WebhookStore, tenantId: number, seq: number): Promise<void> {
  await expect
    .poll(async () => (await store.eventsAfter(tenantId, seq - 1, 1)).map((event) => event.seq), {
      timeout: 5_000,
      interval: 20,
    })
    .toEqual([seq]);
}

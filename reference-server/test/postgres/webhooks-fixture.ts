/**
 * A migrated PostgreSQL database of its own for the webhook store's tests with several
 * processes: as many connections to it (server processes) as a test needs, and tenants.
 * The values they write are test/webhook-values.ts.
 */
import { PostgresConnection } from '../../src/storage/postgres/connection.js';
import { migrate } from '../../src/storage/postgres/migrations.js';
import {
  PostgresWebhookStore,
  type PostgresWebhookStoreOptions,
} from '../../src/storage/postgres/webhooks.js';
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

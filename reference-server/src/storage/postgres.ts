/**
 * {@link Storage} on PostgreSQL, for several server processes on one database. It
 * composes the parts in `postgres/`, one concern each, over one pool:
 *
 * - `connection.ts`: the pool, transactions and units (a unit is a database transaction
 *   spanning a whole request; transactions inside it are savepoints), errors mapped
 *   once (`errors.ts`: unreachable → StorageUnavailableError);
 * - `migrations.ts`: the schema ({@link POSTGRES_MIGRATIONS}, run under an advisory lock);
 * - `tenants.ts`, `records.ts` (with `collections.ts`, `record-rows.ts`),
 *   `idempotency.ts`: the sub-stores, as SQLite's;
 * - `lookup-lock.ts`: the advisory locks that make look-up-then-insert safe;
 * - `webhooks.ts`: the webhook subscriptions, outbox and delivery log.
 *
 * Every transaction commits before it resolves, with PostgreSQL's synchronous commit:
 * there is no group commit to wait for, so {@link PostgresStorage.durable} resolves at once.
 */
import { PostgresConnection } from './postgres/connection.js';
import { PostgresIdempotentAnswers } from './postgres/idempotency.js';
import { migrate } from './postgres/migrations.js';
import { openFailure } from './postgres/open-failure.js';
import { PostgresRecords } from './postgres/records.js';
import { PostgresTenants } from './postgres/tenants.js';
import { PostgresWebhookStore } from './postgres/webhooks.js';
import type {
  IdempotencyStore,
  RecordStore,
  Storage,
  TenantStore,
  UnitOptions,
} from './storage.js';
import type { WebhookStore } from './webhook-store.js';

export { PostgresConnection } from './postgres/connection.js';
export { POSTGRES_MIGRATIONS } from './postgres/migrations.js';

/** Options of {@link openPostgresStorage}. */
export interface PostgresStorageOptions {
  /** Most connections open at once. Default 10. */
  poolSize?: number;
  /**
   * Milliseconds a call waits for a free connection before failing with
   * StorageUnavailableError (503). Default 5000.
   */
  poolWaitMs?: number;
  /** Namespace of tenants created without one. Default `adis`. */
  defaultNamespace?: string;
  /** `application_name` of the sessions, as pg_stat_activity shows them. */
  applicationName?: string;
  /** The schema of the tables (its `search_path`); it must exist. Default `public`. */
  schema?: string;
  /** Milliseconds an idle connection stays open in the pool. Default 10000. */
  idleTimeoutMs?: number;
  /**
   * Where the URL was given, for the advice of a failed open ("… or name another
   * database in --db or DATABASE_URL"). Default `the connection URL`.
   */
  urlSetting?: string;
}

/**
 * PostgreSQL storage. Open it with {@link openPostgresStorage}, which creates or
 * migrates the schema first.
 *
 * @example
 * ```ts
 * import { openPostgresStorage } from 'adis-server';
 *
 * const storage = await openPostgresStorage('postgres://localhost/adis');
 * const tenant = await storage.tenants.ensure('demo');
 * await storage.records.count({ tenantId: tenant.id, kind: 'person' }); // 0
 * await storage.close();
 * ```
 */
export class PostgresStorage implements Storage {
  readonly engine = 'postgres' as const;
  readonly webhooks: WebhookStore;
  /**
   * The pool and its units of work, for tools and tests that need SQL of their own.
   *
   * @internal
   */
  readonly connection: PostgresConnection;
  readonly tenants: TenantStore;
  readonly records: RecordStore;
  readonly idempotency: IdempotencyStore;

  /**
   * Use {@link openPostgresStorage}: the schema must be migrated first.
   *
   * @internal
   */
  constructor(
    connection: PostgresConnection,
    /** True when this open created the schema. */
    readonly created: boolean,
    options: PostgresStorageOptions = {},
  ) {
    this.connection = connection;
    this.tenants = new PostgresTenants(connection, options.defaultNamespace ?? 'adis');
    this.records = new PostgresRecords(connection);
    this.idempotency = new PostgresIdempotentAnswers(connection);
    this.webhooks = new PostgresWebhookStore(connection);
  }

  transaction<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.connection.transaction(fn);
  }

  unit<T>(fn: () => Promise<T>, options?: UnitOptions): Promise<T> {
    return this.connection.unit(fn, options);
  }

  /** Always 0: every transaction is committed before it resolves. */
  commitMark(): number {
    return 0;
  }

  /** Resolves at once: nothing is ever pending (synchronous commit). */
  durable(_mark?: number): Promise<void> {
    return Promise.resolve();
  }

  /** Resolves at once: nothing is ever pending. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * `ANALYZE` of the record tables, those a bulk load fills, in the storage's schema
   * (the sessions' `search_path`): see {@link Storage.analyze}.
   */
  async analyze(): Promise<void> {
    await this.connection.query(
      'ANALYZE records, identifiers, record_keys, record_parents, record_contributions',
      [],
      { readOnly: true },
    );
  }

  /** Ends the pool. Safe to call twice. */
  close(): Promise<void> {
    return this.connection.close();
  }
}

/**
 * Connects to the PostgreSQL database at `url`, creates or migrates its schema (under an
 * advisory lock, so several processes may start at once), and returns the storage.
 * Rejects with StorageUnavailableError when the database cannot be reached, with an
 * `Error` for another cause (no such database or role, password refused); either way the
 * message names the host, port and database (never the password) and says what to do
 * (`cannot use PostgreSQL at 127.0.0.1:5432, database "adis": …`, see
 * `postgres/open-failure.ts`), and `cause` is the driver's error.
 *
 * @example
 * ```ts
 * import { openPostgresStorage } from 'adis-server';
 *
 * const storage = await openPostgresStorage('postgres://adis@db.example/adis', { poolSize: 20 });
 * storage.created; // true the first time
 * ```
 */
export async function openPostgresStorage(
  url: string,
  options: PostgresStorageOptions = {},
): Promise<PostgresStorage> {
  const connection = new PostgresConnection(url, {
    poolSize: options.poolSize,
    poolWaitMs: options.poolWaitMs,
    applicationName: options.applicationName,
    schema: options.schema,
    idleTimeoutMs: options.idleTimeoutMs,
  });
  try {
    const created = await migrate(connection);
    return new PostgresStorage(connection, created, options);
  } catch (error) {
    await connection.close();
    throw openFailure(error, url, options);
  }
}

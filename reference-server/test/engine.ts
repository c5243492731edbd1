/**
 * The storage engine the server's HTTP tests run on: SQLite in memory, or with
 * `ADIS_TEST_ENGINE=postgres` PostgreSQL (the run's cluster, `ADIS_TEST_POSTGRES_URL`).
 * The same tests then hold the PostgreSQL engine to every answer the SQLite one gives.
 *
 * On PostgreSQL each test file gets a database, dropped after its tests, and each
 * storage a schema of its own in it: a storage as empty as a new `:memory:` one, made
 * in tens of milliseconds (a database takes a quarter of a second).
 */
import { afterAll, afterEach } from 'vitest';
import { PostgresConnection } from '../src/storage/postgres/connection.js';
import { migrate } from '../src/storage/postgres/migrations.js';
import { PostgresStorage } from '../src/storage/postgres.js';
import { openStorage } from '../src/storage/sqlite.js';
import type { Storage } from '../src/storage/storage.js';
import {
  freshSchema,
  type PlannedDatabase,
  planDatabase,
  schemaName,
  TEST_POOL,
} from './postgres/database.js';

/** The engine of this run: `sqlite` unless `ADIS_TEST_ENGINE=postgres`. */
export const TEST_ENGINE: 'sqlite' | 'postgres' =
  process.env.ADIS_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** A storage for one test, and the promise that it is ready to use. */
export interface TestStorage {
  storage: Storage;
  /** Resolves once the storage may be used (on PostgreSQL: its schema made and migrated). */
  ready: Promise<void>;
}

let fileDatabase: PlannedDatabase | undefined;
const opened: PostgresStorage[] = [];
/**
 * Work begun on this file's storages that its test may not await: a storage's
 * migrations, a harness's keys (see {@link settleAfterTest}).
 */
const making = new Set<Promise<unknown>>();

/**
 * Awaits `work` after the test that began it, if the test did not: a storage made but
 * never used (a harness for a refused option) must not go on writing into the next
 * test, where its open transaction would hold back the webhook outbox of every schema in
 * the database (outbox-horizon.ts) past the reader's wait. Nothing on SQLite.
 *
 * @example
 * ```ts
 * settleAfterTest(putKeys(storage, ready));
 * ```
 */
export function settleAfterTest(work: Promise<unknown>): void {
  if (TEST_ENGINE !== 'postgres') return;
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  making.add(settled);
  void settled.finally(() => making.delete(settled));
}

// Registered as the file is collected: a hook registered from inside a running test
// (on a storage's first use) is not run after the tests of the file.
if (TEST_ENGINE === 'postgres') {
  afterEach(async () => {
    await Promise.allSettled([...making]);
  });
  afterAll(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
    await fileDatabase?.drop();
    fileDatabase = undefined;
  });
}

/** This test file's database, planned on first use and dropped after its tests. */
function database(): PlannedDatabase {
  fileDatabase ??= planDatabase('http');
  return fileDatabase;
}

/**
 * A new, empty storage on the run's engine, usable once `ready` resolves. Tenants
 * created without a namespace get `defaultNamespace`.
 *
 * @example
 * ```ts
 * const { storage, ready } = testStorage();
 * await ready;
 * await storage.tenants.putApiKey('key', 'acme', 'write');
 * ```
 */
export function testStorage(defaultNamespace?: string): TestStorage {
  const options = defaultNamespace ? { defaultNamespace } : {};
  if (TEST_ENGINE === 'sqlite') {
    return { storage: openStorage(':memory:', options), ready: Promise.resolve() };
  }
  const db = database();
  const schema = schemaName('t');
  // No connection is made before `ready` has made the database and the schema.
  const connection = new PostgresConnection(db.url, { schema, ...TEST_POOL });
  const storage = new PostgresStorage(connection, true, options);
  opened.push(storage);
  const ready = db
    .create()
    .then(() => freshSchema(db.url, schema))
    .then(() => migrate(connection))
    .then(() => undefined);
  // A failure is every use's answer (callers await it), never an unhandled rejection.
  ready.catch(() => undefined);
  settleAfterTest(ready);
  return { storage: afterReady(storage, ready), ready };
}

/** The sub-stores of a Storage: their calls wait for `ready` too. */
const SUB_STORES = new Set<string | symbol>(['tenants', 'records', 'idempotency', 'webhooks']);

/** Members of Storage and WebhookStore that answer synchronously: passed through as they are. */
const SYNC_MEMBERS = new Set<string | symbol>([
  'engine',
  'created',
  'commitMark',
  'appendedCount',
  'announceCommitted',
  'watchCommitted',
]);

/**
 * `target` whose asynchronous calls first wait for `ready`, as a storage opened with
 * `await` would be: a test may use it at once, as it uses a `:memory:` one.
 */
function afterReady<T extends object>(target: T, ready: Promise<void>): T {
  return new Proxy(target, {
    get(object, name, receiver) {
      const value: unknown = Reflect.get(object, name, receiver);
      if (SUB_STORES.has(name) && typeof value === 'object' && value !== null) {
        return afterReady(value, ready);
      }
      if (typeof value !== 'function' || SYNC_MEMBERS.has(name)) {
        return typeof value === 'function' ? value.bind(object) : value;
      }
      return async (...args: unknown[]) => {
        await ready;
        return value.apply(object, args);
      };
    },
  });
}

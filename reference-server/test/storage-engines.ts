/**
 * The storage engines that the generic storage tests run on, listed as data, so one
 * `describe.each(STORAGE_ENGINES)` holds every engine to the same answers: SQLite in
 * memory, and PostgreSQL on the run's cluster (`ADIS_TEST_POSTGRES_URL`, which
 * test/postgres/global-setup.ts sets). On PostgreSQL a suite gets a database of its
 * own, dropped after it, and each storage a schema of its own in it: as empty as a new
 * `:memory:` one, made in milliseconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { openPostgresStorage, type PostgresStorage } from '../src/storage/postgres.js';
import { openStorage, type SqliteStorage } from '../src/storage/sqlite.js';
import type { Storage, StorageEngineName } from '../src/storage/storage.js';
import { type FreshDatabase, freshDatabase, freshSchema, TEST_POOL } from './postgres/database.js';

/** Where one suite's storages live: how to open a new empty one, and the clean-up. */
export interface EngineSuite {
  /** A new, empty, migrated storage. */
  open(): Promise<Storage>;
  /**
   * A new, empty storage that outlives its closing (SQLite: a file, not memory), and
   * how to open it again.
   */
  openKept(): Promise<{ storage: Storage; reopen(): Promise<Storage> }>;
  /** Rows in a table of the schema (a side table the answers must keep in step). */
  rows(storage: Storage, table: string): Promise<number>;
  /** Removes what the suite made (its database); the storages are closed before. */
  tearDown(): Promise<void>;
}

/** One engine under test. */
export interface StorageEngineCase {
  readonly name: StorageEngineName;
  /** Prepares a suite named `suite` (a database on PostgreSQL). */
  suite(suite: string): Promise<EngineSuite>;
}

const sqlite: StorageEngineCase = {
  name: 'sqlite',
  async suite() {
    const dirs: string[] = [];
    return {
      async open() {
        return openStorage(':memory:');
      },
      async openKept() {
        const dir = mkdtempSync(join(tmpdir(), 'adis-engines-'));
        dirs.push(dir);
        const path = join(dir, 'nested', 'adis.db');
        return { storage: openStorage(path), reopen: async () => openStorage(path) };
      },
      async rows(storage, table) {
        const row = (storage as SqliteStorage).database
          .prepare(`SELECT count(*) AS n FROM ${table}`)
          .get() as { n: number };
        return row.n;
      },
      async tearDown() {
        for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: StorageEngineCase = {
  name: 'postgres',
  async suite(suite) {
    const db: FreshDatabase = await freshDatabase(suite);
    const openKept = async () => {
      const schema = await freshSchema(db.url);
      const open = () => openPostgresStorage(db.url, { schema, ...TEST_POOL });
      return { storage: await open(), reopen: open };
    };
    return {
      async open() {
        return (await openKept()).storage;
      },
      openKept,
      async rows(storage, table) {
        const { rows } = await (storage as PostgresStorage).connection.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table}`,
        );
        return Number(rows[0]?.n);
      },
      tearDown: () => db.drop(),
    };
  },
};

/** Every engine, in the order their suites run. */
export const STORAGE_ENGINES: readonly StorageEngineCase[] = [sqlite, postgres];

/**
 * Call at the top of a `describe.each(STORAGE_ENGINES)` body: `open()` gives a new
 * empty storage of that engine, closed after its test; the suite's database (if any) is
 * made on first use and removed after the suite.
 *
 * @example
 * ```ts
 * describe.each(STORAGE_ENGINES)('totals on $name', (engine) => {
 *   const { open } = engineStorages(engine);
 *   it('sums', async () => {
 *     const storage = await open();
 *     await storage.tenants.ensure('acme');
 *   });
 * });
 * ```
 */
export function engineStorages(engine: StorageEngineCase): {
  open(): Promise<Storage>;
  /** {@link EngineSuite.openKept}; the storage and every reopened one closed after the test. */
  openKept(): Promise<{ storage: Storage; reopen(): Promise<Storage> }>;
  rows(storage: Storage, table: string): Promise<number>;
  /**
   * One storage for the whole suite, filled by `fill` on first use and closed after the
   * suite: for tests that only read, so that a slow fill is paid once.
   */
  shared<T>(fill: (storage: Storage) => Promise<T>): () => Promise<T>;
} {
  let made: Promise<EngineSuite> | undefined;
  const opened: Storage[] = [];
  const suiteOpened: Storage[] = [];
  const suite = () => {
    made ??= engine.suite(`storage_${engine.name}`);
    return made;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
  });
  afterAll(async () => {
    await Promise.all(suiteOpened.splice(0).map((storage) => storage.close()));
    if (made) await (await made).tearDown();
    made = undefined;
  });
  return {
    async open() {
      const storage = await (await suite()).open();
      opened.push(storage);
      return storage;
    },
    async openKept() {
      const kept = await (await suite()).openKept();
      opened.push(kept.storage);
      return {
        storage: kept.storage,
        async reopen() {
          const again = await kept.reopen();
          opened.push(again);
          return again;
        },
      };
    },
    async rows(storage, table) {
      return (await suite()).rows(storage, table);
    },
    shared<T>(fill: (storage: Storage) => Promise<T>) {
      let filled: Promise<T> | undefined;
      return () => {
        filled ??= (async () => {
          const storage = await (await suite()).open();
          suiteOpened.push(storage);
          return fill(storage);
        })();
        return filled;
      };
    },
  };
}

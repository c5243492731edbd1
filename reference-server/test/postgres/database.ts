/**
 * A database of its own for each test, created in the run's PostgreSQL cluster
 * (`ADIS_TEST_POSTGRES_URL`, which global-setup.ts sets) and dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database created for one test: its URL and the call that drops it. */
export interface FreshDatabase {
  /** URL of the new database (same server, user and options as the admin URL). */
  url: string;
  /** The database's name, `<prefix>_<random>`. */
  name: string;
  /** Ends its connections and drops it; safe to call twice. */
  drop(): Promise<void>;
}

/**
 * The admin URL of the run's cluster: `ADIS_TEST_POSTGRES_URL`. Throws when it is unset
 * (outside vitest, start one with `tsx scripts/postgres-cluster.ts start`).
 *
 * @example
 * ```ts
 * const admin = new pg.Client({ connectionString: testPostgresUrl() });
 * ```
 */
export function testPostgresUrl(): string {
  const url = process.env.ADIS_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'ADIS_TEST_POSTGRES_URL is not set: run through the reference server vitest config (its global setup starts a cluster), or start one with `tsx scripts/postgres-cluster.ts start` and export the URL it prints.',
    );
  }
  return url;
}

/** A database named before it exists: its URL now, {@link create} to make it. */
export interface PlannedDatabase extends FreshDatabase {
  /** Creates it (once; later calls return the same promise). */
  create(): Promise<void>;
}

/**
 * Names a database on the run's cluster (or on `adminUrl`) without creating it yet, so
 * that a pool can be given its URL at once and the database made before the first
 * connection.
 *
 * @example
 * ```ts
 * const db = planDatabase('http');
 * const pool = new pg.Pool({ connectionString: db.url });
 * await db.create();
 * ```
 */
export function planDatabase(prefix: string, adminUrl = testPostgresUrl()): PlannedDatabase {
  // Identifiers are at most 63 bytes; lower case and digits need no quoting rules.
  const stem =
    prefix
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, 40) || 'test';
  const name = `${stem}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let created: Promise<void> | undefined;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    create() {
      created ??= withAdmin(adminUrl, async (admin) => {
        await admin.query(`CREATE DATABASE "${name}"`);
      });
      return created;
    },
    async drop() {
      if (dropped) return;
      await withAdmin(adminUrl, async (admin) => {
        // WITH (FORCE) also ends sessions, but one opening meanwhile would still block it.
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      });
      dropped = true;
    },
  };
}

/**
 * Creates a uniquely named database on the run's cluster (or on `adminUrl`), so tests
 * running side by side never share tables.
 *
 * @example
 * ```ts
 * const db = await freshDatabase('records');
 * onTestFinished(() => db.drop());
 * const pool = new pg.Pool({ connectionString: db.url });
 * ```
 */
export async function freshDatabase(
  prefix: string,
  adminUrl = testPostgresUrl(),
): Promise<FreshDatabase> {
  const planned = planDatabase(prefix, adminUrl);
  await planned.create();
  return { url: planned.url, name: planned.name, drop: planned.drop };
}

async function withAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Makes a new, uniquely named schema in the database at `url` and returns its name: a
 * storage as empty as a new database, made in milliseconds (a database takes a quarter
 * of a second). Open the storage with `{ schema }`.
 *
 * @example
 * ```ts
 * const schema = await freshSchema(db.url);
 * const storage = await openPostgresStorage(db.url, { schema });
 * ```
 */
export async function freshSchema(url: string, schema = schemaName()): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await client.end();
  }
  return schema;
}

/**
 * A new schema name (lower case, unique), for a pool that must know it before
 * {@link freshSchema} makes it.
 *
 * @example
 * ```ts
 * const schema = schemaName();
 * ```
 */
export function schemaName(prefix = 's'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/**
 * The pool of a test's storage: small, and idle connections closed soon, since a run
 * opens hundreds of storages on one cluster (its `max_connections` bounds them all). A
 * request waits for a free connection as long as a test may take: the 5 s default is a
 * production bound, and 50 calls at once on a loaded machine outwait it (a 503). The
 * tests of that 503 set their own wait.
 */
export const TEST_POOL = { poolSize: 4, idleTimeoutMs: 500, poolWaitMs: 50_000 } as const;

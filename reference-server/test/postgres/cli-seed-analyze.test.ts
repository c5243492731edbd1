/**
 * A start that seeds a PostgreSQL database ends the bulk load with ANALYZE: the plans of
 * the first calls are made on statistics, not on an empty table's guesses (see
 * `Storage.analyze`).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endCliRuns, runCli } from '../run-cli.js';
import { type FreshDatabase, freshDatabase } from './database.js';

let db: FreshDatabase;

beforeAll(async () => {
  db = await freshDatabase('cli_seed_analyze');
});
afterAll(async () => {
  await endCliRuns();
  await db?.drop();
});

/** The record tables an explicit ANALYZE has been run on (autovacuum's does not count). */
async function analyzedTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ relname: string }>(
      `SELECT relname FROM pg_stat_user_tables
       WHERE relname IN ('records', 'record_keys', 'record_parents') AND last_analyze IS NOT NULL
       ORDER BY relname`,
    );
    return rows.map((row) => row.relname);
  } finally {
    await client.end();
  }
}

describe('adis-server --seed on PostgreSQL', () => {
  it('analyzes the record tables once seeded, before it answers', async () => {
    const plain = runCli(['--port', '0', '--db', db.url, '--seed', '0', '--quiet']);
    await plain.ready;
    plain.child.kill('SIGTERM');
    expect(await plain.exited).toBe(0);
    // Nothing seeded, nothing analyzed.
    expect(await analyzedTables(db.url)).toEqual([]);

    const seeded = runCli(['--port', '0', '--db', db.url, '--seed', '40', '--quiet']);
    await seeded.ready;
    expect(await analyzedTables(db.url)).toEqual(['record_keys', 'record_parents', 'records']);
    seeded.child.kill('SIGTERM');
    expect(await seeded.exited).toBe(0);
  });
});

/**
 * The two engines' schemas are one schema: every table and column either engine makes
 * is the other's too, but for the differences listed here, each with its reason. A
 * migration added to one engine and not the other fails this test, so the schemas
 * cannot drift apart although each engine writes its own DDL (docs/architecture.md says
 * why the DDL is not generated from one declaration).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../src/storage/postgres.js';
import { openStorage } from '../src/storage/sqlite.js';
import { type FreshDatabase, freshDatabase, freshSchema } from './postgres/database.js';

/** Tables and columns one engine has and the other has not, and why. */
const ONLY: Record<'sqlite' | 'postgres', { tables: string[]; columns: string[] }> = {
  sqlite: {
    // Counters kept by triggers: one writer at a time makes them exact and cheap;
    // PostgreSQL counts and sums when it reads, so that concurrent writers never
    // queue on one row.
    tables: ['record_counts', 'record_totals', 'sqlite_sequence'],
    columns: [],
  },
  postgres: {
    // Migration bookkeeping (SQLite keeps it in PRAGMA user_version).
    tables: ['schema_migrations'],
    columns: [
      // The insertion order SQLite's rowid gives.
      'webhook_subscriptions.position',
      // Several processes: which one delivers a subscription, until when.
      'webhook_subscriptions.claim_owner',
      'webhook_subscriptions.claim_until_ms',
      // The writing transaction, for the outbox's horizon (postgres/outbox-horizon.ts).
      'webhook_events.xid',
    ],
  },
};

/** `table.column` of every column of every table. */
type Columns = Set<string>;

async function sqliteColumns(): Promise<Columns> {
  const storage = openStorage(':memory:');
  try {
    const db = storage.database;
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    const columns: Columns = new Set();
    for (const { name } of tables) {
      columns.add(`${name}.`);
      for (const column of db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]) {
        columns.add(`${name}.${column.name}`);
      }
    }
    return columns;
  } finally {
    await storage.close();
  }
}

let database: FreshDatabase | undefined;
afterAll(async () => {
  await database?.drop();
});

async function postgresColumns(): Promise<Columns> {
  database = await freshDatabase('schema_engines');
  const schema = await freshSchema(database.url);
  const storage = await openPostgresStorage(database.url, { schema, poolSize: 1 });
  try {
    const { rows } = await storage.connection.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1`,
      [schema],
    );
    const columns: Columns = new Set();
    for (const row of rows) {
      columns.add(`${row.table_name}.`);
      columns.add(`${row.table_name}.${row.column_name}`);
    }
    return columns;
  } finally {
    await storage.close();
  }
}

/** `columns` without what only `engine` has. */
function shared(columns: Columns, engine: 'sqlite' | 'postgres'): string[] {
  const { tables, columns: own } = ONLY[engine];
  return [...columns]
    .filter((name) => !tables.includes(name.split('.')[0] ?? '') && !own.includes(name))
    .sort();
}

describe('the schema of both engines', () => {
  it('has the same tables and columns but for the differences listed with their reasons', async () => {
    const [sqlite, postgres] = await Promise.all([sqliteColumns(), postgresColumns()]);
    expect(shared(postgres, 'postgres')).toEqual(shared(sqlite, 'sqlite'));
    // Each listed difference is real: a stale entry would hide a drift.
    for (const engine of ['sqlite', 'postgres'] as const) {
      const columns = engine === 'sqlite' ? sqlite : postgres;
      for (const table of ONLY[engine].tables) expect(columns.has(`${table}.`), table).toBe(true);
      for (const column of ONLY[engine].columns) expect(columns.has(column), column).toBe(true);
    }
  });
});

/**
 * A database file as an older server left it, for the tests of a migration: the
 * schema steps up to `version` only, one tenant (`old`, id 1) and one petition (`p1`,
 * `{"title":"Old"}`) created at `date`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../src/storage/sqlite.js';

/**
 * Writes the database in a new temporary folder (pushed to `dirs`, for the caller's
 * clean-up) and answers its path.
 *
 * @example
 * ```ts
 * const path = oldDatabase(1, '2023-01-01T00:00:00.000Z', dirs);
 * const storage = openStorage(path); // runs the later migrations
 * ```
 */
export function oldDatabase(version: number, date: string, dirs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'adis-migrate-'));
  dirs.push(dir);
  const path = join(dir, `v${version}.db`);
  const raw = new Database(path);
  for (const migration of MIGRATIONS.slice(0, version)) migration(raw);
  raw.pragma(`user_version = ${version}`);
  raw
    .prepare("INSERT INTO tenants (id, name, namespace, created_date) VALUES (1, 'old', 'adis', ?)")
    .run(date);
  raw
    .prepare(
      `INSERT INTO records (tenant_id, kind, id, doc, created_date, modified_date)
       VALUES (1, 'petition', 'p1', '{"title":"Old"}', ?, ?)`,
    )
    .run(date, date);
  raw.close();
  return path;
}

/**
 * Where the server's data lives, from `--db` or the `DATABASE_URL` environment variable:
 * a SQLite file or `:memory:`, or a PostgreSQL URL (`postgres://` or `postgresql://`).
 * Any other value that looks like a URL is an error, never a file name: before this
 * check, `--db postgres://host/db` created a SQLite database in a folder named
 * `postgres:`, so two instances given one URL shared a file, not a database. A new
 * engine plugs in here, as one more `engine` of {@link DatabaseLocation}.
 */
import { resolve } from 'node:path';

/** Where the database is: the engine, and what that engine opens. */
export type DatabaseLocation =
  | {
      engine: 'sqlite';
      /** An absolute file path, or `:memory:`. */
      path: string;
    }
  | {
      engine: 'postgres';
      /** The connection string as given (it may hold a password: never print it). */
      url: string;
    };

/** A `--db` or `DATABASE_URL` value that names no database this server can open. */
export interface DatabaseLocationError {
  /** Says what was given (the URL scheme, never the rest: it may hold a password) and what works. */
  error: string;
}

/** The database setting and where it came from, for messages. */
export interface DatabaseSetting {
  value: string;
  source: '--db' | 'DATABASE_URL';
}

/**
 * A URL scheme and its colon: two or more characters, so a Windows drive (`C:\data`) stays
 * a path. `//` is not required: `postgresql:dbname` and `file:adis.db` are URLs too.
 */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;

/** Schemes that name SQLite itself: the answer is to give the path without the URI. */
const SQLITE_SCHEMES = new Set(['file', 'sqlite', 'sqlite3']);

/** Schemes of PostgreSQL connection strings, as libpq and node-postgres take them. */
const POSTGRES_SCHEMES = new Set(['postgres', 'postgresql']);

/**
 * The database setting in force: `--db` when given, else a non-empty `DATABASE_URL`,
 * else none (the server's default file).
 *
 * @example
 * ```ts
 * import { databaseSetting } from './database-location.js';
 *
 * databaseSetting(undefined, { DATABASE_URL: 'data/adis.db' });
 * // { value: 'data/adis.db', source: 'DATABASE_URL' }
 * ```
 */
export function databaseSetting(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): DatabaseSetting | undefined {
  if (flag !== undefined) return { value: flag, source: '--db' };
  // An empty variable (`DATABASE_URL=` in an env file) means unset.
  const url = env.DATABASE_URL;
  return url ? { value: url, source: 'DATABASE_URL' } : undefined;
}

/**
 * The database a setting names: `:memory:`, a SQLite file path resolved against
 * `baseDir`, or a `postgres://` / `postgresql://` URL. Another URL (`mysql://…`,
 * `file:…`) is an error that names its scheme and what is supported. `file:` and
 * `sqlite:` URIs are refused too, not mapped to
 * paths: their conventions differ between tools (Prisma's `file:./dev.db`, SQLAlchemy's
 * `sqlite:///`, SQLite's `?mode=ro` parameters, which would be silently dropped), while
 * the path itself means one thing.
 *
 * @example
 * ```ts
 * import { parseDatabaseLocation } from './database-location.js';
 *
 * parseDatabaseLocation({ value: 'data/adis.db', source: '--db' }, '/srv');
 * // { engine: 'sqlite', path: '/srv/data/adis.db' }
 * parseDatabaseLocation({ value: 'postgres://u@db/adis', source: '--db' }, '/srv');
 * // { engine: 'postgres', url: 'postgres://u@db/adis' }
 * parseDatabaseLocation({ value: 'mysql://u@db/adis', source: '--db' }, '/srv');
 * // { error: '--db names a mysql:// database; …' }
 * ```
 */
export function parseDatabaseLocation(
  setting: DatabaseSetting,
  baseDir: string,
): DatabaseLocation | DatabaseLocationError {
  const { value, source } = setting;
  if (value === ':memory:') return { engine: 'sqlite', path: ':memory:' };
  if (value.trim() === '')
    return {
      error: `${source} is empty: give a PostgreSQL URL, a SQLite file path or :memory:`,
    };
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    const slashes = value.slice(scheme.length + 1).startsWith('//');
    if (POSTGRES_SCHEMES.has(scheme) && slashes) return { engine: 'postgres', url: value };
    const instead = SQLITE_SCHEMES.has(scheme)
      ? 'give the SQLite file path itself, without the URI (like data/adis.db)'
      : 'this server supports a PostgreSQL URL (postgres://user@host:5432/db), a SQLite file path or :memory:';
    // Without `//` it may be a file name with a colon: say how to write one.
    const fileHint = slashes ? '' : ` (for a file named ${scheme}:…, write ./${scheme}:…)`;
    return {
      error: `${source} names a ${scheme}${slashes ? '://' : ':'} database; ${instead}${fileHint}`,
    };
  }
  return { engine: 'sqlite', path: resolve(baseDir, value) };
}

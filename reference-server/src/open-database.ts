/**
 * Opens the database a {@link DatabaseLocation} names, with the engine it names: the
 * composition root's one place that knows both engines (`--db`, `DATABASE_URL`). The
 * rest of the server sees only {@link Storage}.
 */
import type { DatabaseLocation } from './database-location.js';
import { openPostgresStorage } from './storage/postgres.js';
import { openStorage } from './storage/sqlite.js';
import type { Storage } from './storage/storage.js';

/** Options of {@link openDatabase}, for whichever engine the location names. */
export interface OpenDatabaseOptions {
  /** Namespace of tenants created without one (the preset's). */
  defaultNamespace?: string;
  /** PostgreSQL: connections in this process's pool (`--pool-size`). Default 10. */
  poolSize?: number;
}

/**
 * The storage at `location`, migrated: SQLite with group commit (concurrent requests
 * share one fsync), or PostgreSQL with a pool of connections (migrations run at start,
 * under a lock, so instances starting together do not race).
 */
export async function openDatabase(
  location: DatabaseLocation,
  options: OpenDatabaseOptions = {},
): Promise<Storage> {
  const { defaultNamespace } = options;
  if (location.engine === 'postgres') {
    return openPostgresStorage(location.url, {
      ...(defaultNamespace ? { defaultNamespace } : {}),
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      applicationName: 'adis-server',
      urlSetting: '--db or DATABASE_URL',
    });
  }
  return openStorage(location.path, {
    groupCommit: true,
    ...(defaultNamespace ? { defaultNamespace } : {}),
  });
}

/**
 * How a location is named in the server's output: the SQLite path, or the PostgreSQL
 * host and database without user or password.
 *
 * @example
 * ```ts
 * import { describeDatabase } from './open-database.js';
 *
 * describeDatabase({ engine: 'postgres', url: 'postgres://adis:pw@db:5432/adis' }); // 'PostgreSQL db:5432/adis'
 * ```
 */
export function describeDatabase(location: DatabaseLocation): string {
  if (location.engine === 'sqlite') return location.path;
  try {
    const url = new URL(location.url);
    return `PostgreSQL ${url.host}${url.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

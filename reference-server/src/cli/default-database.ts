/**
 * Which database the server opens: `--db`, else `DATABASE_URL`, else a default file
 * whose place depends on how the server was installed.
 */
import { resolve } from 'node:path';
import {
  type DatabaseLocation,
  databaseSetting,
  parseDatabaseLocation,
} from '../database-location.js';
import { UsageError } from './usage-error.js';

/**
 * Where the data lives without `--db`: beside the server in this repository, but in the
 * user's directory when the package is installed, since a file under node_modules is
 * deleted by the next `npm install` and data must not be lost that way.
 *
 * @example
 * ```ts
 * import { defaultDatabase } from './default-database.js';
 *
 * defaultDatabase('/repo/reference-server', '/home/ana'); // '/repo/reference-server/data/adis.db'
 * defaultDatabase('/app/node_modules/adis-server', '/home/ana'); // '/home/ana/adis.db'
 * ```
 */
export function defaultDatabase(serverRoot: string, userDir: string): string {
  return serverRoot.split(/[\\/]/).includes('node_modules')
    ? resolve(userDir, 'adis.db')
    : resolve(serverRoot, 'data/adis.db');
}

/**
 * The database that `--db`, else `DATABASE_URL` in `env`, names (a SQLite file,
 * `:memory:` or a PostgreSQL URL; relative paths from `userDir`), else the default file;
 * a URL of another engine is a usage error, never a file name.
 */
export function databaseLocation(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  serverRoot: string,
  userDir: string,
): DatabaseLocation {
  const setting = databaseSetting(flag, env);
  if (setting === undefined)
    return { engine: 'sqlite', path: defaultDatabase(serverRoot, userDir) };
  const location = parseDatabaseLocation(setting, userDir);
  if ('error' in location) throw new UsageError(location.error);
  return location;
}

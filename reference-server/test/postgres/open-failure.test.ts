/**
 * A PostgreSQL database that cannot be used is said in one shape, by the real server's
 * errors: `openPostgresStorage` names host, port and database and what to do, and
 * `adis-server` prints it as its one `error:` line (exit 1), never the URL's password.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStorage } from '../../src/storage/postgres.js';
import { StorageUnavailableError } from '../../src/storage/storage.js';
import { endCliRuns, runCli } from '../run-cli.js';
import { testPostgresUrl } from './database.js';

afterAll(endCliRuns);

/** The run's cluster URL with `change` made to it. */
function clusterUrl(change: (url: URL) => void): string {
  const url = new URL(testPostgresUrl());
  change(url);
  return url.toString();
}

/** What `openPostgresStorage(url)` rejects with. */
async function openError(url: string): Promise<Error> {
  const error = await openPostgresStorage(url, { poolWaitMs: 2000 }).then(
    async (storage) => {
      await storage.close();
      throw new Error(`${url} opened`);
    },
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error(`not an Error: ${String(error)}`);
  return error;
}

describe('opening a PostgreSQL database that cannot be used', () => {
  const { hostname, port } = new URL(testPostgresUrl());
  const at = `${hostname}:${port}`;

  it('names a database that does not exist, and how to create it', async () => {
    const error = await openError(clusterUrl((url) => (url.pathname = '/nosuchdb')));
    expect(error.message).toBe(
      `cannot use PostgreSQL at ${at}, database "nosuchdb": the database does not exist. Create it (createdb -h ${hostname} -p ${port} -U postgres nosuchdb) or name another database in the connection URL.`,
    );
    expect(error).not.toBeInstanceOf(StorageUnavailableError);
    expect((error.cause as { code?: string }).code).toBe('3D000');
  });

  it('names a role that does not exist, and how to create it', async () => {
    const error = await openError(clusterUrl((url) => (url.username = 'nobody')));
    expect(error.message).toBe(
      `cannot use PostgreSQL at ${at}, database "postgres": the role (user) "nobody" does not exist. Create it (as a superuser: createuser -h ${hostname} -p ${port} nobody) or name another user in the connection URL.`,
    );
    expect((error.cause as { code?: string }).code).toBe('28000');
  });

  it('names a port nothing listens on, still a StorageUnavailableError', async () => {
    const error = await openError(clusterUrl((url) => (url.port = '1')));
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error.message).toBe(
      `cannot use PostgreSQL at ${hostname}:1, database "postgres": nothing accepts connections there (connection refused). Start PostgreSQL there, or correct the host and port in the connection URL.`,
    );
  });

  it('adis-server prints it as one error line naming --db, exit 1, without the password', async () => {
    const url = clusterUrl((url) => {
      url.pathname = '/nosuchdb';
      url.password = 's3cret';
    });
    const run = runCli(['--port', '0', '--db', url]);
    expect(await run.exited).toBe(1);
    const { stderr } = run.output();
    expect(stderr.trim()).toBe(
      `error: cannot use PostgreSQL at ${at}, database "nosuchdb": the database does not exist. Create it (createdb -h ${hostname} -p ${port} -U postgres nosuchdb) or name another database in --db or DATABASE_URL.`,
    );
    expect(stderr).not.toContain('s3cret');
  });
});

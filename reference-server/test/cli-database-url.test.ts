/**
 * `adis-server --db <url>` and `DATABASE_URL`: a URL of an engine the server does not
 * have is a start-up error (exit 2) that creates nothing, where a URL used to become a
 * SQLite file under a folder named `postgres:` in the working directory.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliTempDir, endCliRuns, runCli, serverDir } from './run-cli.js';

afterEach(endCliRuns);

/** An empty working directory for one run. */
function tempCwd(): string {
  return cliTempDir('adis-cli-db-');
}

/**
 * The environment of a run in `cwd`: INIT_CWD (which npm sets, and the command prefers to
 * the working directory) and any inherited DATABASE_URL removed, `extra` added.
 */
function envFor(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { INIT_CWD: _initCwd, DATABASE_URL: _databaseUrl, ...env } = process.env;
  return { ...env, ...extra };
}

describe('a database URL', () => {
  it('is refused with exit 2, naming the scheme, from --db and from DATABASE_URL, creating nothing', async () => {
    const flagDir = tempCwd();
    const envDir = tempCwd();
    const fromFlag = runCli(['--port', '0', '--db', 'mysql://u@h/db'], {
      cwd: flagDir,
      env: envFor(),
    });
    const fromEnv = runCli(['--port', '0'], {
      cwd: envDir,
      env: envFor({ DATABASE_URL: 'mariadb://adis:s3cret@db.internal:3306/adis' }),
    });
    expect(await fromFlag.exited).toBe(2);
    expect(await fromEnv.exited).toBe(2);
    expect(fromFlag.output().stderr).toContain(
      'error: --db names a mysql:// database; this server supports a PostgreSQL URL (postgres://user@host:5432/db), a SQLite file path or :memory:',
    );
    expect(fromEnv.output().stderr).toContain(
      'error: DATABASE_URL names a mariadb:// database; this server supports a PostgreSQL URL (postgres://user@host:5432/db), a SQLite file path or :memory:',
    );
    // The password and host are not echoed.
    expect(fromEnv.output().stderr).not.toMatch(/s3cret|db\.internal/);
    expect(readdirSync(flagDir)).toEqual([]);
    expect(readdirSync(envDir)).toEqual([]);
    expect(readdirSync(serverDir).filter((name) => name.includes(':'))).toEqual([]);
  });

  it('gives way to --db, and DATABASE_URL alone names the SQLite file', async () => {
    const flagDir = tempCwd();
    const envDir = tempCwd();
    const flagWins = runCli(['--port', '0', '--db', ':memory:', '--quiet'], {
      cwd: flagDir,
      env: envFor({ DATABASE_URL: 'mysql://u@h/db' }),
    });
    const envPath = runCli(['--port', '0', '--seed', '0', '--quiet'], {
      cwd: envDir,
      env: envFor({ DATABASE_URL: 'from-env.db' }),
    });
    await Promise.all([flagWins.ready, envPath.ready]);
    expect(flagWins.output().stdout).toContain('Database: :memory:');
    expect(envPath.output().stdout).toContain(`Database: ${join(envDir, 'from-env.db')}`);
    expect(readdirSync(flagDir)).toEqual([]);
    expect(readdirSync(envDir)).toContain('from-env.db');
    flagWins.child.kill('SIGTERM');
    envPath.child.kill('SIGTERM');
    expect(await flagWins.exited).toBe(0);
    expect(await envPath.exited).toBe(0);
  });
});

/**
 * `--db` and `DATABASE_URL`: which one is in force, and what it names. A URL is never a
 * file name (it used to become a SQLite file under a folder named `postgres:`): a
 * PostgreSQL one names PostgreSQL, any other is refused.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DatabaseSetting,
  databaseSetting,
  parseDatabaseLocation,
} from '../src/database-location.js';

const BASE = resolve('/srv/adis');

function flag(value: string): DatabaseSetting {
  return { value, source: '--db' };
}

describe('databaseSetting', () => {
  it('takes --db over DATABASE_URL, DATABASE_URL without --db, and neither when both are absent', () => {
    const env = { DATABASE_URL: 'from-env.db' };
    expect(databaseSetting('from-flag.db', env)).toEqual({ value: 'from-flag.db', source: '--db' });
    expect(databaseSetting(undefined, env)).toEqual({
      value: 'from-env.db',
      source: 'DATABASE_URL',
    });
    expect(databaseSetting(undefined, {})).toBeUndefined();
  });

  it('reads an empty DATABASE_URL as unset', () => {
    expect(databaseSetting(undefined, { DATABASE_URL: '' })).toBeUndefined();
  });
});

describe('parseDatabaseLocation', () => {
  it('resolves SQLite paths against the base folder, and keeps :memory:', () => {
    expect(parseDatabaseLocation(flag('data/adis.db'), BASE)).toEqual({
      engine: 'sqlite',
      path: resolve(BASE, 'data/adis.db'),
    });
    expect(parseDatabaseLocation(flag('/var/lib/adis.db'), BASE)).toEqual({
      engine: 'sqlite',
      path: resolve('/var/lib/adis.db'),
    });
    expect(parseDatabaseLocation(flag(':memory:'), BASE)).toEqual({
      engine: 'sqlite',
      path: ':memory:',
    });
  });

  it('keeps a file name with a colon when written as a path, and a Windows drive', () => {
    expect(parseDatabaseLocation(flag('./backup:2024.db'), BASE)).toEqual({
      engine: 'sqlite',
      path: resolve(BASE, 'backup:2024.db'),
    });
    // One letter before the colon is a drive, not a URL scheme.
    expect(parseDatabaseLocation(flag('C:\\data\\adis.db'), BASE)).toMatchObject({
      engine: 'sqlite',
    });
  });

  it('takes postgres:// and postgresql:// URLs as PostgreSQL, kept as given', () => {
    for (const value of [
      'postgres://u@db.example.org/adis',
      'postgresql://localhost:5432/adis?sslmode=require',
      'POSTGRES://u@h/db',
    ]) {
      expect(parseDatabaseLocation(flag(value), BASE), value).toEqual({
        engine: 'postgres',
        url: value,
      });
    }
  });

  it('refuses a URL of another engine, naming its scheme and what is supported', () => {
    for (const [value, scheme] of [
      ['mysql://root@localhost/adis', 'mysql://'],
      ['mariadb://root@localhost/adis', 'mariadb://'],
      ['mongodb://localhost/adis', 'mongodb://'],
      // libpq's `postgresql:dbname` without `//` is not a connection URL node-postgres reads.
      ['postgresql:adis', 'postgresql:'],
    ] as const) {
      const result = parseDatabaseLocation(flag(value), BASE);
      expect(result, value).toEqual({
        error: expect.stringContaining(`--db names a ${scheme} database`),
      });
      expect(result, value).toEqual({
        error: expect.stringContaining(
          'this server supports a PostgreSQL URL (postgres://user@host:5432/db), a SQLite file path or :memory:',
        ),
      });
    }
  });

  it('never repeats the rest of a refused URL, which may hold a password', () => {
    const result = parseDatabaseLocation(
      { value: 'mysql://adis:s3cret-pw@db.internal/adis', source: 'DATABASE_URL' },
      BASE,
    );
    expect(result).toEqual({ error: expect.stringMatching(/^DATABASE_URL names a mysql:\/\//) });
    expect(JSON.stringify(result)).not.toMatch(/s3cret|db\.internal|adis:/);
  });

  it('refuses file: and sqlite: URIs, asking for the path itself', () => {
    for (const value of ['file:data/adis.db', 'file:///srv/adis.db', 'sqlite:///adis.db']) {
      const result = parseDatabaseLocation(flag(value), BASE);
      expect(result, value).toEqual({
        error: expect.stringContaining('give the SQLite file path itself, without the URI'),
      });
    }
  });

  it('tells how to write a file name that only looks like a scheme', () => {
    expect(parseDatabaseLocation(flag('backup:2024.db'), BASE)).toEqual({
      error:
        '--db names a backup: database; this server supports a PostgreSQL URL (postgres://user@host:5432/db), a SQLite file path or :memory: (for a file named backup:…, write ./backup:…)',
    });
  });

  it('refuses an empty value', () => {
    expect(parseDatabaseLocation(flag(''), BASE)).toEqual({
      error: '--db is empty: give a PostgreSQL URL, a SQLite file path or :memory:',
    });
  });
});

/**
 * The wording of a failed PostgreSQL open (`storage/postgres/open-failure.ts`): one shape
 * for every cause — `cannot use PostgreSQL at <host>:<port>, database "<name>": <why>.
 * <what to do>` — over the errors `pg` and Node raise, by their codes, and never the
 * URL's password.
 */
import { describe, expect, it } from 'vitest';
import { mapError } from '../src/storage/postgres/errors.js';
import {
  describeOpenFailure,
  openFailure,
  postgresTarget,
} from '../src/storage/postgres/open-failure.js';
import { StorageUnavailableError } from '../src/storage/storage.js';

/** An error as `pg` or Node raises it: a message and a code. */
function failure(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

const URL_WITH_PASSWORD = 'postgres://adis:s3cret@127.0.0.1:5432/nosuchdb';
const CLI = { urlSetting: '--db or DATABASE_URL' };

describe('describeOpenFailure', () => {
  it('says a missing database (3D000) and how to create it', () => {
    const error = failure('database "nosuchdb" does not exist', '3D000');
    expect(describeOpenFailure(error, URL_WITH_PASSWORD, CLI)).toBe(
      'cannot use PostgreSQL at 127.0.0.1:5432, database "nosuchdb": the database does not exist. Create it (createdb -h 127.0.0.1 -p 5432 -U adis nosuchdb) or name another database in --db or DATABASE_URL.',
    );
  });

  it('says a missing role (28000) and how to create it', () => {
    const error = failure('role "nobody" does not exist', '28000');
    expect(describeOpenFailure(error, 'postgres://nobody@db.internal/adis', CLI)).toBe(
      'cannot use PostgreSQL at db.internal:5432, database "adis": the role (user) "nobody" does not exist. Create it (as a superuser: createuser -h db.internal -p 5432 nobody) or name another user in --db or DATABASE_URL.',
    );
  });

  it('says another invalid authorization (28000, pg_hba.conf) with the server’s reason', () => {
    const error = failure(
      'no pg_hba.conf entry for host "10.0.0.9", user "adis", database "adis", no encryption',
      '28000',
    );
    expect(describeOpenFailure(error, 'postgres://adis@db:6543/adis', CLI)).toBe(
      'cannot use PostgreSQL at db:6543, database "adis": the server refuses the connection (no pg_hba.conf entry for host "10.0.0.9", user "adis", database "adis", no encryption). Allow this client in the server\'s pg_hba.conf, or connect as another user in --db or DATABASE_URL.',
    );
  });

  it('says a refused password (28P01) without printing it', () => {
    const error = failure('password authentication failed for user "adis"', '28P01');
    const message = describeOpenFailure(error, 'postgres://adis:s3cret@db:5432/adis', CLI);
    expect(message).toBe(
      'cannot use PostgreSQL at db:5432, database "adis": the password is refused for user "adis". Correct the password in --db or DATABASE_URL (it is not printed here).',
    );
    expect(message).not.toContain('s3cret');
  });

  it('says a refused connection (ECONNREFUSED), also once mapped to StorageUnavailableError', () => {
    const error = failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    const expected =
      'cannot use PostgreSQL at 127.0.0.1:5432, database "nosuchdb": nothing accepts connections there (connection refused). Start PostgreSQL there, or correct the host and port in --db or DATABASE_URL.';
    expect(describeOpenFailure(error, URL_WITH_PASSWORD, CLI)).toBe(expected);
    // The pool's queries map it first (errors.ts); the wording reads through.
    const mapped = mapError(error);
    expect(mapped).toBeInstanceOf(StorageUnavailableError);
    expect(describeOpenFailure(mapped, URL_WITH_PASSWORD, CLI)).toBe(expected);
  });

  it('says a refused connection to localhost, whose AggregateError has no message', () => {
    // Node tries ::1 and 127.0.0.1 and reports both in one AggregateError, message ''.
    const error = Object.assign(
      new AggregateError([failure('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
      { code: 'ECONNREFUSED' },
    );
    expect(describeOpenFailure(error, 'postgres://localhost/adis')).toBe(
      'cannot use PostgreSQL at localhost:5432, database "adis": nothing accepts connections there (connection refused). Start PostgreSQL there, or correct the host and port in the connection URL.',
    );
  });

  it('says an unknown host (ENOTFOUND)', () => {
    const error = failure('getaddrinfo ENOTFOUND db.nowhere', 'ENOTFOUND');
    expect(describeOpenFailure(error, 'postgresql://u:pw@db.nowhere:5433/adis', CLI)).toBe(
      'cannot use PostgreSQL at db.nowhere:5433, database "adis": the host db.nowhere is not found (ENOTFOUND). Correct the host in --db or DATABASE_URL, or check the machine\'s DNS.',
    );
  });

  it('says a host that does not answer, a full server, one starting up and a missing right', () => {
    const url = 'postgres://adis@db/adis';
    expect(describeOpenFailure(failure('connect ETIMEDOUT 10.0.0.1:5432', 'ETIMEDOUT'), url)).toBe(
      'cannot use PostgreSQL at db:5432, database "adis": the host does not answer (ETIMEDOUT). Check that PostgreSQL runs there and that no firewall is in between, or correct the host and port in the connection URL.',
    );
    expect(describeOpenFailure(failure('sorry, too many clients already', '53300'), url)).toMatch(
      /: the server has no connection left \(too many connections\)\. Lower --pool-size .* raise max_connections of PostgreSQL\.$/,
    );
    expect(
      describeOpenFailure(failure('the database system is starting up', '57P03'), url),
    ).toMatch(
      /: the server is starting up or recovering .*\. Start this server again in a few seconds\.$/,
    );
    expect(describeOpenFailure(failure('permission denied for schema public', '42501'), url)).toBe(
      'cannot use PostgreSQL at db:5432, database "adis": the user may not create the server\'s tables (permission denied for schema public). Grant it the right (GRANT CREATE ON SCHEMA public TO adis) or connect as the database\'s owner in the connection URL.',
    );
  });

  it('keeps the message of another error, pointing to the log for a PostgreSQL one', () => {
    const url = 'postgres://adis@db/adis';
    expect(describeOpenFailure(failure('disk full.', '53100'), url)).toBe(
      'cannot use PostgreSQL at db:5432, database "adis": disk full. See PostgreSQL\'s log for more (SQLSTATE 53100).',
    );
    // The server's own error says what to do already.
    expect(
      describeOpenFailure(
        new Error('database schema version 9 is newer than this server (3); upgrade the server'),
        url,
      ),
    ).toBe(
      'cannot use PostgreSQL at db:5432, database "adis": database schema version 9 is newer than this server (3); upgrade the server.',
    );
  });

  it('never prints the password, whatever the cause', () => {
    const url = 'postgres://adis:s3cret%21pw@db:5432/adis';
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', '3D000', '28000', '28P01', '53300', 'X']) {
      expect(describeOpenFailure(failure('failed', code), url)).not.toMatch(/s3cret/);
    }
  });
});

describe('postgresTarget', () => {
  it('reads host, port, database and user, with libpq defaults, never the password', () => {
    expect(postgresTarget('postgres://adis:pw@db.internal/adis')).toEqual({
      host: 'db.internal',
      port: '5432',
      database: 'adis',
      user: 'adis',
    });
    expect(postgresTarget('postgres:///adis?host=/var/run/postgresql')).toEqual({
      host: '/var/run/postgresql',
      port: '5432',
      database: 'adis',
      user: undefined,
    });
    expect(postgresTarget('postgres://[::1]:6000/my%20db')).toMatchObject({
      host: '[::1]',
      port: '6000',
      database: 'my db',
    });
  });

  it('names a socket folder as one', () => {
    const error = failure('database "adis" does not exist', '3D000');
    expect(describeOpenFailure(error, 'postgres:///adis?host=/var/run/postgresql')).toBe(
      'cannot use PostgreSQL at the socket in /var/run/postgresql (port 5432), database "adis": the database does not exist. Create it (createdb -h /var/run/postgresql -p 5432 adis) or name another database in the connection URL.',
    );
  });
});

describe('openFailure', () => {
  it('keeps an unreachable database a StorageUnavailableError, with its Retry-After and cause', () => {
    const driver = failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
    const mapped = mapError(driver) as StorageUnavailableError;
    const error = openFailure(mapped, URL_WITH_PASSWORD);
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect((error as StorageUnavailableError).retryAfterSeconds).toBe(mapped.retryAfterSeconds);
    expect(error.cause).toBe(driver);
    expect(error.message).toMatch(
      /^cannot use PostgreSQL at 127\.0\.0\.1:5432, database "nosuchdb": nothing accepts/,
    );
  });

  it('makes another cause a plain Error, the driver’s error as cause', () => {
    const driver = failure('database "nosuchdb" does not exist', '3D000');
    const error = openFailure(driver, URL_WITH_PASSWORD);
    expect(error).not.toBeInstanceOf(StorageUnavailableError);
    expect(error.cause).toBe(driver);
    expect(error.message).toMatch(/the database does not exist\. Create it/);
  });
});

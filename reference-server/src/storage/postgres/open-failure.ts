/**
 * How a failed open of PostgreSQL reads: one shape for every cause, naming where (host and
 * port, database), why, and what to do —
 * `cannot use PostgreSQL at 127.0.0.1:5432, database "nosuchdb": the database does not
 * exist. Create it (…) or name another …`. Before it, a refused connection read
 * `database unavailable: connect ECONNREFUSED …` and a missing database or role only
 * the server's bare `database "nosuchdb" does not exist`.
 *
 * The connection URL may hold a password: no message here prints it, nor the URL.
 */
import { StorageUnavailableError } from '../storage.js';
import { errorCode, isUnavailable } from './errors.js';

/** Where a connection URL points, without its password. */
export interface PostgresTarget {
  /** Host name or address (`localhost` when the URL names none), or a socket folder. */
  host: string;
  /** `5432` when the URL names none. */
  port: string;
  /** The database named, or undefined (PostgreSQL then takes the user's name). */
  database: string | undefined;
  /** The user named, or undefined (the driver then takes `PGUSER` or the login's name). */
  user: string | undefined;
}

/** Options of {@link describeOpenFailure} and {@link openFailure}. */
export interface OpenFailureOptions {
  /**
   * Where the operator gave the URL, for the advice ("… in --db or DATABASE_URL").
   * Default `the connection URL`.
   */
  urlSetting?: string;
}

/**
 * Where `url` points: host, port, database and user, never the password. A URL that does
 * not parse gives `unknown host` and no database, rather than an error about the error.
 *
 * @example
 * ```ts
 * import { postgresTarget } from './open-failure.js';
 *
 * postgresTarget('postgres://adis:pw@db.internal/adis');
 * // { host: 'db.internal', port: '5432', database: 'adis', user: 'adis' }
 * ```
 */
export function postgresTarget(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { host: 'unknown host', port: '5432', database: undefined, user: undefined };
  }
  const query = parsed.searchParams;
  const host = decode(parsed.hostname) || query.get('host') || 'localhost';
  const port = parsed.port || query.get('port') || '5432';
  const database = decode(parsed.pathname.replace(/^\//, '')) || undefined;
  const user = decode(parsed.username) || query.get('user') || undefined;
  return { host, port, database, user };
}

/**
 * The one-line message for `error`, met while opening the PostgreSQL database at `url`:
 * `cannot use PostgreSQL at <host>:<port>, database "<name>": <why>. <what to do>.`
 * Known causes (connection refused, host not found or not answering, role or database
 * missing, password refused, too many connections, server starting, no right to create
 * tables) get their own reason and advice; another error keeps its own message (and,
 * from PostgreSQL, a pointer to its log).
 * A {@link StorageUnavailableError} is read through to the error it wraps.
 *
 * @example
 * ```ts
 * import { describeOpenFailure } from './open-failure.js';
 *
 * const error = Object.assign(new Error('database "nosuchdb" does not exist'), { code: '3D000' });
 * describeOpenFailure(error, 'postgres://adis:pw@127.0.0.1:5432/nosuchdb');
 * // 'cannot use PostgreSQL at 127.0.0.1:5432, database "nosuchdb": the database does not
 * //  exist. Create it (createdb -h 127.0.0.1 -p 5432 -U adis nosuchdb) or name another
 * //  database in the connection URL.'
 * ```
 */
export function describeOpenFailure(
  error: unknown,
  url: string,
  options: OpenFailureOptions = {},
): string {
  const cause = underlying(error);
  const target = postgresTarget(url);
  const { reason, advice } = explain(cause, target, options.urlSetting ?? 'the connection URL');
  const database = quotedName(cause, '3D000', /database "([^"]*)"/) ?? target.database;
  const where = `${place(target)}${database === undefined ? '' : `, database ${JSON.stringify(database)}`}`;
  return `cannot use PostgreSQL at ${where}: ${reason}.${advice === '' ? '' : ` ${advice}`}`;
}

/**
 * `error`, met while opening the PostgreSQL database at `url`, as the caller should see it:
 * its message from {@link describeOpenFailure}, the original as `cause`. A database that
 * cannot be reached or take work now stays a {@link StorageUnavailableError} (with its
 * Retry-After); any other cause becomes a plain `Error`.
 */
export function openFailure(error: unknown, url: string, options: OpenFailureOptions = {}): Error {
  const message = describeOpenFailure(error, url, options);
  const cause = underlying(error);
  if (isUnavailable(cause)) {
    const retryAfterSeconds =
      error instanceof StorageUnavailableError ? error.retryAfterSeconds : undefined;
    return new StorageUnavailableError(message, {
      cause,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
  return new Error(message, { cause });
}

/** A reason ("why") and the advice ("what to do") for one cause. */
interface Explanation {
  reason: string;
  advice: string;
}

/** The reason and advice for `cause`, by its code (Node's, or PostgreSQL's SQLSTATE). */
function explain(cause: unknown, target: PostgresTarget, urlSetting: string): Explanation {
  const code = errorCode(cause);
  const message = messageOf(cause);
  const server = `-h ${target.host} -p ${target.port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return {
        reason: 'nothing accepts connections there (connection refused)',
        advice: `Start PostgreSQL there, or correct the host and port in ${urlSetting}.`,
      };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return {
        reason: `the host ${target.host} is not found (${code})`,
        advice: `Correct the host in ${urlSetting}, or check the machine's DNS.`,
      };
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return {
        reason: `the host does not answer (${code})`,
        advice: `Check that PostgreSQL runs there and that no firewall is in between, or correct the host and port in ${urlSetting}.`,
      };
    case '3D000': {
      const name = quotedName(cause, code, /database "([^"]*)"/) ?? target.database ?? '<name>';
      const user = target.user === undefined ? '' : ` -U ${target.user}`;
      return {
        reason: 'the database does not exist',
        advice: `Create it (createdb ${server}${user} ${name}) or name another database in ${urlSetting}.`,
      };
    }
    case '28000': {
      const role = quotedName(cause, code, /role "([^"]*)" does not exist/);
      if (role !== undefined) {
        return {
          reason: `the role (user) ${JSON.stringify(role)} does not exist`,
          advice: `Create it (as a superuser: createuser ${server} ${role}) or name another user in ${urlSetting}.`,
        };
      }
      return {
        reason: `the server refuses the connection (${message})`,
        advice: `Allow this client in the server's pg_hba.conf, or connect as another user in ${urlSetting}.`,
      };
    }
    case '28P01':
      return {
        reason: `the password is refused${target.user === undefined ? '' : ` for user ${JSON.stringify(target.user)}`}`,
        advice: `Correct the password in ${urlSetting} (it is not printed here).`,
      };
    case '53300':
      return {
        reason: 'the server has no connection left (too many connections)',
        advice:
          "Lower --pool-size of this server's instances, or raise max_connections of PostgreSQL.",
      };
    case '57P03':
      return {
        reason: 'the server is starting up or recovering and takes no connections yet',
        advice: 'Start this server again in a few seconds.',
      };
    case '42501':
      return {
        reason: `the user may not create the server's tables (${message})`,
        advice: `Grant it the right (GRANT CREATE ON SCHEMA public TO ${target.user ?? '<user>'}) or connect as the database's owner in ${urlSetting}.`,
      };
    default:
      if (message.includes('timeout exceeded when trying to connect')) {
        return {
          reason: 'no connection was made in time (timeout)',
          advice: `Check that PostgreSQL runs there and answers, or correct the host and port in ${urlSetting}.`,
        };
      }
      // The server's own errors (a schema newer than it) say what to do already.
      return {
        reason: message === '' ? 'an error without a message' : message.replace(/\.$/, ''),
        advice: code === undefined ? '' : `See PostgreSQL's log for more (SQLSTATE ${code}).`,
      };
  }
}

/** The error a {@link StorageUnavailableError} wraps, else `error`. */
function underlying(error: unknown): unknown {
  return error instanceof StorageUnavailableError && error.cause !== undefined
    ? error.cause
    : error;
}

/** `error`'s message, or the message of the first error an AggregateError holds. */
function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '' && error.errors.length > 0) {
    return messageOf(error.errors[0]);
  }
  return error instanceof Error ? error.message : String(error);
}

/** The name `pattern` finds in the message of an error of SQLSTATE `code`. */
function quotedName(error: unknown, code: string, pattern: RegExp): string | undefined {
  if (errorCode(error) !== code) return undefined;
  return pattern.exec(messageOf(error))?.[1];
}

/** `host:port`, an IPv6 address bracketed, a socket folder said as one. */
function place(target: PostgresTarget): string {
  if (target.host.startsWith('/')) return `the socket in ${target.host} (port ${target.port})`;
  const host =
    target.host.includes(':') && !target.host.startsWith('[') ? `[${target.host}]` : target.host;
  return `${host}:${target.port}`;
}

/** A URL part percent-decoded, or as it is when it does not decode. */
function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

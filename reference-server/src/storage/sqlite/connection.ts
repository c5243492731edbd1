/**
 * The one better-sqlite3 connection of a {@link SqliteStorage}: opening it (the pragmas
 * that make it durable and fast) and its caches of prepared statements, and
 * {@link RepositoryConnection}, what each repository is given of it. Repositories take
 * that, not the storage: each stays one concern over a connection, the shape an engine
 * with its own connections (a pool) can give its own repositories.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

/** Most distinct statements the bounded cache keeps prepared (see {@link SqliteConnection.boundedStatement}). */
const BOUNDED_STATEMENT_CACHE = 200;

/** A unit of work of the storage that owns the connection (its `transaction`). */
export type RunTransaction = <T>(fn: () => T) => T;

/** What a repository uses of the connection and of the storage that owns it. */
export interface RepositoryConnection {
  /** The prepared statement of `sql`, from the connection's cache. */
  statement(sql: string): Database.Statement;
  /**
   * The prepared statement of `sql`, from a bounded cache: for SQL that varies with
   * client input (filters), which must not grow the cache without end.
   */
  boundedStatement(sql: string): Database.Statement;
  /** Whether a transaction is open on the connection. */
  inTransaction(): boolean;
  /** A unit of work of the owner (savepoint, batch or transaction: see commits.ts). */
  transaction: RunTransaction;
}

/** How to open the connection (the engine's part of `SqliteStorageOptions`). */
export interface ConnectionOptions {
  /** Milliseconds to wait for a lock held by another connection. Default 5000. */
  busyTimeoutMs?: number;
  /** SQLite page cache in KiB. Default 65536. */
  cacheKiB?: number;
  /** Whether the storage batches commits (group commit, see commits.ts). */
  groupCommit: boolean;
}

/**
 * An open SQLite database with the storage's pragmas, and its statement caches.
 */
export class SqliteConnection {
  readonly db: Database.Database;
  /**
   * Whether the storage fsyncs the WAL itself, off the event loop, instead of SQLite
   * inside each COMMIT (see commits.ts): group commit on a WAL file.
   */
  readonly syncOffLoop: boolean;
  /** The WAL file's path (for that fdatasync). */
  readonly walPath: string;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly boundedStatements = new Map<string, Database.Statement>();

  /** Opens `path` (a file, its folder created, or `':memory:'`); closes it again if a pragma fails. */
  constructor(path: string, options: ConnectionOptions) {
    this.walPath = `${resolve(path)}-wal`;
    if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    try {
      const journal = this.db.pragma('journal_mode = WAL', { simple: true });
      this.syncOffLoop =
        options.groupCommit && journal === 'wal' && path !== ':memory:' && path !== '';
      // NORMAL only where the storage fsyncs the WAL itself before acknowledging.
      this.db.pragma(`synchronous = ${this.syncOffLoop ? 'NORMAL' : 'FULL'}`);
      this.db.pragma('foreign_keys = ON');
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      this.db.pragma(`cache_size = ${-Math.max(0, Math.floor(options.cacheKiB ?? 65536))}`);
      // Each request's unit is a savepoint, and a savepoint keeps the pages it changes in
      // a sub-journal, a temporary file by default: in memory, a signature helper call
      // on a file database ran about a fifth faster (1,097–1,147 → 1,334–1,335 calls/s
      // with 10 clients, runs alternated).
      this.db.pragma('temp_store = MEMORY');
      // A checkpoint copies the WAL into the database and fsyncs both, on the event
      // loop. Under write load the default (every 1,000 pages) ran several times a
      // second; every 16,384 pages (64 MB of WAL) it runs a sixteenth as often and copies
      // a page written many times once (1,145–1,238 → 1,384–1,414 calls/s, alternated).
      if (options.groupCommit) this.db.pragma('wal_autocheckpoint = 16384');
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /**
   * The prepared statement of `sql`, cached by its text: preparing costs more than
   * running, so hot paths never prepare. For SQL from a fixed set (the code's own).
   */
  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Like {@link statement} for SQL that varies with what a client sends (the number and
   * kind of filters of a collection query): the cache is bounded (least recently used
   * goes) instead of growing with every combination.
   */
  boundedStatement(sql: string): Database.Statement {
    let statement = this.boundedStatements.get(sql);
    if (statement) {
      this.boundedStatements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.boundedStatements.size >= BOUNDED_STATEMENT_CACHE) {
        const oldest = this.boundedStatements.keys().next().value;
        if (oldest !== undefined) this.boundedStatements.delete(oldest);
      }
    }
    this.boundedStatements.set(sql, statement);
    return statement;
  }

  /** Whether a transaction is open. */
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /** Whether the database is still open. */
  get open(): boolean {
    return this.db.open;
  }

  /** Closes the database (pending commits are the storage's to flush first). */
  close(): void {
    this.db.close();
  }
}

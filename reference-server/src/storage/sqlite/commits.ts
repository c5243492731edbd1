/**
 * Units of work and commits of a {@link SqliteStorage}: transactions, group commit,
 * holds, commit marks and durability.
 *
 * Durability: WAL journal, and a committed write survives a power cut or a crash:
 * without group commit through `synchronous = FULL` (NORMAL alone would only protect
 * against application crashes in WAL mode), with it through an fsync of the WAL before
 * the write is acknowledged (below).
 *
 * Group commit (option `groupCommit`, the command line server's mode): a commit costs an
 * fsync (about half of a helper call), so the transactions of concurrent requests share
 * one. The first transaction opens a batch (`BEGIN IMMEDIATE`); every top-level
 * {@link SqliteCommits.transaction} runs in its own SAVEPOINT inside it, so a unit that
 * throws rolls back alone and the others stay; the COMMIT runs on the next turn of the
 * event loop (`setImmediate`), after every request that arrived meanwhile has run its
 * units. {@link SqliteCommits.durable} resolves after that COMMIT has returned (or
 * rejects with {@link CommitError} if it failed), and the HTTP layer answers only then.
 * There is one connection: a request's own reads see the open batch, which is fine
 * because its answer waits for the same commit; see `http/answer-after-commit.ts` for
 * why no answer ever shows a write that is not yet committed.
 *
 * The fsync off the event loop (group commit on a WAL file): better-sqlite3 is
 * synchronous, so with `synchronous = FULL` every COMMIT stops the server for the fsync
 * of the WAL. Instead the connection runs `synchronous = NORMAL` (COMMIT writes the WAL
 * frames but does not fsync them) and the storage fsyncs the WAL file itself, on
 * libuv's thread pool (`fs.fdatasync` on its own descriptor of the `-wal` file), while
 * the event loop runs the next batch. A batch is durable, and `durable` resolves, once
 * an fdatasync that started after its COMMIT has returned: that is what FULL would have
 * done inside the COMMIT, so an acknowledged write survives a power cut all the same.
 * Checkpoints are unchanged: with NORMAL, SQLite still syncs the WAL before copying it
 * into the database and the database after. One fdatasync runs at a time; batches
 * committed meanwhile share the next. If one fails the storage refuses to acknowledge
 * anything more (CommitError): after a failed fsync Linux may have dropped the dirty
 * pages, so a later success would prove nothing; restart the server.
 * (Another process reading the file may see a committed batch before its fdatasync;
 * the server's own answers never do.)
 */
import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { CommitError } from '../storage.js';
import type { SqliteConnection } from './connection.js';

/** The transaction statements, prepared once. */
interface TransactionStatements {
  begin: Database.Statement;
  beginImmediate: Database.Statement;
  commit: Database.Statement;
  rollback: Database.Statement;
  savepoint: Database.Statement;
  release: Database.Statement;
  rollbackTo: Database.Statement;
}

/** The open group-commit batch and the promise its requests await. */
interface Batch {
  id: number;
  done: Promise<void>;
  resolve(): void;
  reject(error: CommitError): void;
}

const RESOLVED: Promise<void> = Promise.resolve();

/**
 * The commits of one connection (see the top of this module).
 */
export class SqliteCommits {
  /** Whether transactions are batched into shared commits (option `groupCommit`). */
  readonly groupCommit: boolean;
  private readonly connection: SqliteConnection;
  /** Told when a batch rolled back: caches of what it wrote must be read again. */
  private readonly onRollback: () => void;
  private readonly tx: TransactionStatements;
  /** The open batch (group commit), if any. */
  private batch: Batch | undefined;
  private nextBatchId = 1;
  /** The last batch whose commit failed: writes since a mark before it are lost. */
  private failure: { batchId: number; error: CommitError } | undefined;
  private commitCount = 0;
  /** The WAL file's descriptor once opened (for fdatasync only). */
  private walFd: number | undefined;
  /** Committed batches waiting for the next fdatasync, and those the running one covers. */
  private unsynced: Batch[] = [];
  private syncing: Batch[] = [];
  private syncRunning = false;
  /** Holds on commits ({@link holdCommit}) not yet released. */
  private holds = 0;

  constructor(
    connection: SqliteConnection,
    options: { groupCommit: boolean; onRollback: () => void },
  ) {
    this.connection = connection;
    this.groupCommit = options.groupCommit;
    this.onRollback = options.onRollback;
    const db = connection.db;
    // The savepoint name is ours alone: better-sqlite3's own nested transactions (in
    // the migrations, or code given `database`) use theirs.
    this.tx = {
      begin: db.prepare('BEGIN'),
      beginImmediate: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT adis_unit'),
      release: db.prepare('RELEASE adis_unit'),
      rollbackTo: db.prepare('ROLLBACK TO adis_unit'),
    };
  }

  /** How many transactions were committed: each batch counts once, however many units it held. */
  get commits(): number {
    return this.commitCount;
  }

  /**
   * Runs `fn` as one unit of work (see {@link Storage.transaction}). Outside any
   * transaction: its own transaction, committed before returning; with group commit, or
   * while a commit is held ({@link holdCommit}), a savepoint in the open batch (opened
   * if needed), committed on the next turn of the event loop or at the last release.
   * Inside one: a savepoint, so helpers that call insertRecord inside their own
   * transaction stay atomic, and a part that fails rolls back alone.
   */
  transaction<T>(fn: () => T): T {
    const connection = this.connection;
    if (this.groupCommit || this.batch || this.holds > 0) {
      // SQLite ends the transaction itself on some errors (disk full, I/O): the batch's
      // earlier units are gone with it, so its requests must hear so.
      if (this.batch && !connection.inTransaction) this.failBatch(new Error('SQLite rolled back'));
      if (!this.batch && !connection.inTransaction) this.openBatch();
      return this.unit(fn);
    }
    if (connection.inTransaction) return this.unit(fn);
    this.tx.begin.run();
    try {
      const result = notAPromise(fn());
      this.tx.commit.run();
      this.commitCount++;
      return result;
    } catch (error) {
      if (connection.inTransaction) this.tx.rollback.run();
      throw error;
    }
  }

  /**
   * {@link transaction} for a function that awaits. A commit is held while it runs, so
   * no batch is committed with its savepoint half done; the caller runs one at a time
   * (see `sqlite/unit-lock.ts`), so savepoints nest as the calls do.
   */
  async transactionAsync<T>(fn: () => T | Promise<T>): Promise<T> {
    const connection = this.connection;
    if (!this.groupCommit && !this.batch && this.holds === 0 && !connection.inTransaction) {
      this.tx.begin.run();
      try {
        const result = await fn();
        this.tx.commit.run();
        this.commitCount++;
        return result;
      } catch (error) {
        if (connection.inTransaction) this.tx.rollback.run();
        throw error;
      }
    }
    if (!connection.inTransaction) {
      if (this.batch) this.failBatch(new Error('SQLite rolled back'));
      if (!this.batch) this.openBatch();
    }
    const release = this.holdCommit();
    try {
      this.tx.savepoint.run();
      try {
        const result = await fn();
        this.tx.release.run();
        return result;
      } catch (error) {
        this.undoUnit(error);
        throw error;
      }
    } finally {
      release();
    }
  }

  /**
   * A unit threw: its savepoint is rolled back alone; if SQLite already rolled the whole
   * transaction back, the batch it was in is lost and its requests are told.
   */
  private undoUnit(error: unknown): void {
    if (this.connection.inTransaction) {
      this.tx.rollbackTo.run();
      this.tx.release.run();
    } else if (this.batch) {
      this.failBatch(error);
    }
  }

  /** `fn` in a savepoint: released when it returns, rolled back alone when it throws. */
  private unit<T>(fn: () => T): T {
    this.tx.savepoint.run();
    try {
      const result = notAPromise(fn());
      this.tx.release.run();
      return result;
    } catch (error) {
      this.undoUnit(error);
      throw error;
    }
  }

  /** Opens a batch: BEGIN IMMEDIATE now, COMMIT on the next turn of the event loop. */
  private openBatch(): void {
    let resolve!: () => void;
    let reject!: (error: CommitError) => void;
    const done = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // Handled here so that a failed batch nobody awaits is no unhandled rejection;
    // every awaiter still gets the rejection.
    done.catch(() => undefined);
    this.tx.beginImmediate.run();
    this.batch = { id: this.nextBatchId++, done, resolve, reject };
    setImmediate(() => this.commitBatch());
  }

  /**
   * Commits the open batch, if any; false when the commit failed. While a commit is
   * held it waits (the last release commits) unless `force` ({@link flush}).
   */
  private commitBatch(force = false): boolean {
    const batch = this.batch;
    if (!batch || !this.connection.open) return true;
    if (this.holds > 0 && !force) return true;
    if (!this.connection.inTransaction) {
      this.failBatch(new Error('SQLite rolled back'));
      return false;
    }
    try {
      this.tx.commit.run();
    } catch (error) {
      this.failBatch(error);
      return false;
    }
    this.batch = undefined;
    this.commitCount++;
    if (!this.connection.syncOffLoop) {
      batch.resolve();
      return true;
    }
    this.unsynced.push(batch);
    this.syncWal();
    return true;
  }

  /**
   * Starts an fdatasync of the WAL for the batches committed so far, unless one is
   * running (its end starts the next). Their requests are answered when it returns.
   */
  private syncWal(): void {
    if (this.failure?.batchId === Infinity) {
      // Broken by a failed fdatasync: later batches are refused too, never left waiting.
      for (const batch of this.unsynced) batch.reject(this.failure.error);
      this.unsynced = [];
      return;
    }
    if (this.syncRunning || this.unsynced.length === 0) return;
    let fd: number;
    try {
      fd = this.walDescriptor();
    } catch (error) {
      this.syncFailed(error);
      return;
    }
    this.syncing = this.unsynced;
    this.unsynced = [];
    this.syncRunning = true;
    fdatasync(fd, (error) => {
      this.syncRunning = false;
      const covered = this.syncing;
      this.syncing = [];
      if (error) {
        this.syncing = covered;
        this.syncFailed(error);
        return;
      }
      for (const batch of covered) batch.resolve();
      if (this.connection.open) this.syncWal();
      else this.closeWal();
    });
  }

  private walDescriptor(): number {
    // Read-only is enough for fdatasync on Linux and macOS; this never writes.
    this.walFd ??= openSync(this.connection.walPath, 'r');
    return this.walFd;
  }

  /** An fdatasync failed: nothing committed since the last good one may be acknowledged. */
  private syncFailed(cause: unknown): void {
    const error = new CommitError(
      `fsync of the WAL failed; nothing more is acknowledged, restart the server: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.failure = { batchId: Infinity, error };
    for (const batch of [...this.syncing, ...this.unsynced]) batch.reject(error);
    this.syncing = [];
    this.unsynced = [];
  }

  /**
   * Closes the WAL descriptor, unless an fdatasync is running (its end closes it once
   * the database is closed). For {@link SqliteStorage.close}, after the database.
   */
  closeWal(): void {
    if (this.walFd === undefined || this.syncRunning) return;
    closeSync(this.walFd);
    this.walFd = undefined;
  }

  /** Rolls the open batch back and rejects its requests: none of its writes is kept. */
  private failBatch(cause: unknown): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    if (this.connection.open && this.connection.inTransaction) {
      try {
        this.tx.rollback.run();
      } catch {
        // The transaction is gone either way; the error that matters is `cause`.
      }
    }
    const error = new CommitError(
      `a commit failed, its writes are lost: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.failure = { batchId: batch.id, error };
    this.onRollback();
    batch.reject(error);
  }

  /**
   * Holds commits back until released (see {@link Storage.holdCommit}). With group
   * commit the open batch, and any batch opened meanwhile, waits for the last release
   * and is then committed on the next turn of the event loop, so that requests arriving
   * meanwhile still share it; without, writes meanwhile go into a batch as with group
   * commit, committed at once by the last release.
   */
  holdCommit(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      if (this.holds > 0 || !this.batch) return;
      if (this.groupCommit) setImmediate(() => this.commitBatch());
      else this.commitBatch();
    };
  }

  /** See {@link Storage.commitMark}. */
  commitMark(): number {
    return this.batch ? this.batch.id : this.nextBatchId;
  }

  /** See {@link Storage.durable}. */
  durable(mark: number = this.commitMark()): Promise<void> {
    if (this.failure && this.failure.batchId >= mark) return Promise.reject(this.failure.error);
    // Batches become durable in order, so the newest pending one is the one to await.
    const newest = this.batch ?? this.unsynced.at(-1) ?? this.syncing.at(-1);
    return newest && newest.id >= mark ? newest.done : RESOLVED;
  }

  /** See {@link Storage.flush}: commits the open batch and fsyncs the WAL, synchronously. */
  flush(): void {
    if (!this.commitBatch(true)) throw this.failure?.error ?? new CommitError('a commit failed');
    if (this.failure?.batchId === Infinity) throw this.failure.error;
    const pending = [...this.syncing, ...this.unsynced];
    if (pending.length === 0) return;
    try {
      fdatasyncSync(this.walDescriptor());
    } catch (error) {
      this.syncFailed(error);
      throw this.failure?.error;
    }
    this.unsynced = [];
    for (const batch of pending) batch.resolve();
  }
}

/**
 * A transaction function's result, refused when it is a promise: the transaction would
 * end before the work it was meant to hold (better-sqlite3 refuses them the same way).
 */
function notAPromise<T>(result: T): T {
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    throw new TypeError('a transaction function must not return a promise');
  }
  return result;
}

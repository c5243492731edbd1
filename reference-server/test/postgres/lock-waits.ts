/**
 * What PostgreSQL itself says about a session waiting on a lock (`pg_stat_activity`), so
 * that a test shows a statement did not wait for another transaction by asking the
 * server, not by timing the statement: a time bound fails on a loaded machine.
 */
import pg from 'pg';

/** A watch on the lock waits of one database. */
export interface LockWaitWatch {
  /** Resolves once a session of the database waits on a lock; never, if none does. */
  readonly waiting: Promise<void>;
  /** Ends the watch and its connection. */
  stop(): Promise<void>;
}

/**
 * Watches the database at `url` for a session waiting on a heavyweight lock (a row, a
 * table, an advisory lock, another transaction's id), until `stop()`.
 *
 * @example
 * ```ts
 * const watch = watchLockWaits(db.url);
 * const first = await Promise.race([work.then(() => 'done'), watch.waiting.then(() => 'waited')]);
 * await watch.stop();
 * expect(first).toBe('done');
 * ```
 */
export function watchLockWaits(url: string): LockWaitWatch {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  let stopped = false;
  const waiting = (async () => {
    await client.connect();
    while (!stopped) {
      const { rowCount } = await client.query(
        `SELECT 1 FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (rowCount) return true;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return false;
  })();
  const watched = waiting.catch((error: unknown) => {
    if (!stopped) throw error;
    return false;
  });
  // Only a wait seen resolves it: a watch stopped first stays pending.
  const seenWaiting = watched.then((seen) => (seen ? undefined : new Promise<void>(() => {})));
  // A failure reaches whoever awaits it; unawaited, it must not be an unhandled rejection.
  seenWaiting.catch(() => undefined);
  return {
    waiting: seenWaiting,
    async stop() {
      stopped = true;
      await watched.catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * {@link Storage} on SQLite: the synchronous {@link SqliteEngine} (`sqlite/engine.ts`,
 * which composes the repositories in `sqlite/`), made asynchronous. Every call passes
 * through one {@link UnitLock}: a transaction runs alone on the connection from start
 * to end, although it awaits, and calls from outside it wait their turn (see
 * `sqlite/unit-lock.ts` for why). With nothing running a call is answered at once.
 */
import type Database from 'better-sqlite3';
import type { IdempotencyStore } from './idempotency-store.js';
import type { RecordStore } from './records-store.js';
import { SqliteEngine, type SqliteStorageOptions } from './sqlite/engine.js';
import { locked } from './sqlite/locked.js';
import { UnitLock } from './sqlite/unit-lock.js';
import type { SqliteWebhookStore } from './sqlite/webhooks.js';
import type { Storage, UnitOptions } from './storage.js';
import type { TenantStore } from './tenant-store.js';
import type { WebhookStore } from './webhook-store.js';

export type { SqliteStorageOptions } from './sqlite/engine.js';
export { SqliteEngine } from './sqlite/engine.js';
export { MIGRATIONS } from './sqlite/migrations.js';
export { hashToken } from './token-hash.js';

/**
 * SQLite storage. `path` is a file (its folder is created) or `':memory:'`.
 *
 * @example
 * ```ts
 * import { SqliteStorage } from 'adis-server';
 *
 * const storage = new SqliteStorage(':memory:');
 * const tenant = await storage.tenants.ensure('demo');
 * await storage.records.count({ tenantId: tenant.id, kind: 'person' }); // 0
 * await storage.close();
 * ```
 */
export class SqliteStorage implements Storage {
  readonly engine = 'sqlite' as const;
  /**
   * The synchronous engine, for tools that own the database alone (tests, benchmarks).
   *
   * @internal
   */
  readonly sqlite: SqliteEngine;
  readonly webhooks: WebhookStore;
  readonly tenants: TenantStore;
  readonly records: RecordStore;
  readonly idempotency: IdempotencyStore;
  private readonly lock = new UnitLock();

  constructor(path: string, options: SqliteStorageOptions = {}) {
    const sqlite = new SqliteEngine(path, options);
    this.sqlite = sqlite;
    this.webhooks = lockedWebhooks(sqlite.webhooks, this.lock);
    // Every call of the engine's synchronous sub-stores passes the unit lock; SQLite runs
    // one unit at a time, so reads and look-ups need no intent (their options are not
    // passed on).
    this.tenants = locked(sqlite.tenants, this.lock);
    this.records = locked(sqlite.records, this.lock);
    this.idempotency = locked(sqlite.idempotency, this.lock);
  }

  get created(): boolean {
    return this.sqlite.created;
  }
  get path(): string {
    return this.sqlite.path;
  }
  get groupCommit(): boolean {
    return this.sqlite.groupCommit;
  }
  /** Commits made so far (each group-commit batch once): for tests and benchmarks. */
  get commits(): number {
    return this.sqlite.commits;
  }
  /** The raw better-sqlite3 handle, for the benchmark's query plans and for backups. */
  get database(): Database.Database {
    return this.sqlite.database;
  }

  transaction<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.lock.exclusive(() => this.sqlite.transactionAsync(fn));
  }

  /**
   * Holds the batch's commit until `fn` ends (SQLite has one connection: the writes of
   * the units inside `fn` join the open batch, whatever else joins it). `detached`
   * changes nothing here: holds are not nested.
   */
  async unit<T>(fn: () => Promise<T>, _options?: UnitOptions): Promise<T> {
    const release = this.sqlite.holdCommit();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  commitMark(): number {
    return this.sqlite.commitMark();
  }

  durable(mark?: number): Promise<void> {
    return this.sqlite.durable(mark);
  }

  flush(): Promise<void> {
    return this.lock.call(() => this.sqlite.flush());
  }

  /** Nothing to refresh: see {@link Storage.analyze}. */
  analyze(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return this.lock.call(() => this.sqlite.close());
  }
}

/** The engine's webhook store, each call under the storage's unit lock. */
function lockedWebhooks(store: SqliteWebhookStore, lock: UnitLock): WebhookStore {
  return {
    addSubscription: (...a) => lock.call(() => store.addSubscription(...a)),
    replaceFileSubscriptions: (...a) => lock.call(() => store.replaceFileSubscriptions(...a)),
    deleteSubscription: (...a) => lock.call(() => store.deleteSubscription(...a)),
    getSubscription: (...a) => lock.call(() => store.getSubscription(...a)),
    listSubscriptions: (...a) => lock.call(() => store.listSubscriptions(...a)),
    hasSubscribers: (...a) => lock.call(() => store.hasSubscribers(...a)),
    appendEvent: (...a) => lock.call(() => store.appendEvent(...a)),
    get appendedCount() {
      return store.appendedCount;
    },
    announceCommitted: () => store.announceCommitted(),
    watchCommitted: (watcher) => store.watchCommitted(watcher),
    eventsAfter: (...a) => lock.call(() => store.eventsAfter(...a)),
    recordAttempt: (...a) => lock.call(() => store.recordAttempt(...a)),
    retryNow: (...a) => lock.call(() => store.retryNow(...a)),
    claimSubscription: (...a) => lock.call(() => store.claimSubscription(...a)),
    releaseSubscription: (...a) => lock.call(() => store.releaseSubscription(...a)),
    skipTo: (...a) => lock.call(() => store.skipTo(...a)),
    listAttempts: (...a) => lock.call(() => store.listAttempts(...a)),
    pruneEvents: () => lock.call(() => store.pruneEvents()),
  };
}

/**
 * Opens (creating and migrating when needed) the SQLite database at `path`.
 *
 * @example
 * ```ts
 * import { openStorage } from 'adis-server';
 *
 * const storage = openStorage('data/adis.db', { groupCommit: true }); // concurrent requests share a commit
 * await storage.tenants.ensure('demo');
 * ```
 */
export function openStorage(path: string, options: SqliteStorageOptions = {}): SqliteStorage {
  return new SqliteStorage(path, options);
}

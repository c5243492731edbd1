/**
 * {@link Storage} on SQLite: the synchronous {@link SqliteEngine} (`sqlite/engine.ts`,
 * which composes the repositories in `sqlite/`), made asynchronous. Every call passes
 * through one {@link UnitLock}: a transaction runs alone on the connection from start
 * to end, although it awaits, and calls from outside it wait their turn (see
 * `sqlite/unit-lock.ts` for why). With nothing running a call is answered at once.
 */
import type Database from 'better-sqlite3';
import { SqliteEngine, type SqliteStorageOptions } from './sqlite/engine.js';
import { UnitLock } from './sqlite/unit-lock.js';
import type { SqliteWebhookStore } from './sqlite/webhooks.js';
import type { Storage, UnitOptions } from './storage.js';
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
 * const storage = new SqliteStorage(':memory:');
 * const tenant = await storage.ensureTenant('demo');
 * await storage.countRecords({ tenantId: tenant.id, kind: 'person' }); // 0
 * await storage.close();
 * ```
 */
export class SqliteStorage implements Storage {
  readonly engine = 'sqlite' as const;
  /** The synchronous engine, for tools that own the database alone (tests, benchmarks). */
  readonly sqlite: SqliteEngine;
  readonly webhooks: WebhookStore;
  private readonly lock = new UnitLock();

  constructor(path: string, options: SqliteStorageOptions = {}) {
    const sqlite = new SqliteEngine(path, options);
    this.sqlite = sqlite;
    this.webhooks = lockedWebhooks(sqlite.webhooks, this.lock);
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

  ensureTenant: Storage['ensureTenant'] = (...a) =>
    this.lock.call(() => this.sqlite.ensureTenant(...a));
  getTenant: Storage['getTenant'] = (...a) => this.lock.call(() => this.sqlite.getTenant(...a));
  putApiKey: Storage['putApiKey'] = (...a) => this.lock.call(() => this.sqlite.putApiKey(...a));
  removeApiKeys: Storage['removeApiKeys'] = (...a) =>
    this.lock.call(() => this.sqlite.removeApiKeys(...a));
  authenticate: Storage['authenticate'] = (...a) =>
    this.lock.call(() => this.sqlite.authenticate(...a));
  getSetting: Storage['getSetting'] = (...a) => this.lock.call(() => this.sqlite.getSetting(...a));
  setSetting: Storage['setSetting'] = (...a) => this.lock.call(() => this.sqlite.setSetting(...a));
  insertRecord: Storage['insertRecord'] = (...a) =>
    this.lock.call(() => this.sqlite.insertRecord(...a));
  insertRecords: Storage['insertRecords'] = (...a) =>
    this.lock.call(() => this.sqlite.insertRecords(...a));
  updateRecord: Storage['updateRecord'] = (...a) =>
    this.lock.call(() => this.sqlite.updateRecord(...a));
  deleteRecord: Storage['deleteRecord'] = (...a) =>
    this.lock.call(() => this.sqlite.deleteRecord(...a));
  // SQLite runs one unit at a time: reads and look-ups need no intent.
  getRecord: Storage['getRecord'] = (tenantId, kind, id) =>
    this.lock.call(() => this.sqlite.getRecord(tenantId, kind, id));
  countRecords: Storage['countRecords'] = (...a) =>
    this.lock.call(() => this.sqlite.countRecords(...a));
  listRecords: Storage['listRecords'] = (...a) =>
    this.lock.call(() => this.sqlite.listRecords(...a));
  hasRecordAfter: Storage['hasRecordAfter'] = (...a) =>
    this.lock.call(() => this.sqlite.hasRecordAfter(...a));
  findByIdentifier: Storage['findByIdentifier'] = (...a) =>
    this.lock.call(() => this.sqlite.findByIdentifier(...a));
  findByKey: Storage['findByKey'] = (tenantId, kind, name, value) =>
    this.lock.call(() => this.sqlite.findByKey(tenantId, kind, name, value));
  findByParents: Storage['findByParents'] = (tenantId, kind, parents) =>
    this.lock.call(() => this.sqlite.findByParents(tenantId, kind, parents));
  tenantOfRecord: Storage['tenantOfRecord'] = (...a) =>
    this.lock.call(() => this.sqlite.tenantOfRecord(...a));
  totalsOf: Storage['totalsOf'] = (...a) => this.lock.call(() => this.sqlite.totalsOf(...a));
  childrenOf: Storage['childrenOf'] = (...a) => this.lock.call(() => this.sqlite.childrenOf(...a));
  findIdempotentAnswer: Storage['findIdempotentAnswer'] = (...a) =>
    this.lock.call(() => this.sqlite.findIdempotentAnswer(...a));
  saveIdempotentAnswer: Storage['saveIdempotentAnswer'] = (...a) =>
    this.lock.call(() => this.sqlite.saveIdempotentAnswer(...a));

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
 * const storage = openStorage(':memory:');
 * await storage.ensureTenant('demo');
 * ```
 */
export function openStorage(path: string, options: SqliteStorageOptions = {}): SqliteStorage {
  return new SqliteStorage(path, options);
}

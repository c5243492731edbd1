/**
 * {@link Storage} on SQLite through better-sqlite3.
 *
 * Durability: WAL journal, and a committed write survives a power cut or a crash:
 * without group commit through `synchronous = FULL` (NORMAL alone would only protect
 * against application crashes in WAL mode), with it through an fsync of the WAL before
 * the write is acknowledged (below). Migrations live in code: `PRAGMA user_version` is
 * the schema version and {@link MIGRATIONS} the ordered list of steps.
 *
 * Group commit (option `groupCommit`, the command line server's mode): a commit costs an
 * fsync (about half of a helper call), so the transactions of concurrent requests share
 * one. The first transaction opens a batch (`BEGIN IMMEDIATE`); every top-level
 * {@link SqliteStorage.transaction} runs in its own SAVEPOINT inside it, so a unit that
 * throws rolls back alone and the others stay; the COMMIT runs on the next turn of the
 * event loop (`setImmediate`), after every request that arrived meanwhile has run its
 * units. {@link SqliteStorage.durable} resolves after that COMMIT has returned (or
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
import { createHash } from 'node:crypto';
import { closeSync, fdatasync, fdatasyncSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { recordFromJson } from './doc-json.js';
import { KeyCache } from './key-cache.js';
import { SqliteWebhookStore } from './sqlite-webhooks.js';
import {
  type Access,
  type ApiKeyInfo,
  type ChildRef,
  type CollectionScope,
  CommitError,
  type DateFilter,
  DuplicateIdentifierError,
  type IdempotencyKeyRef,
  type IdempotentAnswer,
  type PageQuery,
  type ParentRef,
  type RecordFilter,
  type RecordWrite,
  type Storage,
  type StoredRecord,
  type Tenant,
} from './storage.js';

type Db = Database.Database;

/**
 * Expired idempotent answers each save deletes at most: twice the rate they expire at
 * (one save, one expiry a retention period later), so the table never grows past about
 * one period of answers, and a save never pays for a long sweep.
 */
const IDEMPOTENT_EXPIRY_BATCH = 2;

/** Contributions and totals are stored as integers in units of 1/10000. */
const TOTAL_SCALE = 10000;

/**
 * LIMIT and OFFSET of a page of a collection. `? + 0`, not a bare `?`: SQLite plans a
 * statement with the value bound to a bare `LIMIT ?`, so every run, which binds it
 * anew, prepared the statement again (6% of reading a page of 100). An expression is
 * only evaluated; the plans are the same.
 */
const PAGE_LIMIT = 'LIMIT ? + 0';
const PAGE_LIMIT_OFFSET = 'LIMIT ? + 0 OFFSET ? + 0';

/** Most distinct filtered statements kept prepared (their SQL depends on the filters). */
const FILTERED_STATEMENT_CACHE = 200;

/**
 * SQL of each date column and comparison. Filter input selects an entry by key and is
 * never interpolated itself.
 */
const DATE_COLUMNS: Readonly<Record<DateFilter['column'], string>> = {
  created_date: 'r.created_date',
  modified_date: 'r.modified_date',
};
const DATE_OPS: Readonly<Record<DateFilter['op'], string>> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};

/** A schema step. Index `i` of the list upgrades `user_version` from `i` to `i + 1`. */
type Migration = (db: Db) => void;

/**
 * The schema history. Append new steps; never edit a released one, as databases in the
 * field have already run it.
 */
export const MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.exec(`
      CREATE TABLE tenants (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        namespace TEXT NOT NULL,
        created_date TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        token_hash TEXT PRIMARY KEY,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        access TEXT NOT NULL CHECK (access IN ('read', 'write')),
        source TEXT NOT NULL,
        created_date TEXT NOT NULL
      );
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      -- seq is the rowid: AUTOINCREMENT makes it strictly increasing and never reused,
      -- which keyset cursors rely on (a new record always sorts after every old one).
      CREATE TABLE records (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id),
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        doc TEXT NOT NULL,
        created_date TEXT NOT NULL,
        modified_date TEXT NOT NULL
      );
      CREATE UNIQUE INDEX records_by_id ON records (tenant_id, kind, id);
      -- Covering index for paging: counting, offsets and keyset seeks never touch docs.
      CREATE INDEX records_by_seq ON records (tenant_id, kind, seq);
      CREATE INDEX records_by_modified ON records (tenant_id, kind, modified_date);

      CREATE TABLE identifiers (
        tenant_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        identifier TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
        PRIMARY KEY (tenant_id, kind, identifier)
      ) WITHOUT ROWID;
      CREATE INDEX identifiers_by_seq ON identifiers (seq);

      -- Lookup keys: a person's lower-cased email addresses and phone numbers, for
      -- matching in helpers and, later, filtering.
      CREATE TABLE record_keys (
        tenant_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
        PRIMARY KEY (tenant_id, kind, name, value, seq)
      ) WITHOUT ROWID;
      CREATE INDEX record_keys_by_seq ON record_keys (seq);

      -- Sub-collections: child record (seq) listed under a parent record (parent_seq).
      CREATE TABLE record_parents (
        parent_seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
        PRIMARY KEY (parent_seq, kind, seq)
      ) WITHOUT ROWID;
      CREATE INDEX record_parents_by_seq ON record_parents (seq);

      -- Collection totals kept by triggers, so total_records costs O(1) even for a
      -- million records instead of a full index scan on every page.
      CREATE TABLE record_counts (
        tenant_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, kind)
      ) WITHOUT ROWID;
      CREATE TRIGGER records_count_insert AFTER INSERT ON records BEGIN
        INSERT INTO record_counts (tenant_id, kind, n) VALUES (NEW.tenant_id, NEW.kind, 1)
          ON CONFLICT (tenant_id, kind) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER records_count_delete AFTER DELETE ON records BEGIN
        UPDATE record_counts SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND kind = OLD.kind;
      END;
    `);
  },
  (db) => {
    db.exec(`
      -- What a record (seq) adds to a total of another record (parent_seq). Values are
      -- scaled by 10000 and stored as integers, so sums of money are exact.
      -- parent_seq has no foreign key, like record_parents: deleting a parent leaves
      -- its children's rows behind, harmless as seqs are never reused.
      CREATE TABLE record_contributions (
        seq INTEGER NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
        parent_seq INTEGER NOT NULL,
        name TEXT NOT NULL,
        value INTEGER NOT NULL,
        PRIMARY KEY (seq, parent_seq, name)
      ) WITHOUT ROWID;
      CREATE INDEX record_contributions_by_parent ON record_contributions (parent_seq);

      -- Sums of the contributions per parent and name, kept by triggers in the writing
      -- transaction: exact under concurrent writers (SQLite serialises them) and O(1) to
      -- read. n counts the contributions, so a total whose last contribution goes away
      -- disappears instead of lingering as 0.
      CREATE TABLE record_totals (
        parent_seq INTEGER NOT NULL REFERENCES records(seq) ON DELETE CASCADE,
        name TEXT NOT NULL,
        value INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (parent_seq, name)
      ) WITHOUT ROWID;
      CREATE TRIGGER record_contributions_insert AFTER INSERT ON record_contributions BEGIN
        INSERT INTO record_totals (parent_seq, name, value, n)
          VALUES (NEW.parent_seq, NEW.name, NEW.value, 1)
          ON CONFLICT (parent_seq, name) DO UPDATE SET value = value + excluded.value, n = n + 1;
      END;
      CREATE TRIGGER record_contributions_delete AFTER DELETE ON record_contributions BEGIN
        UPDATE record_totals SET value = value - OLD.value, n = n - 1
          WHERE parent_seq = OLD.parent_seq AND name = OLD.name;
        DELETE FROM record_totals WHERE parent_seq = OLD.parent_seq AND name = OLD.name AND n <= 0;
      END;

      -- created_date filters: without it, counting the matches of \`created_date lt …\`
      -- read every row of the kind (records_by_modified cannot answer it).
      CREATE INDEX records_by_created ON records (tenant_id, kind, created_date);
    `);
  },
  (db) => {
    db.exec(`
      -- Calls without an API key name a record but no tenant: this index finds the
      -- record's tenant from its kind and id alone (records_by_id leads with tenant_id).
      -- (Replaced by the next migration: records_by_id now leads with kind and id.)
      CREATE INDEX records_by_kind_id ON records (kind, id);
    `);
  },
  (db) => {
    db.exec(`
      -- One index instead of two for the same ids: (kind, id, tenant_id) answers both a
      -- keyed look-up (all three columns, in any order) and the look-up of a record's
      -- tenant (its prefix), and every insert then writes one index fewer.
      DROP INDEX records_by_kind_id;
      DROP INDEX records_by_id;
      CREATE UNIQUE INDEX records_by_id ON records (kind, id, tenant_id);
    `);
  },
  (db) => {
    db.exec(`
      -- The answers to POSTs that carried an Idempotency-Key, for their repeats: one per
      -- key, per tenant and per kind of caller (anonymous 1: calls without an API key).
      -- Written in the same commit as the writes of the request they answer. Rows older
      -- than the retention (24 h) count as absent and are deleted a few at a time by each
      -- new save, oldest first (idempotent_answers_by_age).
      CREATE TABLE idempotent_answers (
        id INTEGER PRIMARY KEY,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        anonymous INTEGER NOT NULL CHECK (anonymous IN (0, 1)),
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        headers TEXT NOT NULL,
        body BLOB NOT NULL,
        created_ms INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX idempotent_answers_by_key ON idempotent_answers (tenant_id, anonymous, key);
      CREATE INDEX idempotent_answers_by_age ON idempotent_answers (created_ms);
    `);
  },
  (db) => {
    db.exec(`
      -- Webhooks (see webhook-store.ts). A subscription's cursor is the seq of the last
      -- outbox event it was sent (or skipped); triggers is a JSON array of event types.
      CREATE TABLE webhook_subscriptions (
        id TEXT PRIMARY KEY,
        tenant_id INTEGER NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        secret TEXT NOT NULL,
        triggers TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('file', 'api')),
        active INTEGER NOT NULL CHECK (active IN (0, 1)),
        disabled_reason TEXT,
        created_ms INTEGER NOT NULL,
        cursor INTEGER NOT NULL,
        next_attempt_ms INTEGER,
        failing_since_ms INTEGER
      );
      CREATE INDEX webhook_subscriptions_by_tenant ON webhook_subscriptions (tenant_id, created_ms);

      -- The transactional outbox: one row per event, written in the transaction of the
      -- write that makes it. seq: AUTOINCREMENT, strictly increasing and never reused,
      -- as cursors point into it. No foreign key: an append costs one row and one index.
      CREATE TABLE webhook_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id INTEGER NOT NULL,
        type TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_ms INTEGER NOT NULL
      );
      CREATE INDEX webhook_events_by_tenant ON webhook_events (tenant_id, seq);

      -- The delivery log, the newest few hundred attempts per subscription.
      CREATE TABLE webhook_attempts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        event_count INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed', 'gave_up')),
        status INTEGER,
        error TEXT,
        next_attempt_ms INTEGER,
        duration_ms INTEGER NOT NULL
      );
      CREATE INDEX webhook_attempts_by_subscription ON webhook_attempts (subscription_id, id);
    `);
  },
];

/**
 * A row of RECORD_COLUMNS, read as an array (`raw`): better-sqlite3 builds an array per
 * row faster than an object, which counts on a page of a hundred.
 */
type RecordRow = [
  seq: number,
  kind: string,
  id: string,
  /** The stored JSON's UTF-8 bytes (see RECORD_COLUMNS). */
  doc: Buffer,
  created_date: string,
  modified_date: string,
];

interface TenantRow {
  id: number;
  name: string;
  namespace: string;
}

/**
 * The document is read as its bytes (a BLOB cast of the UTF-8 text, no conversion): a
 * page is answered by splicing them, which spares decoding each document to a string
 * and encoding the whole answer back to UTF-8 (see doc-json.ts).
 */
const RECORD_COLUMNS =
  'r.seq, r.kind, r.id, CAST(r.doc AS BLOB) AS doc, r.created_date, r.modified_date';

/** The document stays JSON until read: a page renders it spliced (see doc-json.ts). */
function toRecord([seq, kind, id, doc, created_date, modified_date]: RecordRow): StoredRecord {
  return recordFromJson({ seq, kind, id, created_date, modified_date }, doc);
}

/**
 * sha256 of an API key, hex. Keys are stored only hashed: a leaked database file does
 * not leak usable keys. (The keys are random, so an unsalted fast hash is enough.)
 *
 * @example
 * ```ts
 * hashToken('secret').length; // 64
 * ```
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Options of {@link SqliteStorage}. */
export interface SqliteStorageOptions {
  /** Milliseconds to wait for a lock held by another connection. Default 5000. */
  busyTimeoutMs?: number;
  /** Namespace of tenants created without one. Default `adis`. */
  defaultNamespace?: string;
  /**
   * Batch the transactions of concurrent requests into one commit (see the top of this
   * module): {@link SqliteStorage.transaction} then returns before the commit, and
   * {@link SqliteStorage.durable} says when it is done. For servers; code that writes
   * and exits at once (scripts, seeding) is simpler without. Default false.
   */
  groupCommit?: boolean;
  /**
   * SQLite page cache in KiB (`PRAGMA cache_size = -n`). Default 65536 (64 MiB): the
   * indexes a write touches stay in memory instead of being read back from the file.
   */
  cacheKiB?: number;
}

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
 * SQLite storage. `path` is a file (its folder is created) or `':memory:'`.
 *
 * @example
 * ```ts
 * const storage = new SqliteStorage(':memory:');
 * const tenant = storage.ensureTenant('demo');
 * storage.countRecords({ tenantId: tenant.id, kind: 'person' }); // 0
 * storage.close();
 * ```
 */
export class SqliteStorage implements Storage {
  readonly created: boolean;
  readonly path: string;
  /** Subscriptions, the outbox and the delivery log, on this connection. */
  readonly webhooks: SqliteWebhookStore;
  private readonly db: Db;
  private readonly defaultNamespace: string;
  /** Whether transactions are batched into shared commits (option `groupCommit`). */
  readonly groupCommit: boolean;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly filteredStatements = new Map<string, Database.Statement>();
  /** Recent key look-ups (see key-cache.ts); cleared by every change to the keys. */
  private readonly keyCache = new KeyCache();
  private readonly tx: TransactionStatements;
  /** The open batch (group commit), if any. */
  private batch: Batch | undefined;
  private nextBatchId = 1;
  /** The last batch whose commit failed: writes since a mark before it are lost. */
  private failure: { batchId: number; error: CommitError } | undefined;
  private commitCount = 0;
  /** Whether the WAL is fsynced here, off the event loop (see the top of this module). */
  private readonly syncOffLoop: boolean;
  /** The WAL file's path, and its descriptor once opened (for fdatasync only). */
  private readonly walPath: string;
  private walFd: number | undefined;
  /** Committed batches waiting for the next fdatasync, and those the running one covers. */
  private unsynced: Batch[] = [];
  private syncing: Batch[] = [];
  private syncRunning = false;
  /** Holds on commits ({@link holdCommit}) not yet released. */
  private holds = 0;

  constructor(path: string, options: SqliteStorageOptions = {}) {
    this.path = path;
    this.defaultNamespace = options.defaultNamespace ?? 'adis';
    this.groupCommit = options.groupCommit ?? false;
    this.walPath = `${resolve(path)}-wal`;
    if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    try {
      const journal = this.db.pragma('journal_mode = WAL', { simple: true });
      this.syncOffLoop =
        this.groupCommit && journal === 'wal' && path !== ':memory:' && path !== '';
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
      if (this.groupCommit) this.db.pragma('wal_autocheckpoint = 16384');
      this.created = this.migrate();
      // The savepoint name is ours alone: better-sqlite3's own nested transactions (in
      // the migrations, or code given `database`) use theirs.
      this.tx = {
        begin: this.db.prepare('BEGIN'),
        beginImmediate: this.db.prepare('BEGIN IMMEDIATE'),
        commit: this.db.prepare('COMMIT'),
        rollback: this.db.prepare('ROLLBACK'),
        savepoint: this.db.prepare('SAVEPOINT adis_unit'),
        release: this.db.prepare('RELEASE adis_unit'),
        rollbackTo: this.db.prepare('ROLLBACK TO adis_unit'),
      };
      this.webhooks = new SqliteWebhookStore({
        statement: (sql) => this.stmt(sql),
        inTransaction: () => this.db.inTransaction,
        transaction: (fn) => this.transaction(fn),
      });
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /**
   * How many transactions this connection has committed: each batch of group commit
   * counts once, however many units it held. For tests and benchmarks.
   *
   * @example
   * ```ts
   * const before = storage.commits;
   * // … concurrent requests …
   * storage.commits - before; // 1 when they shared one commit
   * ```
   */
  get commits(): number {
    return this.commitCount;
  }

  /** Runs pending migrations; returns true when the database was new. */
  private migrate(): boolean {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new Error(
        `database schema version ${version} is newer than this server (${MIGRATIONS.length}); upgrade the server`,
      );
    }
    for (let step = version; step < MIGRATIONS.length; step++) {
      const migration = MIGRATIONS[step];
      if (!migration) break;
      // Each step and its version bump commit together: a crash mid-migration leaves
      // the previous version intact.
      this.db.transaction(() => {
        migration(this.db);
        this.db.pragma(`user_version = ${step + 1}`);
      })();
    }
    return version === 0;
  }

  /** Prepared statements are cached by SQL text: preparing costs more than running. */
  private stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Like {@link stmt} for filtered collection queries. Their SQL varies with the number
   * and kind of filters a client sends, so the cache is bounded (least recently used
   * goes) instead of growing with every combination.
   */
  private filteredStmt(sql: string): Database.Statement {
    let statement = this.filteredStatements.get(sql);
    if (statement) {
      this.filteredStatements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.filteredStatements.size >= FILTERED_STATEMENT_CACHE) {
        const oldest = this.filteredStatements.keys().next().value;
        if (oldest !== undefined) this.filteredStatements.delete(oldest);
      }
    }
    this.filteredStatements.set(sql, statement);
    return statement;
  }

  ensureTenant(name: string, namespace?: string): Tenant {
    const existing = this.getTenant(name);
    if (existing) return existing;
    const ns = namespace ?? this.defaultNamespace;
    const info = this.stmt(
      'INSERT INTO tenants (name, namespace, created_date) VALUES (?, ?, ?)',
    ).run(name, ns, new Date().toISOString());
    return { id: Number(info.lastInsertRowid), name, namespace: ns };
  }

  getTenant(name: string): Tenant | undefined {
    const row = this.stmt('SELECT id, name, namespace FROM tenants WHERE name = ?').get(name) as
      | TenantRow
      | undefined;
    return row ? { id: row.id, name: row.name, namespace: row.namespace } : undefined;
  }

  putApiKey(token: string, tenantName: string, access: Access, source = 'manual'): void {
    const tenant = this.ensureTenant(tenantName);
    this.stmt(
      `INSERT INTO api_keys (token_hash, tenant_id, access, source, created_date) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (token_hash) DO UPDATE SET tenant_id = excluded.tenant_id, access = excluded.access, source = excluded.source`,
    ).run(hashToken(token), tenant.id, access, source, new Date().toISOString());
    this.keyCache.clear();
  }

  removeApiKeys(source: string): number {
    const removed = this.stmt('DELETE FROM api_keys WHERE source = ?').run(source).changes;
    this.keyCache.clear();
    return removed;
  }

  authenticate(token: string): ApiKeyInfo | undefined {
    const cached = this.keyCache.get(token);
    if (cached) return cached;
    const row = this.stmt(
      `SELECT k.access, t.id, t.name, t.namespace FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
       WHERE k.token_hash = ?`,
    ).get(hashToken(token)) as (TenantRow & { access: Access }) | undefined;
    if (!row) return undefined;
    const info: ApiKeyInfo = {
      access: row.access,
      tenant: { id: row.id, name: row.name, namespace: row.namespace },
    };
    // Not inside a transaction: it may still roll back a key it added or changed.
    return this.db.inTransaction ? info : this.keyCache.set(token, info);
  }

  getSetting(key: string): string | undefined {
    const row = this.stmt('SELECT value FROM settings WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  setSetting(key: string, value: string): void {
    this.stmt(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, value);
  }

  findIdempotentAnswer(ref: IdempotencyKeyRef, notBeforeMs: number): IdempotentAnswer | undefined {
    const row = this.stmt(
      `SELECT fingerprint, status, headers, body, created_ms FROM idempotent_answers
       WHERE tenant_id = ? AND anonymous = ? AND key = ? AND created_ms >= ?`,
    ).get(ref.tenantId, ref.anonymous ? 1 : 0, ref.key, notBeforeMs) as
      | { fingerprint: string; status: number; headers: string; body: Buffer; created_ms: number }
      | undefined;
    if (!row) return undefined;
    return {
      fingerprint: row.fingerprint,
      status: row.status,
      headers: JSON.parse(row.headers) as [string, string][],
      body: row.body,
      createdMs: row.created_ms,
    };
  }

  saveIdempotentAnswer(
    ref: IdempotencyKeyRef,
    answer: IdempotentAnswer,
    expireBeforeMs: number,
  ): void {
    this.transaction(() => {
      this.stmt(
        `DELETE FROM idempotent_answers WHERE id IN (SELECT id FROM idempotent_answers
         WHERE created_ms < ? ORDER BY created_ms LIMIT ${IDEMPOTENT_EXPIRY_BATCH})`,
      ).run(expireBeforeMs);
      this.stmt(
        `INSERT INTO idempotent_answers
           (tenant_id, anonymous, key, fingerprint, status, headers, body, created_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, anonymous, key) DO UPDATE SET fingerprint = excluded.fingerprint,
           status = excluded.status, headers = excluded.headers, body = excluded.body,
           created_ms = excluded.created_ms`,
      ).run(
        ref.tenantId,
        ref.anonymous ? 1 : 0,
        ref.key,
        answer.fingerprint,
        answer.status,
        JSON.stringify(answer.headers),
        Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength),
        answer.createdMs,
      );
    });
  }

  private seqOf(tenantId: number, kind: string, id: string): number | undefined {
    const row = this.stmt(
      'SELECT seq FROM records WHERE tenant_id = ? AND kind = ? AND id = ?',
    ).get(tenantId, kind, id) as { seq: number } | undefined;
    return row?.seq;
  }

  /** Writes the side tables of a record (identifiers, keys, parents, contributions). */
  private writeSideTables(seq: number, write: RecordWrite): void {
    const addIdentifier = this.stmt(
      'INSERT INTO identifiers (tenant_id, kind, identifier, seq) VALUES (?, ?, ?, ?)',
    );
    for (const identifier of new Set(write.identifiers)) {
      try {
        addIdentifier.run(write.tenantId, write.kind, identifier, seq);
      } catch (error) {
        if (isConstraintError(error)) throw new DuplicateIdentifierError(identifier);
        throw error;
      }
    }
    const addKey = this.stmt(
      'INSERT OR IGNORE INTO record_keys (tenant_id, kind, name, value, seq) VALUES (?, ?, ?, ?, ?)',
    );
    for (const key of write.keys ?? [])
      addKey.run(write.tenantId, write.kind, key.name, key.value, seq);
    const addParent = this.stmt(
      'INSERT OR IGNORE INTO record_parents (parent_seq, kind, seq) VALUES (?, ?, ?)',
    );
    // The seqs of the parents, looked up once: contributions go mostly to them (a
    // signature's petition is both), so writeContributions reuses them.
    const parentSeqs = new Map<string, number | undefined>();
    for (const parent of write.parents ?? []) {
      const parentSeq = this.seqOf(write.tenantId, parent.kind, parent.id);
      parentSeqs.set(`${parent.kind}\u0000${parent.id}`, parentSeq);
      if (parentSeq !== undefined) addParent.run(parentSeq, write.kind, seq);
    }
    this.writeContributions(seq, write, parentSeqs);
  }

  /**
   * Inserts a record's contributions; the triggers add them to the totals. The same
   * (parent, name) twice in one write is summed first, as the key allows one row.
   */
  private writeContributions(
    seq: number,
    write: RecordWrite,
    parentSeqs = new Map<string, number | undefined>(),
  ): void {
    if (!write.contributions?.length) return;
    const sums = new Map<number, Map<string, number>>();
    for (const contribution of write.contributions) {
      const scaled = toScaled(contribution.value);
      const parentKey = `${contribution.parent.kind}\u0000${contribution.parent.id}`;
      if (!parentSeqs.has(parentKey)) {
        parentSeqs.set(
          parentKey,
          this.seqOf(write.tenantId, contribution.parent.kind, contribution.parent.id),
        );
      }
      const parentSeq = parentSeqs.get(parentKey);
      if (parentSeq === undefined) continue;
      let byName = sums.get(parentSeq);
      if (!byName) {
        byName = new Map();
        sums.set(parentSeq, byName);
      }
      byName.set(contribution.name, (byName.get(contribution.name) ?? 0) + scaled);
    }
    const addContribution = this.stmt(
      'INSERT INTO record_contributions (seq, parent_seq, name, value) VALUES (?, ?, ?, ?)',
    );
    for (const [parentSeq, byName] of sums) {
      for (const [name, value] of byName) addContribution.run(seq, parentSeq, name, value);
    }
  }

  insertRecord(write: RecordWrite): StoredRecord {
    return this.transaction(() => this.insertOne(write));
  }

  insertRecords(writes: Iterable<RecordWrite>): number {
    // One transaction, no savepoint per record: a million rows load in seconds.
    return this.transaction(() => {
      let count = 0;
      for (const write of writes) {
        this.insertOne(write);
        count++;
      }
      return count;
    });
  }

  private insertOne(write: RecordWrite): StoredRecord {
    const info = this.stmt(
      'INSERT INTO records (tenant_id, kind, id, doc, created_date, modified_date) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(
      write.tenantId,
      write.kind,
      write.id,
      JSON.stringify(write.doc),
      write.created_date,
      write.modified_date,
    );
    const seq = Number(info.lastInsertRowid);
    this.writeSideTables(seq, write);
    return {
      seq,
      kind: write.kind,
      id: write.id,
      doc: write.doc,
      created_date: write.created_date,
      modified_date: write.modified_date,
    };
  }

  updateRecord(write: RecordWrite): StoredRecord | undefined {
    return this.transaction(() => {
      const seq = this.seqOf(write.tenantId, write.kind, write.id);
      if (seq === undefined) return undefined;
      this.stmt('UPDATE records SET doc = ?, modified_date = ? WHERE seq = ?').run(
        JSON.stringify(write.doc),
        write.modified_date,
        seq,
      );
      this.stmt('DELETE FROM identifiers WHERE seq = ?').run(seq);
      this.stmt('DELETE FROM record_keys WHERE seq = ?').run(seq);
      this.stmt('DELETE FROM record_parents WHERE seq = ?').run(seq);
      // Row by row through the delete trigger, which takes the old values off the totals.
      this.stmt('DELETE FROM record_contributions WHERE seq = ?').run(seq);
      this.writeSideTables(seq, write);
      const created = this.stmt('SELECT created_date FROM records WHERE seq = ?').get(seq) as {
        created_date: string;
      };
      return {
        seq,
        kind: write.kind,
        id: write.id,
        doc: write.doc,
        created_date: created.created_date,
        modified_date: write.modified_date,
      };
    });
  }

  deleteRecord(tenantId: number, kind: string, id: string): boolean {
    return this.transaction(() => {
      const seq = this.seqOf(tenantId, kind, id);
      if (seq === undefined) return false;
      // Contributions go first and explicitly, so their delete trigger takes them off the
      // totals; the other side tables go with the record through ON DELETE CASCADE.
      this.stmt('DELETE FROM record_contributions WHERE seq = ?').run(seq);
      return this.stmt('DELETE FROM records WHERE seq = ?').run(seq).changes > 0;
    });
  }

  getRecord(tenantId: number, kind: string, id: string): StoredRecord | undefined {
    const row = this.stmt(
      `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.tenant_id = ? AND r.kind = ? AND r.id = ?`,
    )
      .raw()
      .get(tenantId, kind, id) as RecordRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  countRecords(scope: CollectionScope): number {
    if (scope.filters?.length) {
      // record_counts knows only whole collections: count the matching rows.
      const filtered = this.filteredSource(scope);
      if (!filtered) return 0;
      const row = this.filteredStmt(`SELECT count(*) AS n FROM ${filtered.source}`).get(
        ...filtered.params,
      ) as { n: number };
      return row.n;
    }
    if (scope.parent) {
      const parentSeq = this.seqOf(scope.tenantId, scope.parent.kind, scope.parent.id);
      if (parentSeq === undefined) return 0;
      const row = this.stmt(
        'SELECT count(*) AS n FROM record_parents WHERE parent_seq = ? AND kind = ?',
      ).get(parentSeq, scope.kind) as { n: number };
      return row.n;
    }
    const row = this.stmt('SELECT n FROM record_counts WHERE tenant_id = ? AND kind = ?').get(
      scope.tenantId,
      scope.kind,
    ) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  /**
   * The seqs of a page, then the rows. Selecting seqs first keeps OFFSET scans on the
   * covering index: skipped entries never load their documents.
   */
  listRecords(query: PageQuery): StoredRecord[] {
    const limit = Math.max(0, Math.floor(query.limit));
    if (limit === 0) return [];
    if (query.filters?.length) return this.listFilteredRecords(query, limit);
    let source: string;
    let params: unknown[];
    if (query.parent) {
      const parentSeq = this.seqOf(query.tenantId, query.parent.kind, query.parent.id);
      if (parentSeq === undefined) return [];
      source = 'record_parents WHERE parent_seq = ? AND kind = ?';
      params = [parentSeq, query.kind];
    } else {
      source = 'records WHERE tenant_id = ? AND kind = ?';
      params = [query.tenantId, query.kind];
    }
    let inner: string;
    if (query.after !== undefined) {
      inner = `SELECT seq FROM ${source} AND seq > ? ORDER BY seq ASC ${PAGE_LIMIT}`;
      params.push(query.after, limit);
    } else if (query.before !== undefined) {
      inner = `SELECT seq FROM ${source} AND seq < ? ORDER BY seq DESC ${PAGE_LIMIT}`;
      params.push(query.before, limit);
    } else if (query.offsetFromEnd !== undefined) {
      inner = `SELECT seq FROM ${source} ORDER BY seq DESC ${PAGE_LIMIT_OFFSET}`;
      params.push(limit, Math.max(0, Math.floor(query.offsetFromEnd)));
    } else {
      inner = `SELECT seq FROM ${source} ORDER BY seq ASC ${PAGE_LIMIT_OFFSET}`;
      params.push(limit, Math.max(0, Math.floor(query.offset ?? 0)));
    }
    // The outer query must look rows up by seq (rowid) only: adding `r.tenant_id = ?`
    // here made SQLite scan the whole tenant and probe the subquery per row. The inner
    // query already limits to the tenant (a parent seq belongs to one tenant).
    const rows = this.stmt(
      `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.seq IN (${inner}) ORDER BY r.seq ASC`,
    )
      .raw()
      .all(...params) as RecordRow[];
    return rows.map(toRecord);
  }

  hasRecordAfter(scope: CollectionScope, seq: number): boolean {
    if (scope.filters?.length) {
      const filtered = this.filteredSource(scope);
      if (!filtered) return false;
      return (
        this.filteredStmt(`SELECT 1 FROM ${filtered.source} AND ${filtered.seq} > ? LIMIT 1`).get(
          ...filtered.params,
          seq,
        ) !== undefined
      );
    }
    if (scope.parent) {
      const parentSeq = this.seqOf(scope.tenantId, scope.parent.kind, scope.parent.id);
      if (parentSeq === undefined) return false;
      return (
        this.stmt(
          'SELECT 1 FROM record_parents WHERE parent_seq = ? AND kind = ? AND seq > ? LIMIT 1',
        ).get(parentSeq, scope.kind, seq) !== undefined
      );
    }
    return (
      this.stmt('SELECT 1 FROM records WHERE tenant_id = ? AND kind = ? AND seq > ? LIMIT 1').get(
        scope.tenantId,
        scope.kind,
        seq,
      ) !== undefined
    );
  }

  /**
   * The filtered counterpart of {@link listRecords}: the same four access paths and the
   * same shape (seqs of the page first, then rows by seq), with the filter conditions
   * added to the seq selection.
   */
  private listFilteredRecords(query: PageQuery, limit: number): StoredRecord[] {
    const filtered = this.filteredSource(query);
    if (!filtered) return [];
    const { source, seq } = filtered;
    const params = [...filtered.params];
    let inner: string;
    if (query.after !== undefined) {
      inner = `SELECT ${seq} FROM ${source} AND ${seq} > ? ORDER BY ${seq} ASC LIMIT ?`;
      params.push(query.after, limit);
    } else if (query.before !== undefined) {
      inner = `SELECT ${seq} FROM ${source} AND ${seq} < ? ORDER BY ${seq} DESC LIMIT ?`;
      params.push(query.before, limit);
    } else if (query.offsetFromEnd !== undefined) {
      inner = `SELECT ${seq} FROM ${source} ORDER BY ${seq} DESC LIMIT ? OFFSET ?`;
      params.push(limit, Math.max(0, Math.floor(query.offsetFromEnd)));
    } else {
      inner = `SELECT ${seq} FROM ${source} ORDER BY ${seq} ASC LIMIT ? OFFSET ?`;
      params.push(limit, Math.max(0, Math.floor(query.offset ?? 0)));
    }
    // Names in the inner query resolve to its own `r` first, so it stays uncorrelated.
    const rows = this.filteredStmt(
      `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.seq IN (${inner}) ORDER BY r.seq ASC`,
    )
      .raw()
      .all(...params) as RecordRow[];
    return rows.map(toRecord);
  }

  /**
   * The FROM and WHERE of a filtered collection (more conditions may follow with AND),
   * its parameters, and the expression of the record's seq; undefined when the parent
   * of a sub-collection does not exist. Records are always joined as `r`, so date
   * conditions read `r.created_date` / `r.modified_date` in both scopes.
   */
  private filteredSource(
    scope: CollectionScope,
  ): { source: string; params: unknown[]; seq: string } | undefined {
    let source: string;
    let seq: string;
    const params: unknown[] = [];
    if (scope.parent) {
      const parentSeq = this.seqOf(scope.tenantId, scope.parent.kind, scope.parent.id);
      if (parentSeq === undefined) return undefined;
      // Ordering by p.seq lets the primary key (parent_seq, kind, seq) give the order.
      source =
        'record_parents p JOIN records r ON r.seq = p.seq WHERE p.parent_seq = ? AND p.kind = ?';
      seq = 'p.seq';
      params.push(parentSeq, scope.kind);
    } else {
      source = 'records r WHERE r.tenant_id = ? AND r.kind = ?';
      seq = 'r.seq';
      params.push(scope.tenantId, scope.kind);
    }
    for (const filter of scope.filters ?? []) {
      if (isDateFilter(filter)) {
        // Own keys only: `constructor` or `toString` must not reach the prototype.
        const column = Object.hasOwn(DATE_COLUMNS, filter.column)
          ? DATE_COLUMNS[filter.column]
          : undefined;
        const op = Object.hasOwn(DATE_OPS, filter.op) ? DATE_OPS[filter.op] : undefined;
        if (column === undefined || op === undefined) {
          throw new RangeError(`unsupported date filter ${filter.column} ${filter.op}`);
        }
        // Dates are stored as toISOString() text: string order is chronological.
        source += ` AND ${column} ${op} ?`;
        params.push(filter.value);
      } else {
        // IN, not a correlated EXISTS: SQLite then seeks the few matching seqs on the
        // record_keys primary key instead of probing once per record of the collection
        // (an email among 200,000 people: ~0.1 ms instead of ~65 ms). The lookup keys of
        // a record are stored under its own tenant and kind.
        source += ` AND ${seq} IN (SELECT k.seq FROM record_keys k WHERE k.tenant_id = ? AND k.kind = ? AND k.name = ? AND k.value = ?)`;
        params.push(scope.tenantId, scope.kind, filter.key, filter.value);
      }
    }
    return { source, params, seq };
  }

  findByIdentifier(tenantId: number, kind: string, identifier: string): string | undefined {
    const row = this.stmt(
      `SELECT r.id FROM identifiers i JOIN records r ON r.seq = i.seq
       WHERE i.tenant_id = ? AND i.kind = ? AND i.identifier = ?`,
    ).get(tenantId, kind, identifier) as { id: string } | undefined;
    return row?.id;
  }

  findByKey(tenantId: number, kind: string, name: string, value: string): string[] {
    const rows = this.stmt(
      `SELECT r.id FROM record_keys k JOIN records r ON r.seq = k.seq
       WHERE k.tenant_id = ? AND k.kind = ? AND k.name = ? AND k.value = ? ORDER BY k.seq`,
    ).all(tenantId, kind, name, value) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /**
   * The records of `kind` listed under every one of `parents`, newest first. One seek on
   * record_parents' primary key (parent_seq, kind, seq) for the first parent's children,
   * then one probe of the same key per child and further parent: the cost follows the
   * first parent's children of that kind (a person's few signatures), not the others'
   * (a petition's many). No index of its own is needed.
   *
   * @example
   * ```ts
   * storage.findByParents(tenantId, 'signature', [
   *   { kind: 'person', id: personId },
   *   { kind: 'petition', id: petitionId },
   * ]); // ['…'] when the person signed the petition
   * ```
   */
  findByParents(tenantId: number, kind: string, parents: readonly ParentRef[]): string[] {
    if (parents.length === 0) return [];
    const seqs: number[] = [];
    for (const parent of parents) {
      const seq = this.seqOf(tenantId, parent.kind, parent.id);
      if (seq === undefined) return [];
      seqs.push(seq);
    }
    const also = seqs
      .slice(1)
      .map(
        (_, i) =>
          ` AND EXISTS (SELECT 1 FROM record_parents p${i + 1} WHERE p${i + 1}.parent_seq = ? AND p${i + 1}.kind = p0.kind AND p${i + 1}.seq = p0.seq)`,
      )
      .join('');
    const rows = this.stmt(
      `SELECT r.id FROM record_parents p0 JOIN records r ON r.seq = p0.seq
       WHERE p0.parent_seq = ? AND p0.kind = ?${also} ORDER BY p0.seq DESC`,
    ).all(seqs[0], kind, ...seqs.slice(1)) as { id: string }[];
    return rows.map((row) => row.id);
  }

  tenantOfRecord(kind: string, id: string): Tenant | undefined {
    // LIMIT 1: ids are UUIDs minted by the server, so two tenants never share one; a
    // database loaded by hand with colliding ids still answers instead of throwing.
    const row = this.stmt(
      `SELECT t.id, t.name, t.namespace FROM records r JOIN tenants t ON t.id = r.tenant_id
       WHERE r.kind = ? AND r.id = ? ORDER BY r.seq LIMIT 1`,
    ).get(kind, id) as TenantRow | undefined;
    return row ? { id: row.id, name: row.name, namespace: row.namespace } : undefined;
  }

  /**
   * The totals of records of one tenant and kind, by id: the sums of the current
   * contributions to each, by name. Ids without any are absent from the map.
   *
   * @example
   * ```ts
   * storage.insertRecord({ ...signature, contributions: [
   *   { parent: { kind: 'petition', id: petitionId }, name: 'total_signatures', value: 1 },
   * ] });
   * storage.totalsOf(tenantId, 'petition', [petitionId]).get(petitionId);
   * // { total_signatures: 1 }
   * ```
   */
  totalsOf(
    tenantId: number,
    kind: string,
    ids: readonly string[],
  ): Map<string, Record<string, number>> {
    const totals = new Map<string, Record<string, number>>();
    if (ids.length === 0) return totals;
    // The ids travel as one JSON array parameter: one statement for any number of ids,
    // clear of SQLite's limit on bound parameters, each id still found through
    // records_by_id.
    const rows = this.stmt(
      `SELECT r.id, t.name, t.value FROM records r JOIN record_totals t ON t.parent_seq = r.seq
       WHERE r.tenant_id = ? AND r.kind = ? AND r.id IN (SELECT value FROM json_each(?))`,
    ).all(tenantId, kind, JSON.stringify(ids)) as { id: string; name: string; value: number }[];
    for (const row of rows) {
      let byName = totals.get(row.id);
      if (!byName) {
        byName = {};
        totals.set(row.id, byName);
      }
      // Integer over 10000 is correctly rounded: 3000 reads back as exactly 0.3.
      byName[row.name] = row.value / TOTAL_SCALE;
    }
    return totals;
  }

  /**
   * The records (of any kind) listing `parent` among their parents, oldest first.
   *
   * @example
   * ```ts
   * storage.childrenOf(tenantId, { kind: 'person', id: personId });
   * // [{ kind: 'signature', id: '…' }, { kind: 'donation', id: '…' }]
   * ```
   */
  childrenOf(tenantId: number, parent: ParentRef): ChildRef[] {
    const parentSeq = this.seqOf(tenantId, parent.kind, parent.id);
    if (parentSeq === undefined) return [];
    return this.stmt(
      `SELECT r.kind, r.id FROM record_parents p JOIN records r ON r.seq = p.seq
       WHERE p.parent_seq = ? ORDER BY p.seq`,
    ).all(parentSeq) as ChildRef[];
  }

  /**
   * Runs `fn` as one unit of work (see {@link Storage.transaction}). Outside any
   * transaction: its own transaction, committed before returning; with group commit, or
   * while a commit is held ({@link holdCommit}), a savepoint in the open batch (opened
   * if needed), committed on the next turn of the event loop or at the last release.
   * Inside one: a savepoint, so helpers that call insertRecord inside their own
   * transaction stay atomic, and a part that fails rolls back alone.
   *
   * @example
   * ```ts
   * storage.transaction(() => {
   *   storage.insertRecord(person);
   *   storage.insertRecord(signature);
   * });
   * ```
   */
  transaction<T>(fn: () => T): T {
    if (this.groupCommit || this.batch || this.holds > 0) {
      // SQLite ends the transaction itself on some errors (disk full, I/O): the batch's
      // earlier units are gone with it, so its requests must hear so.
      if (this.batch && !this.db.inTransaction) this.failBatch(new Error('SQLite rolled back'));
      if (!this.batch && !this.db.inTransaction) this.openBatch();
      return this.unit(fn);
    }
    if (this.db.inTransaction) return this.unit(fn);
    this.tx.begin.run();
    try {
      const result = notAPromise(fn());
      this.tx.commit.run();
      this.commitCount++;
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.tx.rollback.run();
      throw error;
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
      if (this.db.inTransaction) {
        this.tx.rollbackTo.run();
        this.tx.release.run();
      } else if (this.batch) {
        this.failBatch(error);
      }
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
    if (!batch || !this.db.open) return true;
    if (this.holds > 0 && !force) return true;
    if (!this.db.inTransaction) {
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
    if (!this.syncOffLoop) {
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
      if (this.db.open) this.syncWal();
      else this.closeWal();
    });
  }

  private walDescriptor(): number {
    // Read-only is enough for fdatasync on Linux and macOS; this never writes.
    this.walFd ??= openSync(this.walPath, 'r');
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

  private closeWal(): void {
    if (this.walFd === undefined || this.syncRunning) return;
    closeSync(this.walFd);
    this.walFd = undefined;
  }

  /** Rolls the open batch back and rejects its requests: none of its writes is kept. */
  private failBatch(cause: unknown): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    if (this.db.open && this.db.inTransaction) {
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
    // The batch may have held a subscription change the webhook store already shows.
    this.webhooks.reload();
    batch.reject(error);
  }

  /**
   * Holds commits back until released (see {@link Storage.holdCommit}). With group
   * commit the open batch, and any batch opened meanwhile, waits for the last release
   * and is then committed on the next turn of the event loop, so that requests arriving
   * meanwhile still share it; without, writes meanwhile go into a batch as with group
   * commit, committed at once by the last release.
   *
   * @example
   * ```ts
   * const release = storage.holdCommit();
   * try {
   *   storage.insertRecord(write);
   *   await somethingElse();
   *   storage.saveIdempotentAnswer(ref, answer, Date.now() - 86_400_000);
   * } finally {
   *   release(); // both commit together
   * }
   * ```
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

  commitMark(): number {
    return this.batch ? this.batch.id : this.nextBatchId;
  }

  durable(mark: number = this.commitMark()): Promise<void> {
    if (this.failure && this.failure.batchId >= mark) return Promise.reject(this.failure.error);
    // Batches become durable in order, so the newest pending one is the one to await.
    const newest = this.batch ?? this.unsynced.at(-1) ?? this.syncing.at(-1);
    return newest && newest.id >= mark ? newest.done : RESOLVED;
  }

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

  close(): void {
    if (!this.db.open) return;
    try {
      this.flush();
    } finally {
      this.db.close();
      this.closeWal();
    }
  }

  /** The raw better-sqlite3 handle, for the benchmark's query plans and for backups. */
  get database(): Db {
    return this.db;
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

function isDateFilter(filter: RecordFilter): filter is DateFilter {
  return 'column' in filter;
}

/**
 * A contribution in stored units (1/10000). Each value is rounded on its own, so a total
 * is the same whichever way its contributions are grouped into writes.
 */
function toScaled(value: number): number {
  const scaled = Math.round(value * TOTAL_SCALE);
  if (!Number.isSafeInteger(scaled)) {
    throw new RangeError(`contribution ${value} is not a finite amount within range`);
  }
  return scaled;
}

function isConstraintError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('SQLITE_CONSTRAINT')
  );
}

/**
 * Opens (creating and migrating when needed) the SQLite database at `path`.
 *
 * @example
 * ```ts
 * const storage = openStorage(':memory:');
 * storage.ensureTenant('demo');
 * ```
 */
export function openStorage(path: string, options: SqliteStorageOptions = {}): SqliteStorage {
  return new SqliteStorage(path, options);
}

/**
 * {@link Storage} on SQLite through better-sqlite3.
 *
 * Durability: WAL journal with `synchronous = FULL`, so a write the server has
 * acknowledged survives a power cut or a crash (NORMAL would only protect against
 * application crashes in WAL mode). Migrations live in code: `PRAGMA user_version` is
 * the schema version and {@link MIGRATIONS} the ordered list of steps.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  type Access,
  type ApiKeyInfo,
  type CollectionScope,
  DuplicateIdentifierError,
  type JsonObject,
  type PageQuery,
  type RecordWrite,
  type Storage,
  type StoredRecord,
  type Tenant,
} from './storage.js';

type Db = Database.Database;

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
];

interface RecordRow {
  seq: number;
  kind: string;
  id: string;
  doc: string;
  created_date: string;
  modified_date: string;
}

interface TenantRow {
  id: number;
  name: string;
  namespace: string;
}

const RECORD_COLUMNS = 'r.seq, r.kind, r.id, r.doc, r.created_date, r.modified_date';

function toRecord(row: RecordRow): StoredRecord {
  return {
    seq: row.seq,
    kind: row.kind,
    id: row.id,
    doc: JSON.parse(row.doc) as JsonObject,
    created_date: row.created_date,
    modified_date: row.modified_date,
  };
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
}

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
  private readonly db: Db;
  private readonly defaultNamespace: string;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(path: string, options: SqliteStorageOptions = {}) {
    this.path = path;
    this.defaultNamespace = options.defaultNamespace ?? 'adis';
    if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = FULL');
      this.db.pragma('foreign_keys = ON');
      this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      this.created = this.migrate();
    } catch (error) {
      this.db.close();
      throw error;
    }
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
  }

  removeApiKeys(source: string): number {
    return this.stmt('DELETE FROM api_keys WHERE source = ?').run(source).changes;
  }

  authenticate(token: string): ApiKeyInfo | undefined {
    const row = this.stmt(
      `SELECT k.access, t.id, t.name, t.namespace FROM api_keys k JOIN tenants t ON t.id = k.tenant_id
       WHERE k.token_hash = ?`,
    ).get(hashToken(token)) as (TenantRow & { access: Access }) | undefined;
    if (!row) return undefined;
    return { access: row.access, tenant: { id: row.id, name: row.name, namespace: row.namespace } };
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

  private seqOf(tenantId: number, kind: string, id: string): number | undefined {
    const row = this.stmt(
      'SELECT seq FROM records WHERE tenant_id = ? AND kind = ? AND id = ?',
    ).get(tenantId, kind, id) as { seq: number } | undefined;
    return row?.seq;
  }

  /** Writes the side tables of a record (identifiers, keys, parents). */
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
    for (const parent of write.parents ?? []) {
      const parentSeq = this.seqOf(write.tenantId, parent.kind, parent.id);
      if (parentSeq !== undefined) addParent.run(parentSeq, write.kind, seq);
    }
  }

  insertRecord(write: RecordWrite): StoredRecord {
    return this.transaction(() => this.insertOne(write));
  }

  insertRecords(writes: Iterable<RecordWrite>): number {
    // One transaction, no savepoint per record: a million rows load in seconds.
    return this.db.transaction(() => {
      let count = 0;
      for (const write of writes) {
        this.insertOne(write);
        count++;
      }
      return count;
    })();
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
    // Side tables go with the record through ON DELETE CASCADE.
    return (
      this.stmt('DELETE FROM records WHERE tenant_id = ? AND kind = ? AND id = ?').run(
        tenantId,
        kind,
        id,
      ).changes > 0
    );
  }

  getRecord(tenantId: number, kind: string, id: string): StoredRecord | undefined {
    const row = this.stmt(
      `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.tenant_id = ? AND r.kind = ? AND r.id = ?`,
    ).get(tenantId, kind, id) as RecordRow | undefined;
    return row ? toRecord(row) : undefined;
  }

  countRecords(scope: CollectionScope): number {
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
      inner = `SELECT seq FROM ${source} AND seq > ? ORDER BY seq ASC LIMIT ?`;
      params.push(query.after, limit);
    } else if (query.before !== undefined) {
      inner = `SELECT seq FROM ${source} AND seq < ? ORDER BY seq DESC LIMIT ?`;
      params.push(query.before, limit);
    } else if (query.offsetFromEnd !== undefined) {
      inner = `SELECT seq FROM ${source} ORDER BY seq DESC LIMIT ? OFFSET ?`;
      params.push(limit, Math.max(0, Math.floor(query.offsetFromEnd)));
    } else {
      inner = `SELECT seq FROM ${source} ORDER BY seq ASC LIMIT ? OFFSET ?`;
      params.push(limit, Math.max(0, Math.floor(query.offset ?? 0)));
    }
    // The outer query must look rows up by seq (rowid) only: adding `r.tenant_id = ?`
    // here made SQLite scan the whole tenant and probe the subquery per row. The inner
    // query already limits to the tenant (a parent seq belongs to one tenant).
    const rows = this.stmt(
      `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.seq IN (${inner}) ORDER BY r.seq ASC`,
    ).all(...params) as RecordRow[];
    return rows.map(toRecord);
  }

  hasRecordAfter(scope: CollectionScope, seq: number): boolean {
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

  transaction<T>(fn: () => T): T {
    // better-sqlite3 turns a nested transaction into a savepoint, so helpers that
    // call insertRecord inside their own transaction stay atomic.
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** The raw better-sqlite3 handle, for the benchmark's query plans and for backups. */
  get database(): Db {
    return this.db;
  }
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

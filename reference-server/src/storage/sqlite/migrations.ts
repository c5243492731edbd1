/**
 * The SQLite schema and its history. Migrations live in code: `PRAGMA user_version` is
 * the schema version and {@link MIGRATIONS} the ordered list of steps; {@link migrate}
 * runs the steps a database has not run yet when the storage opens it.
 */
import type Database from 'better-sqlite3';

/** A schema step. Index `i` of the list upgrades `user_version` from `i` to `i + 1`. */
type Migration = (db: Database.Database) => void;

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
 * Runs the migrations `db` has not run yet, each step with its version bump in one
 * transaction; returns true when the database was new (version 0). Refuses a database
 * whose version is newer than {@link MIGRATIONS}: this server would not know its schema.
 */
export function migrate(db: Database.Database): boolean {
  const version = db.pragma('user_version', { simple: true }) as number;
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
    db.transaction(() => {
      migration(db);
      db.pragma(`user_version = ${step + 1}`);
    })();
  }
  return version === 0;
}

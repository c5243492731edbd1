/**
 * The webhook tables on PostgreSQL (see webhook-store.ts for what they hold): the
 * statement of their migration, one entry of `POSTGRES_MIGRATIONS` (migrations.ts).
 * The same tables as SQLite's migration 6, plus what several server processes on one
 * database need: the delivery claim of a subscription, and the transaction id of each
 * event (see postgres/webhooks.ts for how the outbox stays in order).
 */

/**
 * The sequence of outbox seqs. Named, not an identity column's, because the store reads
 * its last value (`pg_sequence_last_value`) to know which seqs have been handed out.
 */
export const WEBHOOK_EVENT_SEQUENCE = 'webhook_event_seq';

/**
 * Creates `webhook_subscriptions`, `webhook_events` (and its sequence) and
 * `webhook_attempts`. Needs `tenants(id)`.
 */
export const WEBHOOK_TABLES_SQL = `
  -- A subscription's cursor is the seq of the last outbox event it was sent (or skipped).
  -- position: insertion order, the tie-break of listings (SQLite's rowid).
  -- claim_owner, claim_until_ms: the server process delivering it, until when.
  CREATE TABLE webhook_subscriptions (
    id TEXT PRIMARY KEY,
    position BIGINT GENERATED ALWAYS AS IDENTITY,
    tenant_id INTEGER NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    triggers TEXT[] NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('file', 'api')),
    active BOOLEAN NOT NULL,
    disabled_reason TEXT,
    created_ms BIGINT NOT NULL,
    cursor BIGINT NOT NULL,
    next_attempt_ms BIGINT,
    failing_since_ms BIGINT,
    claim_owner TEXT,
    claim_until_ms BIGINT
  );
  CREATE INDEX webhook_subscriptions_by_tenant ON webhook_subscriptions (tenant_id, created_ms, position);

  -- The transactional outbox: one row per event, written in the transaction of the
  -- write that makes it. seq: strictly increasing and never reused, as cursors point
  -- into it (a rolled back append leaves a gap). xid: the writing transaction, taken
  -- before its seq. payload: json, not jsonb, to keep the document as written.
  CREATE SEQUENCE ${WEBHOOK_EVENT_SEQUENCE} AS BIGINT;
  CREATE TABLE webhook_events (
    seq BIGINT PRIMARY KEY DEFAULT nextval('${WEBHOOK_EVENT_SEQUENCE}'),
    xid XID8 NOT NULL,
    tenant_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    payload JSON NOT NULL,
    created_ms BIGINT NOT NULL
  );
  ALTER SEQUENCE ${WEBHOOK_EVENT_SEQUENCE} OWNED BY webhook_events.seq;
  CREATE INDEX webhook_events_by_tenant ON webhook_events (tenant_id, seq);

  -- The delivery log, the newest few hundred attempts per subscription.
  CREATE TABLE webhook_attempts (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
    first_seq BIGINT NOT NULL,
    last_seq BIGINT NOT NULL,
    event_count INTEGER NOT NULL,
    attempt INTEGER NOT NULL,
    at_ms BIGINT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed', 'gave_up')),
    status INTEGER,
    error TEXT,
    next_attempt_ms BIGINT,
    duration_ms DOUBLE PRECISION NOT NULL
  );
  CREATE INDEX webhook_attempts_by_subscription ON webhook_attempts (subscription_id, id);
`;

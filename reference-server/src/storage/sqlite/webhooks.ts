/**
 * {@link WebhookStore} on SQLite: the tables of migration 6 (`webhook_subscriptions`,
 * `webhook_events`, `webhook_attempts`), on the connection of {@link SqliteStorage}.
 *
 * Why it shares the connection and the transactions: the outbox is only transactional
 * if an event is written in the same SQLite transaction as the record that makes it.
 * {@link SqliteWebhookStore.appendEvent} therefore joins whatever transaction is open
 * (the caller's unit, inside a group-commit batch), and every other write goes through
 * the storage's `transaction`, so it commits with the batch like any record write.
 */
import type Database from 'better-sqlite3';
import type { JsonObject } from '../storage.js';
import {
  ATTEMPT_COLUMNS,
  type AttemptRow,
  attemptValues,
  NEW_ATTEMPT_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  type SubscriptionRow,
  toAttempt,
  toSubscription,
} from '../webhook-rows.js';
import {
  ATTEMPTS_KEPT,
  type DeliveryAttempt,
  type NewWebhookEvent,
  type NewWebhookSubscription,
  type WebhookEvent,
  type WebhookSubscription,
} from '../webhook-store.js';
import type { RepositoryConnection } from './connection.js';

/** Outbox events one {@link SqliteWebhookStore.pruneEvents} deletes at most. */
export const PRUNE_BATCH = 500;

interface EventRow {
  seq: number;
  tenant_id: number;
  type: string;
  idempotency_key: string;
  payload: string;
  created_ms: number;
}

/** Most rows a seq can be: SQLite's largest integer (no tenant holds the outbox back). */
const NO_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * The webhook store of a {@link SqliteStorage}; reach it as `storage.webhooks`.
 */
export class SqliteWebhookStore {
  /** Tenants with an active subscription (see {@link hasSubscribers}). */
  private subscribed = new Set<number>();
  private readonly committedWatchers = new Set<() => void>();
  /** Delivery claims by subscription id (see {@link claimSubscription}). */
  private readonly claims = new Map<string, { owner: string; untilMs: number }>();
  appendedCount = 0;

  constructor(private readonly owner: RepositoryConnection) {
    this.reload();
  }

  private stmt(sql: string): Database.Statement {
    return this.owner.statement(sql);
  }

  private transaction<T>(fn: () => T): T {
    return this.owner.transaction(fn);
  }

  /**
   * Reads again which tenants have an active subscription. Every change through this
   * store calls it; the storage calls it too when a batch rolls back, which may undo
   * a change the set already shows.
   */
  reload(): void {
    const rows = this.stmt(
      'SELECT DISTINCT tenant_id FROM webhook_subscriptions WHERE active = 1',
    ).all() as { tenant_id: number }[];
    this.subscribed = new Set(rows.map((row) => row.tenant_id));
  }

  /** The newest event's seq (0 when the outbox is empty): where a new cursor starts. */
  private newestSeq(): number {
    const row = this.stmt('SELECT COALESCE(MAX(seq), 0) AS seq FROM webhook_events').get() as {
      seq: number;
    };
    return row.seq;
  }

  addSubscription(subscription: NewWebhookSubscription): WebhookSubscription {
    const stored = this.transaction(() => {
      this.stmt(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, secret, triggers, source, active, created_ms, cursor)
         VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
      ).run(
        subscription.id,
        subscription.tenantId,
        subscription.url,
        subscription.secret,
        JSON.stringify(subscription.triggers),
        subscription.source,
        subscription.createdMs,
        this.newestSeq(),
      );
      return this.getSubscription(subscription.id);
    });
    this.reload();
    if (!stored) throw new Error(`subscription ${subscription.id} was not stored`);
    return stored;
  }

  replaceFileSubscriptions(subscriptions: readonly NewWebhookSubscription[]): void {
    this.transaction(() => {
      const keep = JSON.stringify(subscriptions.map((subscription) => subscription.id));
      this.stmt(
        `DELETE FROM webhook_subscriptions WHERE source = 'file' AND id NOT IN (SELECT value FROM json_each(?))`,
      ).run(keep);
      const cursor = this.newestSeq();
      // A kept one changes only what the file says of it: cursor, state and log stay.
      const upsert = this.stmt(
        `INSERT INTO webhook_subscriptions (id, tenant_id, url, secret, triggers, source, active, created_ms, cursor)
         VALUES (?, ?, ?, ?, ?, 'file', 1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET tenant_id = excluded.tenant_id, url = excluded.url,
           secret = excluded.secret, triggers = excluded.triggers, source = 'file'`,
      );
      for (const subscription of subscriptions) {
        upsert.run(
          subscription.id,
          subscription.tenantId,
          subscription.url,
          subscription.secret,
          JSON.stringify(subscription.triggers),
          subscription.createdMs,
          cursor,
        );
      }
    });
    this.reload();
  }

  deleteSubscription(tenantId: number, id: string): boolean {
    const deleted = this.transaction(
      () =>
        this.stmt('DELETE FROM webhook_subscriptions WHERE id = ? AND tenant_id = ?').run(
          id,
          tenantId,
        ).changes > 0,
    );
    this.reload();
    return deleted;
  }

  getSubscription(id: string, tenantId?: number): WebhookSubscription | undefined {
    const row = this.stmt(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ?`,
    ).get(id) as SubscriptionRow | undefined;
    if (!row || (tenantId !== undefined && row.tenant_id !== tenantId)) return undefined;
    return toSubscription(row);
  }

  listSubscriptions(tenantId?: number): WebhookSubscription[] {
    const rows = (
      tenantId === undefined
        ? this.stmt(
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY created_ms, rowid`,
          ).all()
        : this.stmt(
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE tenant_id = ? ORDER BY created_ms, rowid`,
          ).all(tenantId)
    ) as SubscriptionRow[];
    return rows.map(toSubscription);
  }

  hasSubscribers(tenantId: number): boolean {
    return this.subscribed.has(tenantId);
  }

  appendEvent(event: NewWebhookEvent): number {
    const insert = (): number =>
      Number(
        this.stmt(
          'INSERT INTO webhook_events (tenant_id, type, idempotency_key, payload, created_ms) VALUES (?, ?, ?, ?, ?)',
        ).run(
          event.tenantId,
          event.type,
          event.idempotencyKey,
          JSON.stringify(event.payload),
          event.createdMs,
        ).lastInsertRowid,
      );
    // Inside the caller's transaction (the normal case) the row simply joins it: no
    // savepoint of its own, as it has nothing to roll back alone.
    const seq = this.owner.inTransaction() ? insert() : this.transaction(insert);
    this.appendedCount++;
    return seq;
  }

  announceCommitted(): void {
    for (const watcher of this.committedWatchers) watcher();
  }

  watchCommitted(watcher: () => void): () => void {
    this.committedWatchers.add(watcher);
    return () => this.committedWatchers.delete(watcher);
  }

  eventsAfter(tenantId: number, cursor: number, limit: number): WebhookEvent[] {
    const rows = this.stmt(
      `SELECT seq, tenant_id, type, idempotency_key, payload, created_ms FROM webhook_events
       WHERE tenant_id = ? AND seq > ? ORDER BY seq LIMIT ? + 0`,
    ).all(tenantId, cursor, limit) as EventRow[];
    return rows.map((row) => ({
      seq: row.seq,
      tenantId: row.tenant_id,
      type: row.type,
      idempotencyKey: row.idempotency_key,
      payload: JSON.parse(row.payload) as JsonObject,
      createdMs: row.created_ms,
    }));
  }

  recordAttempt(
    attempt: Omit<DeliveryAttempt, 'id'>,
    effect: { advanceTo?: number; disabledReason?: string; failingSinceMs?: number },
  ): DeliveryAttempt | undefined {
    const id = this.transaction(() => {
      // Deleted while its POST was in flight: its log went with it; nothing to record.
      if (
        !this.stmt('SELECT 1 FROM webhook_subscriptions WHERE id = ?').get(attempt.subscriptionId)
      ) {
        return undefined;
      }
      const info = this.stmt(
        `INSERT INTO webhook_attempts (${NEW_ATTEMPT_COLUMNS})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(...attemptValues(attempt));
      this.applyOutcome(attempt, effect);
      // Bounded log: everything older than the newest ATTEMPTS_KEPT goes.
      this.stmt(
        `DELETE FROM webhook_attempts WHERE subscription_id = ? AND id <= (
           SELECT id FROM webhook_attempts WHERE subscription_id = ? ORDER BY id DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT})`,
      ).run(attempt.subscriptionId, attempt.subscriptionId);
      return Number(info.lastInsertRowid);
    });
    if (id === undefined) return undefined;
    if (attempt.outcome === 'gave_up') this.reload();
    return { id, ...attempt };
  }

  private applyOutcome(
    attempt: Omit<DeliveryAttempt, 'id'>,
    effect: { advanceTo?: number; disabledReason?: string; failingSinceMs?: number },
  ): void {
    const id = attempt.subscriptionId;
    switch (attempt.outcome) {
      case 'delivered':
        this.stmt(
          `UPDATE webhook_subscriptions SET cursor = MAX(cursor, COALESCE(?, cursor)),
             next_attempt_ms = NULL, failing_since_ms = NULL WHERE id = ?`,
        ).run(effect.advanceTo ?? null, id);
        return;
      case 'failed':
        this.stmt(
          `UPDATE webhook_subscriptions SET next_attempt_ms = ?,
             failing_since_ms = COALESCE(failing_since_ms, ?) WHERE id = ?`,
        ).run(attempt.nextAttemptMs ?? null, effect.failingSinceMs ?? attempt.atMs, id);
        return;
      case 'gave_up':
        this.stmt(
          `UPDATE webhook_subscriptions SET active = 0, disabled_reason = ?, next_attempt_ms = NULL,
             failing_since_ms = COALESCE(failing_since_ms, ?) WHERE id = ?`,
        ).run(
          effect.disabledReason ?? attempt.error ?? 'failing for the whole retry window',
          effect.failingSinceMs ?? attempt.atMs,
          id,
        );
        return;
    }
  }

  retryNow(subscriptionId: string): void {
    this.transaction(() =>
      this.stmt(
        'UPDATE webhook_subscriptions SET next_attempt_ms = NULL WHERE id = ? AND active = 1',
      ).run(subscriptionId),
    );
  }

  /**
   * Claims a subscription's delivery (see `WebhookStore.claimSubscription`). One process
   * owns a SQLite database, so the claims live in memory: they only keep two delivery
   * loops of this process apart.
   */
  claimSubscription(
    subscriptionId: string,
    owner: string,
    nowMs: number,
    untilMs: number,
  ): boolean {
    const held = this.claims.get(subscriptionId);
    if (held && held.owner !== owner && held.untilMs > nowMs) return false;
    this.claims.set(subscriptionId, { owner, untilMs });
    return true;
  }

  /** Ends `owner`'s claim on a subscription, if it holds one. */
  releaseSubscription(subscriptionId: string, owner: string): void {
    if (this.claims.get(subscriptionId)?.owner === owner) this.claims.delete(subscriptionId);
  }

  skipTo(subscriptionId: string, seq: number): void {
    this.transaction(() =>
      this.stmt('UPDATE webhook_subscriptions SET cursor = MAX(cursor, ?) WHERE id = ?').run(
        seq,
        subscriptionId,
      ),
    );
  }

  listAttempts(subscriptionId: string, limit: number): DeliveryAttempt[] {
    const rows = this.stmt(
      `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE subscription_id = ? ORDER BY id DESC LIMIT ? + 0`,
    ).all(subscriptionId, limit) as AttemptRow[];
    return rows.map(toAttempt);
  }

  /**
   * Deletes events every active subscription of their tenant has passed, oldest first,
   * tenant by tenant through `webhook_events_by_tenant` (a tenant whose subscription is
   * stuck costs one seek, not a scan of what it holds back), at most {@link PRUNE_BATCH}.
   * A switched-off subscription holds nothing back: it is sent nothing more.
   */
  pruneEvents(): number {
    return this.transaction(() => {
      const bounds = this.stmt(
        `SELECT t.id AS tenant_id,
           (SELECT MIN(s.cursor) FROM webhook_subscriptions s WHERE s.tenant_id = t.id AND s.active = 1) AS bound
         FROM tenants t`,
      ).all() as { tenant_id: number; bound: number | null }[];
      const prune = this.stmt(
        `DELETE FROM webhook_events WHERE seq IN (
           SELECT seq FROM webhook_events WHERE tenant_id = ? AND seq <= ? ORDER BY seq LIMIT ? + 0)`,
      );
      let deleted = 0;
      for (const { tenant_id, bound } of bounds) {
        if (deleted >= PRUNE_BATCH) break;
        deleted += prune.run(tenant_id, bound ?? NO_BOUND, PRUNE_BATCH - deleted).changes;
      }
      return deleted;
    });
  }
}

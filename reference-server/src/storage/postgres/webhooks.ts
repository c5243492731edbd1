/**
 * {@link WebhookStore} on PostgreSQL: the tables of webhook-schema.ts, through the
 * {@link PostgresConnection} of the storage. It answers as the SQLite store does
 * (sqlite/webhooks.ts, the reference), and holds with several server processes on one
 * database:
 *
 * - `appendEvent` runs on the connection of the caller's transaction (the connection
 *   finds it), so the event commits with its write or not at all.
 * - `eventsAfter` reads only up to the bound of {@link OutboxHorizon}: no event with a
 *   lower seq can still commit there, so no cursor ever passes an event it was not sent.
 * - `claimSubscription` is one conditional UPDATE of the subscription's claim columns:
 *   one process delivers a subscription at a time; a claim of a process that died
 *   expires at its `claim_until_ms`.
 * - `hasSubscribers` reads which tenants have an active subscription at most every
 *   `subscribersTtlMs` (1 s): a subscription added by another process is seen within
 *   that; one added or removed through this store is seen at once.
 * - `appendedCount`, `announceCommitted` and `watchCommitted` are this process's (the
 *   delivery worker also polls, which finds what other processes appended).
 */
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
  type WebhookStore,
  type WebhookSubscription,
} from '../webhook-store.js';
import type { PostgresConnection } from './connection.js';
import { OutboxHorizon } from './outbox-horizon.js';

/** Outbox events one {@link PostgresWebhookStore.pruneEvents} deletes at most. */
export const PRUNE_BATCH = 500;

/** How long a read of which tenants have subscribers is trusted, by default. */
export const SUBSCRIBERS_TTL_MS = 1000;

/**
 * How often, and how long each time, a read of the outbox waits for writers that hold
 * back events committed before it (at most 100 ms in all; see eventsAfter).
 */
const HELD_BACK_WAITS = 10;
const HELD_BACK_WAIT_MS = 10;

/** Options of a {@link PostgresWebhookStore}. */
export interface PostgresWebhookStoreOptions {
  /**
   * Milliseconds a read of which tenants have an active subscription is used before it
   * is read again: how late a subscription added by another process can be seen.
   * Default {@link SUBSCRIBERS_TTL_MS}.
   */
  subscribersTtlMs?: number;
}

/** Bigint columns come back from `pg` as text; integer columns as numbers. */
type Int8 = string | number;

/** An event as `json_agg` gives it (numbers are JSON numbers there). */
interface EventJson {
  seq: number;
  tenant_id: number;
  type: string;
  idempotency_key: string;
  payload: JsonObject;
  created_ms: number;
}

/** The newest event's seq (0 when the outbox is empty): where a new cursor starts. */
const NEWEST_SEQ = '(SELECT COALESCE(max(seq), 0) FROM webhook_events)';

/** What a delivery attempt's outcome does to its subscription. */
type AttemptEffect = { advanceTo?: number; disabledReason?: string; failingSinceMs?: number };

/**
 * The webhook store of a PostgreSQL storage; reach it as `storage.webhooks`.
 */
export class PostgresWebhookStore implements WebhookStore {
  appendedCount = 0;
  private readonly committedWatchers = new Set<() => void>();
  private readonly horizon: OutboxHorizon;
  private readonly subscribersTtlMs: number;
  /** Tenants with an active subscription, and when that was read (see hasSubscribers). */
  private subscribed: { tenants: Set<number>; readAtMs: number } | undefined;
  /** The read of {@link subscribed} under way, shared by the callers that wait for it. */
  private reading: Promise<Set<number>> | undefined;

  constructor(
    private readonly connection: PostgresConnection,
    options: PostgresWebhookStoreOptions = {},
  ) {
    this.horizon = new OutboxHorizon(connection);
    this.subscribersTtlMs = Math.max(0, options.subscribersTtlMs ?? SUBSCRIBERS_TTL_MS);
  }

  async addSubscription(subscription: NewWebhookSubscription): Promise<WebhookSubscription> {
    const { rows } = await this.connection.query<SubscriptionRow>(
      `INSERT INTO webhook_subscriptions (id, tenant_id, url, secret, triggers, source, active, created_ms, cursor)
       VALUES ($1, $2, $3, $4, $5, $6, true, $7, ${NEWEST_SEQ})
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
      [
        subscription.id,
        subscription.tenantId,
        subscription.url,
        subscription.secret,
        [...subscription.triggers],
        subscription.source,
        subscription.createdMs,
      ],
    );
    await this.reloadSubscribers();
    const row = rows[0];
    if (!row) throw new Error(`subscription ${subscription.id} was not stored`);
    return toSubscription(row);
  }

  async replaceFileSubscriptions(subscriptions: readonly NewWebhookSubscription[]): Promise<void> {
    await this.connection.transaction(async () => {
      await this.connection.query(
        `DELETE FROM webhook_subscriptions WHERE source = 'file' AND NOT (id = ANY($1::text[]))`,
        [subscriptions.map((subscription) => subscription.id)],
      );
      // A kept one changes only what the file says of it: cursor, state and log stay.
      for (const subscription of subscriptions) {
        await this.connection.query(
          `INSERT INTO webhook_subscriptions (id, tenant_id, url, secret, triggers, source, active, created_ms, cursor)
           VALUES ($1, $2, $3, $4, $5, 'file', true, $6, ${NEWEST_SEQ})
           ON CONFLICT (id) DO UPDATE SET tenant_id = excluded.tenant_id, url = excluded.url,
             secret = excluded.secret, triggers = excluded.triggers, source = 'file'`,
          [
            subscription.id,
            subscription.tenantId,
            subscription.url,
            subscription.secret,
            [...subscription.triggers],
            subscription.createdMs,
          ],
        );
      }
    });
    await this.reloadSubscribers();
  }

  async deleteSubscription(tenantId: number, id: string): Promise<boolean> {
    const { rowCount } = await this.connection.query(
      'DELETE FROM webhook_subscriptions WHERE id = $1 AND tenant_id = $2',
      [id, tenantId],
    );
    await this.reloadSubscribers();
    return (rowCount ?? 0) > 0;
  }

  async getSubscription(id: string, tenantId?: number): Promise<WebhookSubscription | undefined> {
    const { rows } = await this.connection.query<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row || (tenantId !== undefined && row.tenant_id !== tenantId)) return undefined;
    return toSubscription(row);
  }

  async listSubscriptions(tenantId?: number): Promise<WebhookSubscription[]> {
    const { rows } =
      tenantId === undefined
        ? await this.connection.query<SubscriptionRow>(
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions ORDER BY created_ms, position`,
          )
        : await this.connection.query<SubscriptionRow>(
            `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE tenant_id = $1
             ORDER BY created_ms, position`,
            [tenantId],
          );
    return rows.map(toSubscription);
  }

  /**
   * Whether `tenantId` has an active subscription, from a read at most
   * `subscribersTtlMs` old (a change through this store reads it again at once).
   */
  async hasSubscribers(tenantId: number): Promise<boolean> {
    const known = this.subscribed;
    if (known && Date.now() - known.readAtMs < this.subscribersTtlMs) {
      return known.tenants.has(tenantId);
    }
    const tenants = await (this.reading ?? this.reloadSubscribers());
    return tenants.has(tenantId);
  }

  /** Reads which tenants have an active subscription; the newest read started wins. */
  private reloadSubscribers(): Promise<Set<number>> {
    const startedMs = Date.now();
    const reading = this.connection
      .query<{ tenant_id: number }>(
        'SELECT DISTINCT tenant_id FROM webhook_subscriptions WHERE active',
        [],
        // It reads no table a transaction's held writes touch.
        { readOnly: true },
      )
      .then(({ rows }) => {
        const tenants = new Set(rows.map((row) => row.tenant_id));
        if (!this.subscribed || this.subscribed.readAtMs <= startedMs) {
          this.subscribed = { tenants, readAtMs: startedMs };
        }
        return tenants;
      })
      .finally(() => {
        if (this.reading === reading) this.reading = undefined;
      });
    this.reading = reading;
    return reading;
  }

  async appendEvent(event: NewWebhookEvent): Promise<number> {
    const held = this.connection.held();
    if (held) {
      // Sent with the transaction's other held writes (flush.ts), which reads the
      // transaction id before drawing the seq, as below.
      held.event(event);
      this.appendedCount++;
      return 0;
    }
    // The transaction id is taken before the seq (the CTE is read first): the
    // outbox's horizon relies on it (outbox-horizon.ts).
    const { rows } = await this.connection.query<{ seq: Int8 }>(
      `WITH writer AS MATERIALIZED (SELECT pg_current_xact_id() AS xid)
       INSERT INTO webhook_events (xid, tenant_id, type, idempotency_key, payload, created_ms)
       SELECT xid, $1::integer, $2::text, $3::text, $4::json, $5::bigint FROM writer
       RETURNING seq`,
      [
        event.tenantId,
        event.type,
        event.idempotencyKey,
        JSON.stringify(event.payload),
        event.createdMs,
      ],
    );
    this.appendedCount++;
    return Number(rows[0]?.seq);
  }

  announceCommitted(): void {
    for (const watcher of this.committedWatchers) watcher();
  }

  watchCommitted(watcher: () => void): () => void {
    this.committedWatchers.add(watcher);
    return () => this.committedWatchers.delete(watcher);
  }

  /**
   * The tenant's events after `cursor`, oldest first, at most `limit`, up to the
   * outbox's horizon: an event whose seq some transaction still open may precede is
   * held back until that transaction ends (see outbox-horizon.ts).
   */
  async eventsAfter(tenantId: number, cursor: number, limit: number): Promise<WebhookEvent[]> {
    const first = await this.readEvents(tenantId, cursor, limit);
    if (!first.moreHandedOut || !(await this.horizon.checkpoint())) return first.events;
    // A checkpoint was just taken: with no older writer still open it is reached now.
    // Writers are short (a request's transaction): one still open is waited for a
    // little, so that events committed before this call are given out by it even while
    // other requests write (the testing kit's and the worker's idle() count on it).
    for (let wait = 0; ; wait++) {
      const read = await this.readEvents(tenantId, cursor, limit);
      if (!this.horizon.waiting() || wait === HELD_BACK_WAITS) return read.events;
      await new Promise((resolve) => setTimeout(resolve, HELD_BACK_WAIT_MS));
    }
  }

  private async readEvents(
    tenantId: number,
    cursor: number,
    limit: number,
  ): Promise<{ events: WebhookEvent[]; moreHandedOut: boolean }> {
    const horizon = this.horizon.params();
    const { rows } = await this.connection.query<{
      bound: string;
      last: string;
      events: EventJson[];
    }>(
      `WITH ${OutboxHorizon.boundSql('$4', '$5', '$6')}
       SELECT s.bound::text AS bound, h.last::text AS last,
         COALESCE((SELECT json_agg(e ORDER BY e.seq) FROM (
           SELECT seq, tenant_id, type, idempotency_key, payload, created_ms FROM webhook_events
           WHERE tenant_id = $1 AND seq > $2 AND seq <= s.bound ORDER BY seq LIMIT $3) e), '[]'::json) AS events
       FROM horizon h, settled s`,
      [tenantId, cursor, limit, horizon.bound, horizon.lasts, horizon.clocks],
    );
    const row = rows[0];
    if (!row) return { events: [], moreHandedOut: false };
    const moreHandedOut = this.horizon.observe(Number(row.bound), Number(row.last));
    const events = row.events.map((event) => ({
      seq: event.seq,
      tenantId: event.tenant_id,
      type: event.type,
      idempotencyKey: event.idempotency_key,
      payload: event.payload,
      createdMs: event.created_ms,
    }));
    return { events, moreHandedOut };
  }

  async recordAttempt(
    attempt: Omit<DeliveryAttempt, 'id'>,
    effect: AttemptEffect,
  ): Promise<DeliveryAttempt | undefined> {
    const id = await this.connection.transaction(async () => {
      // Deleted while its POST was in flight: its log went with it; nothing to record.
      // FOR UPDATE: a delete waits until this attempt is recorded, or wins before.
      const found = await this.connection.query(
        'SELECT 1 FROM webhook_subscriptions WHERE id = $1 FOR UPDATE',
        [attempt.subscriptionId],
      );
      if (found.rowCount === 0) return undefined;
      const { rows } = await this.connection.query<{ id: Int8 }>(
        `INSERT INTO webhook_attempts (${NEW_ATTEMPT_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
        attemptValues(attempt),
      );
      await this.applyOutcome(attempt, effect);
      // Bounded log: everything older than the newest ATTEMPTS_KEPT goes.
      await this.connection.query(
        `DELETE FROM webhook_attempts WHERE subscription_id = $1 AND id <= (
           SELECT id FROM webhook_attempts WHERE subscription_id = $1 ORDER BY id DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT})`,
        [attempt.subscriptionId],
      );
      return Number(rows[0]?.id);
    });
    if (id === undefined) return undefined;
    if (attempt.outcome === 'gave_up') await this.reloadSubscribers();
    return { id, ...attempt };
  }

  private async applyOutcome(
    attempt: Omit<DeliveryAttempt, 'id'>,
    effect: AttemptEffect,
  ): Promise<void> {
    const id = attempt.subscriptionId;
    switch (attempt.outcome) {
      case 'delivered':
        await this.connection.query(
          `UPDATE webhook_subscriptions SET cursor = GREATEST(cursor, COALESCE($1::bigint, cursor)),
             next_attempt_ms = NULL, failing_since_ms = NULL WHERE id = $2`,
          [effect.advanceTo ?? null, id],
        );
        return;
      case 'failed':
        await this.connection.query(
          `UPDATE webhook_subscriptions SET next_attempt_ms = $1,
             failing_since_ms = COALESCE(failing_since_ms, $2) WHERE id = $3`,
          [attempt.nextAttemptMs ?? null, effect.failingSinceMs ?? attempt.atMs, id],
        );
        return;
      case 'gave_up':
        await this.connection.query(
          `UPDATE webhook_subscriptions SET active = false, disabled_reason = $1, next_attempt_ms = NULL,
             failing_since_ms = COALESCE(failing_since_ms, $2) WHERE id = $3`,
          [
            effect.disabledReason ?? attempt.error ?? 'failing for the whole retry window',
            effect.failingSinceMs ?? attempt.atMs,
            id,
          ],
        );
        return;
    }
  }

  async retryNow(subscriptionId: string): Promise<void> {
    await this.connection.query(
      'UPDATE webhook_subscriptions SET next_attempt_ms = NULL WHERE id = $1 AND active',
      [subscriptionId],
    );
  }

  /**
   * Claims a subscription's delivery for `owner` until `untilMs`: one conditional
   * UPDATE, so of two processes claiming at once exactly one wins (the second waits
   * for the first's row lock, then finds the claim taken). True, as on SQLite, for a
   * subscription that does not exist: there is nothing to keep apart.
   */
  async claimSubscription(
    subscriptionId: string,
    owner: string,
    nowMs: number,
    untilMs: number,
  ): Promise<boolean> {
    const { rows } = await this.connection.query<{ won: boolean }>(
      `WITH claimed AS (
         UPDATE webhook_subscriptions SET claim_owner = $2, claim_until_ms = $4
         WHERE id = $1 AND (claim_owner IS NULL OR claim_owner = $2 OR claim_until_ms <= $3)
         RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM claimed)
         OR NOT EXISTS (SELECT 1 FROM webhook_subscriptions WHERE id = $1) AS won`,
      [subscriptionId, owner, nowMs, untilMs],
    );
    return rows[0]?.won === true;
  }

  async releaseSubscription(subscriptionId: string, owner: string): Promise<void> {
    await this.connection.query(
      `UPDATE webhook_subscriptions SET claim_owner = NULL, claim_until_ms = NULL
       WHERE id = $1 AND claim_owner = $2`,
      [subscriptionId, owner],
    );
  }

  async skipTo(subscriptionId: string, seq: number): Promise<void> {
    await this.connection.query(
      'UPDATE webhook_subscriptions SET cursor = GREATEST(cursor, $1::bigint) WHERE id = $2',
      [seq, subscriptionId],
    );
  }

  async listAttempts(subscriptionId: string, limit: number): Promise<DeliveryAttempt[]> {
    const { rows } = await this.connection.query<AttemptRow>(
      `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts WHERE subscription_id = $1
       ORDER BY id DESC LIMIT $2`,
      [subscriptionId, limit],
    );
    return rows.map(toAttempt);
  }

  /**
   * Deletes events every active subscription of their tenant has passed (all of a
   * tenant without one), oldest first, tenant by tenant through
   * `webhook_events_by_tenant`, at most {@link PRUNE_BATCH}, in one statement. A
   * switched-off subscription holds nothing back: it is sent nothing more.
   */
  async pruneEvents(): Promise<number> {
    const { rowCount } = await this.connection.query(
      `WITH bounds AS (
         SELECT t.id AS tenant_id,
           (SELECT min(s.cursor) FROM webhook_subscriptions s WHERE s.tenant_id = t.id AND s.active) AS bound
         FROM tenants t
       ), doomed AS (
         SELECT e.seq FROM bounds b CROSS JOIN LATERAL (
           SELECT seq FROM webhook_events
           WHERE tenant_id = b.tenant_id AND (b.bound IS NULL OR seq <= b.bound)
           ORDER BY seq LIMIT ${PRUNE_BATCH}
         ) e
         LIMIT ${PRUNE_BATCH}
       )
       DELETE FROM webhook_events WHERE seq IN (SELECT seq FROM doomed)`,
    );
    return rowCount ?? 0;
  }
}

/**
 * The webhook tables' rows as both engines read and write them: one column list and one
 * decoder per table, so that a column added to one engine's query cannot be forgotten in
 * the other's answer. Each engine keeps its own SQL (placeholders, locking) and driver.
 */
import type {
  DeliveryAttempt,
  DeliveryOutcome,
  SubscriptionSource,
  WebhookSubscription,
} from './webhook-store.js';

/**
 * A bigint column as a driver gives it: `pg` gives BIGINT as text (it may exceed a
 * double), better-sqlite3 gives a number. Every value here is a millisecond time, a seq
 * or an id, well inside a double, so `Number()` reads both.
 */
type BigintColumn = string | number;

/** The columns {@link toSubscription} reads, in the order of {@link SubscriptionRow}. */
export const SUBSCRIPTION_COLUMNS =
  'id, tenant_id, url, secret, triggers, source, active, disabled_reason, created_ms, cursor, next_attempt_ms, failing_since_ms';

/** The columns {@link attemptValues} fills, in its order: an attempt's row but its id. */
export const NEW_ATTEMPT_COLUMNS =
  'subscription_id, first_seq, last_seq, event_count, attempt, at_ms, outcome, status, error, next_attempt_ms, duration_ms';

/** The columns {@link toAttempt} reads, in the order of {@link AttemptRow}. */
export const ATTEMPT_COLUMNS = `id, ${NEW_ATTEMPT_COLUMNS}`;

/** A `webhook_subscriptions` row, as either driver gives it. */
export interface SubscriptionRow {
  id: string;
  tenant_id: number;
  url: string;
  secret: string;
  /** PostgreSQL: a `text[]`; SQLite: the JSON text of the array. */
  triggers: string[] | string;
  source: SubscriptionSource;
  /** PostgreSQL: a boolean; SQLite: 1 or 0. */
  active: boolean | number;
  disabled_reason: string | null;
  created_ms: BigintColumn;
  cursor: BigintColumn;
  next_attempt_ms: BigintColumn | null;
  failing_since_ms: BigintColumn | null;
}

/** A `webhook_attempts` row, as either driver gives it. */
export interface AttemptRow {
  id: BigintColumn;
  subscription_id: string;
  first_seq: BigintColumn;
  last_seq: BigintColumn;
  event_count: number;
  attempt: number;
  at_ms: BigintColumn;
  outcome: DeliveryOutcome;
  status: number | null;
  error: string | null;
  next_attempt_ms: BigintColumn | null;
  duration_ms: number;
}

/** A nullable bigint column as a number, or undefined for NULL. */
function optionalNumber(value: BigintColumn | null): number | undefined {
  return value === null ? undefined : Number(value);
}

/**
 * A subscription from its row; optional members are absent, not undefined, when NULL.
 */
export function toSubscription(row: SubscriptionRow): WebhookSubscription {
  const subscription: WebhookSubscription = {
    id: row.id,
    tenantId: row.tenant_id,
    url: row.url,
    secret: row.secret,
    triggers:
      typeof row.triggers === 'string' ? (JSON.parse(row.triggers) as string[]) : row.triggers,
    source: row.source,
    active: row.active === true || row.active === 1,
    createdMs: Number(row.created_ms),
    cursor: Number(row.cursor),
  };
  if (row.disabled_reason !== null) subscription.disabledReason = row.disabled_reason;
  const nextAttemptMs = optionalNumber(row.next_attempt_ms);
  if (nextAttemptMs !== undefined) subscription.nextAttemptMs = nextAttemptMs;
  const failingSinceMs = optionalNumber(row.failing_since_ms);
  if (failingSinceMs !== undefined) subscription.failingSinceMs = failingSinceMs;
  return subscription;
}

/**
 * A delivery attempt from its row; optional members are absent when NULL.
 */
export function toAttempt(row: AttemptRow): DeliveryAttempt {
  const attempt: DeliveryAttempt = {
    id: Number(row.id),
    subscriptionId: row.subscription_id,
    firstSeq: Number(row.first_seq),
    lastSeq: Number(row.last_seq),
    eventCount: row.event_count,
    attempt: row.attempt,
    atMs: Number(row.at_ms),
    outcome: row.outcome,
    durationMs: row.duration_ms,
  };
  if (row.status !== null) attempt.status = row.status;
  if (row.error !== null) attempt.error = row.error;
  const nextAttemptMs = optionalNumber(row.next_attempt_ms);
  if (nextAttemptMs !== undefined) attempt.nextAttemptMs = nextAttemptMs;
  return attempt;
}

/**
 * A new attempt's values in the order of {@link NEW_ATTEMPT_COLUMNS} (absent members
 * as NULL), for an engine's INSERT.
 */
export function attemptValues(attempt: Omit<DeliveryAttempt, 'id'>): (string | number | null)[] {
  return [
    attempt.subscriptionId,
    attempt.firstSeq,
    attempt.lastSeq,
    attempt.eventCount,
    attempt.attempt,
    attempt.atMs,
    attempt.outcome,
    attempt.status ?? null,
    attempt.error ?? null,
    attempt.nextAttemptMs ?? null,
    attempt.durationMs,
  ];
}

/**
 * The values the webhook store's tests write, on any engine: subscriptions, events and
 * attempts, and a wait until an appended event is readable (PostgreSQL's outbox may hold
 * it back a moment behind another open transaction; SQLite's never does).
 */
import { expect } from 'vitest';
import type {
  DeliveryAttempt,
  NewWebhookSubscription,
  WebhookStore,
} from '../src/storage/webhook-store.js';

/** A new subscription's values. */
export function subscription(
  tenantId: number,
  id: string,
  extra: Partial<NewWebhookSubscription> = {},
): NewWebhookSubscription {
  return {
    id,
    tenantId,
    url: `https://example.org/${id}`,
    secret: `secret-${id}`,
    triggers: ['*'],
    source: 'api',
    createdMs: 1_700_000_000_000,
    ...extra,
  };
}

let keys = 0;

/**
 * Appends an event of `type` for `tenantId`; resolves to its seq (0 when a PostgreSQL
 * transaction holds it until its writes are sent: see {@link appendSent}). `key` is its
 * idempotency key (a new one by default).
 */
export function append(
  store: WebhookStore,
  tenantId: number,
  type = 'signature',
  key = `key-${++keys}`,
): Promise<number> {
  return store.appendEvent({
    tenantId,
    type,
    idempotencyKey: key,
    payload: { record: { kind: type, id: `r-${key}`, doc: { key } } },
    createdMs: 1_700_000_000_000 + keys,
  });
}

/** An attempt's values. */
export function attempt(
  subscriptionId: string,
  outcome: DeliveryAttempt['outcome'],
  extra: Partial<DeliveryAttempt> = {},
): Omit<DeliveryAttempt, 'id'> {
  return {
    subscriptionId,
    firstSeq: 1,
    lastSeq: 1,
    eventCount: 1,
    attempt: 1,
    atMs: 1_700_000_000_000,
    outcome,
    durationMs: 5,
    ...extra,
  };
}

/**
 * Waits until `store` reads the outbox through `seq` (an event of `tenantId`): a
 * transaction of another test, anywhere on the cluster, may hold the horizon back a
 * moment. Afterwards the store's reads up to `seq` are settled (its bound only grows).
 *
 * @example
 * ```ts
 * await settled(store, tenantId, await append(store, tenantId));
 * ```
 */
export async function settled(store: WebhookStore, tenantId: number, seq: number): Promise<void> {
  await expect
    .poll(async () => (await store.eventsAfter(tenantId, seq - 1, 1)).map((event) => event.seq), {
      // A bound on an event held back for good, not a speed: a loaded machine may take
      // seconds to commit the writers ahead of it.
      timeout: 30_000,
      interval: 20,
    })
    .toEqual([seq]);
}

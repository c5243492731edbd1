/**
 * The bound on the webhook subscriptions a tenant makes through the API.
 *
 * Why a bound: each subscription is a lane of the delivery worker and a POST per batch
 * of the tenant's events, so a key that could make subscriptions without end could make
 * one write of its tenant cost the server thousands of outbound requests (and a list
 * that grows without end at every poll). Subscriptions from the operator's `--webhooks`
 * file are the operator's own and are not counted; switched-off ones are, since they are
 * still stored and listed until the tenant deletes them.
 *
 * Why the count and the insert share a transaction under a lock: two creates racing at
 * the bound would otherwise each count one below it and both insert. SQLite runs
 * transactions one at a time; on PostgreSQL (several instances on one database) the
 * transaction first takes the storage's look-up lock for "look up, then insert if
 * none" (`RecordStore.findByKey` with `forInsert`, an advisory lock held until the
 * commit) on a key naming the tenant's webhook subscriptions, so a second create waits
 * for the first to commit and then counts its subscription too.
 */
import type { Storage } from '../storage/storage.js';
import type { NewWebhookSubscription, WebhookSubscription } from '../storage/webhook-store.js';
import { apiError, ErrorCode } from './errors.js';

/**
 * Subscriptions through the API per tenant by default. An integration needs a handful
 * (a CRM, a mailer, a data warehouse, one per environment); 100 leaves room for tests
 * and many receivers, while one event of a tenant at the bound is 100 POSTs, which the
 * delivery worker's bound on POSTs in flight spreads out (`--webhook-concurrency`).
 */
export const DEFAULT_WEBHOOK_SUBSCRIPTION_LIMIT = 100;

/** The kind, key and value of the look-up lock a create takes (never a stored record's). */
const LOCK_KIND = 'webhook_subscription';
const LOCK_KEY = 'tenant';

/** The resource the refusal names, as the subscription routes do (`osdi:webhook` under that curie prefix). */
const RESOURCE = 'std:webhook';

/**
 * A limit as given to `createApp` (`webhookSubscriptionLimit`), checked: a whole number
 * from 0 (0: no subscription through the API at all).
 *
 * @example
 * ```ts
 * import { webhookSubscriptionLimitOf } from './webhook-subscription-limit.js';
 *
 * webhookSubscriptionLimitOf(undefined); // 100
 * webhookSubscriptionLimitOf(-1); // RangeError
 * ```
 */
export function webhookSubscriptionLimitOf(limit: number | undefined): number {
  const value = limit ?? DEFAULT_WEBHOOK_SUBSCRIPTION_LIMIT;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`webhookSubscriptionLimit must be a whole number from 0, got ${limit}`);
  }
  return value;
}

/**
 * Adds `subscription` (made through the API) unless its tenant has `limit` API
 * subscriptions already: then 409 `WEBHOOK_LIMIT_REACHED`, saying the limit and how to
 * make room or raise it. Race-safe across processes (see the top of this module).
 */
export function addSubscriptionWithinLimit(
  storage: Storage,
  subscription: NewWebhookSubscription,
  limit: number,
): Promise<WebhookSubscription> {
  const { tenantId } = subscription;
  return storage.transaction(async () => {
    await storage.records.findByKey(tenantId, LOCK_KIND, LOCK_KEY, String(tenantId), {
      forInsert: true,
    });
    const made = (await storage.webhooks.listSubscriptions(tenantId)).filter(
      (existing) => existing.source === 'api',
    ).length;
    if (made >= limit) {
      throw apiError(
        409,
        ErrorCode.WEBHOOK_LIMIT_REACHED,
        `the tenant has ${made} webhook subscriptions made through the API, and this server allows ${limit} at most`,
        {
          hint: `delete one it no longer needs (DELETE its self link), switched-off ones included; the operator may raise the limit (--webhook-subscription-limit, or createApp's webhookSubscriptionLimit)`,
          resource: RESOURCE,
        },
      );
    }
    return storage.webhooks.addSubscription(subscription);
  });
}

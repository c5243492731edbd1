/**
 * The bounds of the webhook POSTs in flight ({@link DeliverySlots} in `delivery-slots.ts`
 * says why there are two): their defaults and their check. Imports nothing of the
 * server, so that the HTTP layer can check `createApp`'s options with it.
 */

/** Slots in flight at most, server-wide, by default: see `delivery-slots.ts`. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 16;

/**
 * A tenant's share of `concurrency` by default: half, rounded up, so that a tenant alone
 * still delivers in parallel and, when it is busy, the other tenants find at least the
 * other half free. With a bound of 1 nothing can be kept for the others: the share is 1.
 *
 * @example
 * ```ts
 * import { defaultTenantConcurrency } from './delivery-concurrency.js';
 *
 * defaultTenantConcurrency(16); // 8
 * defaultTenantConcurrency(1); // 1
 * ```
 */
export function defaultTenantConcurrency(concurrency: number): number {
  return Math.max(1, Math.ceil(concurrency / 2));
}

/** The two bounds of `DeliverySlots`, checked. */
export interface DeliveryConcurrency {
  /** POSTs in flight at most, server-wide. */
  concurrency: number;
  /** POSTs in flight at most for one tenant, from 1 to {@link concurrency}. */
  perTenant: number;
}

/**
 * The bounds as given (`createApp`'s `webhookConcurrency` and `webhookTenantConcurrency`,
 * the worker's options), defaults filled in and checked: a RangeError names a bad one.
 *
 * @example
 * ```ts
 * import { deliveryConcurrencyOf } from './delivery-concurrency.js';
 *
 * deliveryConcurrencyOf(undefined, undefined); // { concurrency: 16, perTenant: 8 }
 * deliveryConcurrencyOf(4, 5); // RangeError: the share of a tenant must be … from 1 to the concurrency (4), got 5
 * ```
 */
export function deliveryConcurrencyOf(
  concurrency: number | undefined,
  perTenant: number | undefined,
): DeliveryConcurrency {
  const total = concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
  if (!Number.isSafeInteger(total) || total < 1) {
    throw new RangeError(`the webhook concurrency must be a whole number from 1, got ${total}`);
  }
  const share = perTenant ?? defaultTenantConcurrency(total);
  if (!Number.isSafeInteger(share) || share < 1 || share > total) {
    throw new RangeError(
      `the share of a tenant must be a whole number from 1 to the concurrency (${total}), got ${share}`,
    );
  }
  return { concurrency: total, perTenant: share };
}

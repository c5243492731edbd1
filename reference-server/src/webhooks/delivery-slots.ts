/**
 * The server-wide bound on webhook POSTs in flight, shared fairly between tenants.
 *
 * Why a bound: the worker runs one lane per subscription, and an event of a tenant with
 * 300 subscriptions would otherwise open 300 connections at once, each held for up to
 * the attempt's timeout: one API key could make the server flood a receiver (or many),
 * and hold sockets and memory that every other tenant's deliveries need.
 *
 * Why a share per tenant as well as the bound: with the bound alone, one tenant's
 * fan-out would take every slot, and another tenant's single delivery would wait behind
 * all of it. A tenant holds at most its share of the slots (half of them by default), so
 * the others always find some free; and slots are handed out to the waiting tenants in
 * turn (round robin), one delivery each, so a tenant with a long queue does not go
 * first because it queued first. A delivery past the bound waits for a slot; none is
 * ever dropped.
 *
 * The bound is each process's: n instances on one PostgreSQL database have n times as
 * many POSTs in flight at most (each subscription is still delivered by one of them at
 * a time).
 */

import { deliveryConcurrencyOf } from './delivery-concurrency.js';

/** Gives back a slot {@link DeliverySlots.acquire} gave; a second call does nothing. */
export type ReleaseSlot = () => void;

/**
 * Slots for webhook POSTs: at most `concurrency` held at once, at most `perTenant` of
 * them by one tenant, handed out in turn to the tenants waiting.
 *
 * @example
 * ```ts
 * import { DeliverySlots } from './delivery-slots.js';
 *
 * const slots = new DeliverySlots(16, 8);
 * async function deliver(tenantId: number, send: () => Promise<void>): Promise<void> {
 *   const release = await slots.acquire(tenantId);
 *   try {
 *     await send();
 *   } finally {
 *     release();
 *   }
 * }
 * ```
 */
export class DeliverySlots {
  /** Slots held now, all tenants together. */
  private held = 0;
  /** Slots held now, by tenant (tenants holding none are left out). */
  private readonly heldBy = new Map<number, number>();
  /**
   * Who waits, by tenant, in the order the tenants' turns come: a tenant served goes to
   * the back (a Map keeps insertion order, and a tenant is deleted and set again).
   */
  private readonly waiting = new Map<number, (() => void)[]>();

  readonly concurrency: number;
  readonly perTenant: number;

  /** Checked by {@link deliveryConcurrencyOf}: `perTenant` defaults to half of `concurrency`. */
  constructor(concurrency: number, perTenant?: number) {
    ({ concurrency: this.concurrency, perTenant: this.perTenant } = deliveryConcurrencyOf(
      concurrency,
      perTenant,
    ));
  }

  /** Slots held now, all tenants together (at most {@link concurrency}). */
  get inFlight(): number {
    return this.held;
  }

  /** Deliveries waiting for a slot, all tenants together. */
  get queued(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /**
   * Resolves, once a slot is free for `tenantId`, with the function that gives it back.
   * Never rejects: a delivery waits as long as the others take.
   */
  acquire(tenantId: number): Promise<ReleaseSlot> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(tenantId);
      const start = () => resolve(this.releaser(tenantId));
      if (queue) queue.push(start);
      else this.waiting.set(tenantId, [start]);
      this.handOut();
    });
  }

  /** Gives free slots to the waiting tenants in turn, each within its share. */
  private handOut(): void {
    while (this.held < this.concurrency) {
      let served = false;
      for (const [tenantId, queue] of this.waiting) {
        if ((this.heldBy.get(tenantId) ?? 0) >= this.perTenant) continue;
        const start = queue.shift();
        // To the back of the turns, or out when nothing of it waits any more.
        this.waiting.delete(tenantId);
        if (queue.length > 0) this.waiting.set(tenantId, queue);
        if (!start) continue;
        this.held++;
        this.heldBy.set(tenantId, (this.heldBy.get(tenantId) ?? 0) + 1);
        start();
        served = true;
        break;
      }
      // Every tenant waiting holds its share: the free slots stay for the others.
      if (!served) return;
    }
  }

  private releaser(tenantId: number): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      const left = (this.heldBy.get(tenantId) ?? 1) - 1;
      if (left > 0) this.heldBy.set(tenantId, left);
      else this.heldBy.delete(tenantId);
      this.handOut();
    };
  }
}

/**
 * The slots of webhook POSTs on their own: never more in flight than the bound, nor
 * more for one tenant than its share; the waiting tenants served in turn; every waiter
 * served in the end, none dropped; the bounds checked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deliveryConcurrencyOf } from '../src/webhooks/delivery-concurrency.js';
import { DeliverySlots, type ReleaseSlot } from '../src/webhooks/delivery-slots.js';

/** Lets the promise callbacks due run (an acquire resolves in a later microtask). */
const settle = () => new Promise<void>((done) => setImmediate(done));

describe('DeliverySlots', () => {
  it('gives a tenant its share at most, and the free slots to the others at once', async () => {
    const slots = new DeliverySlots(4, 2);
    const got: string[] = [];
    const releases: ReleaseSlot[] = [];
    const take = (tenant: number, name: string) =>
      void slots.acquire(tenant).then((release) => {
        got.push(name);
        releases.push(release);
      });
    for (let n = 1; n <= 10; n++) take(1, `a${n}`);
    take(2, 'b1');
    take(3, 'c1');
    await settle();
    // Tenant 1 queued ten first, and still holds only its share.
    expect(got).toEqual(['a1', 'a2', 'b1', 'c1']);
    expect(slots.inFlight).toBe(4);
    expect(slots.queued).toBe(8);
  });

  it('serves the waiting tenants in turn, one each, whoever queued more', async () => {
    const slots = new DeliverySlots(1, 1);
    const got: string[] = [];
    let release: ReleaseSlot = () => {};
    const take = (tenant: number, name: string) =>
      void slots.acquire(tenant).then((next) => {
        got.push(name);
        release = next;
      });
    take(9, 'first');
    for (const name of ['a1', 'a2', 'a3']) take(1, name);
    for (const name of ['b1', 'b2']) take(2, name);
    take(3, 'c1');
    await settle();
    for (let n = 0; n < 6; n++) {
      release();
      await settle();
    }
    expect(got).toEqual(['first', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
    expect(slots.inFlight).toBe(1);
    release();
    // A second release of the same slot gives nothing back twice.
    release();
    expect(slots.inFlight).toBe(0);
  });

  it('never exceeds either bound, and serves every waiter in the end', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }).chain((concurrency) =>
          fc.record({
            concurrency: fc.constant(concurrency),
            perTenant: fc.integer({ min: 1, max: concurrency }),
            tenants: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 40 }),
            order: fc.array(fc.nat(), { maxLength: 40 }),
          }),
        ),
        async ({ concurrency, perTenant, tenants, order }) => {
          const slots = new DeliverySlots(concurrency, perTenant);
          const holding: { tenant: number; release: ReleaseSlot }[] = [];
          let served = 0;
          const check = () => {
            expect(holding.length).toBeLessThanOrEqual(concurrency);
            for (const tenant of new Set(tenants)) {
              const held = holding.filter((one) => one.tenant === tenant).length;
              expect(held).toBeLessThanOrEqual(perTenant);
            }
            expect(slots.inFlight).toBe(holding.length);
          };
          for (const tenant of tenants) {
            void slots.acquire(tenant).then((release) => {
              served++;
              holding.push({ tenant, release });
            });
          }
          await settle();
          check();
          // Releases in an arbitrary order, until every waiter has been served.
          for (let step = 0; holding.length > 0; step++) {
            const [one] = holding.splice(
              (order[step % Math.max(1, order.length)] ?? 0) % holding.length,
              1,
            );
            one?.release();
            await settle();
            check();
          }
          expect(served).toBe(tenants.length);
          expect(slots.queued).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes half the bound as the share by default, and checks both', () => {
    expect(deliveryConcurrencyOf(undefined, undefined)).toEqual({ concurrency: 16, perTenant: 8 });
    expect(deliveryConcurrencyOf(5, undefined)).toEqual({ concurrency: 5, perTenant: 3 });
    expect(deliveryConcurrencyOf(1, undefined)).toEqual({ concurrency: 1, perTenant: 1 });
    expect(new DeliverySlots(10).perTenant).toBe(5);
    expect(() => deliveryConcurrencyOf(0, undefined)).toThrow(/from 1, got 0/);
    expect(() => deliveryConcurrencyOf(2.5, undefined)).toThrow(RangeError);
    expect(() => deliveryConcurrencyOf(4, 5)).toThrow(/from 1 to the concurrency \(4\), got 5/);
    expect(() => deliveryConcurrencyOf(4, 0)).toThrow(RangeError);
  });
});

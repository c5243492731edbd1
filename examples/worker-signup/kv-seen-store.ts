/**
 * A webhook `SeenStore` on Workers KV: the idempotency keys of handled events, kept
 * for a day (a sender's retry window), so that a delivery sent again is skipped.
 *
 * Why not the handler's default (memory): a Worker's memory does not outlast its
 * isolate, requests land on different isolates and locations, and this Worker builds
 * its handler per request; a key kept in memory would be forgotten at once.
 *
 * KV is eventually consistent (a key written in one location can take up to a minute
 * to be read in another), so a retry that lands elsewhere within that minute may run
 * again: enough to skip the sender's usual retries, which come seconds to hours apart.
 * When an event must run exactly once, keep the keys in a Durable Object or D1 instead.
 */
import type { SeenStore } from 'adis-sdk/webhooks';

/**
 * The part of a Workers KV namespace binding this example uses, typed here since the
 * example installs no `@cloudflare/workers-types`.
 */
export interface KVStore {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
}

/** A day, in seconds: how long a key is remembered (KV's own expiry drops it after). */
const SEEN_TTL_SECONDS = 24 * 60 * 60;

/**
 * A {@link SeenStore} that keeps each key in `kv` under `seen:<key>` for a day.
 *
 * @example
 * ```ts
 * const handler = webhookHandler({ secret, on, seen: kvSeenStore(env.WEBHOOK_EVENTS) });
 * ```
 */
export function kvSeenStore(kv: KVStore): SeenStore {
  return {
    has: async (key) => (await kv.get(`seen:${key}`)) !== null,
    add: async (key) => {
      await kv.put(`seen:${key}`, '1', { expirationTtl: SEEN_TTL_SECONDS });
    },
  };
}

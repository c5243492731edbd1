// Senders deliver at least once: a delivery whose answer was lost is sent again, with the
// same idempotency keys. A receiver remembers the keys of the events it handled and skips
// them the next time. The handler asks the store before it runs an event's handlers and
// tells it once they have succeeded, so an event whose handler threw is run again on the
// sender's retry.

/**
 * Where a webhook receiver remembers the idempotency keys of the events it has handled.
 * Two calls, both may be asynchronous: the default keeps keys in memory
 * ({@link memorySeenStore}); a receiver that runs on several machines or restarts
 * uses a shared one (Redis `SET key 1 NX EX 86400`, a SQL table with a unique key: see
 * docs/webhooks.md).
 *
 * @example
 * ```ts
 * import type { SeenStore } from 'adis-sdk/webhooks';
 *
 * // A Redis client (node-redis), for instance:
 * declare const redis: {
 *   exists(key: string): Promise<number>;
 *   set(key: string, value: string, options: { NX: true; EX: number }): Promise<unknown>;
 * };
 * const seen: SeenStore = {
 *   has: async (key) => (await redis.exists(`webhook:${key}`)) === 1,
 *   add: async (key) => { await redis.set(`webhook:${key}`, '1', { NX: true, EX: 86_400 }); },
 * };
 * ```
 */
export interface SeenStore {
  /** Whether an event with this key was handled already. */
  has(key: string): boolean | Promise<boolean>;
  /** Remembers that the event with this key was handled (its handlers succeeded). */
  add(key: string): void | Promise<void>;
}

/** What {@link memorySeenStore} takes. */
export interface MemorySeenStoreOptions {
  /** Most keys kept; past it the oldest are forgotten first. Default 10 000. */
  readonly maxKeys?: number;
  /** How long a key is kept, in milliseconds. Default 24 hours (a sender's retry window). */
  readonly ttlMs?: number;
  /** The clock, in milliseconds (tests pass their own). Default `Date.now`. */
  readonly now?: () => number;
}

/** Default most keys a {@link memorySeenStore} keeps. */
export const DEFAULT_SEEN_KEYS = 10_000;

/** Default time a {@link memorySeenStore} keeps a key: 24 hours, in milliseconds. */
export const DEFAULT_SEEN_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A {@link SeenStore} in memory, bounded in both size (the oldest keys go first past
 * `maxKeys`) and age (`ttlMs`). It is lost on restart and not shared between processes:
 * enough for one receiver process; use a shared store for more.
 *
 * @example
 * ```ts
 * import { memorySeenStore, webhookHandler } from 'adis-sdk/webhooks';
 *
 * const handler = webhookHandler({
 *   on: { signature: (event) => console.log(event.record.comments) },
 *   seen: memorySeenStore({ maxKeys: 50_000 }),
 * });
 * ```
 */
export function memorySeenStore(options: MemorySeenStoreOptions = {}): SeenStore {
  const maxKeys = options.maxKeys ?? DEFAULT_SEEN_KEYS;
  const ttlMs = options.ttlMs ?? DEFAULT_SEEN_TTL_MS;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order, and a key is (re)inserted when added: the first
  // entries are the oldest, so both bounds trim from the front.
  const added = new Map<string, number>();
  const trim = (at: number) => {
    for (const [key, time] of added) {
      if (added.size <= maxKeys && at - time < ttlMs) break;
      added.delete(key);
    }
  };
  return {
    has(key) {
      trim(now());
      return added.has(key);
    },
    add(key) {
      const at = now();
      added.delete(key);
      added.set(key, at);
      trim(at);
    },
  };
}

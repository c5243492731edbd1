/**
 * Token buckets per key (a client address), for the calls without an API key. Memory
 * stays bounded whatever the traffic: a bucket that has refilled completely is the
 * same as no bucket and is dropped, and the map holds at most `maxKeys` addresses.
 */

/**
 * A rate: `calls` per `perSeconds` on average, and up to `burst` at once.
 *
 * @example
 * ```ts
 * const thirtyAMinute: RateLimit = { calls: 30, perSeconds: 60, burst: 10 };
 * ```
 */
export interface RateLimit {
  /** Calls allowed per period, on average. */
  calls: number;
  /** The period, in seconds. */
  perSeconds: number;
  /** Calls allowed at once after a quiet time (the bucket's size). */
  burst: number;
}

/**
 * Options of {@link TokenBuckets}.
 *
 * @example
 * ```ts
 * const options: TokenBucketsOptions = { calls: 1, perSeconds: 1, burst: 5, maxKeys: 1000, now: () => clock };
 * ```
 */
export interface TokenBucketsOptions extends RateLimit {
  /** Most keys tracked at once; least recently seen ones go first. Default 10 000. */
  maxKeys?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

/**
 * The answer of {@link TokenBuckets.take}.
 *
 * @example
 * ```ts
 * const result: TakeResult = { allowed: false, retryAfterSeconds: 2 };
 * ```
 */
export type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  /** When `tokens` was last computed (ms). */
  at: number;
}

/**
 * One token bucket per key. Each bucket holds at most `burst` tokens, refills at
 * `calls / perSeconds` tokens a second, and each call takes one token.
 *
 * @example
 * ```ts
 * const buckets = new TokenBuckets({ calls: 30, perSeconds: 60, burst: 10 });
 * const result = buckets.take('203.0.113.7');
 * if (!result.allowed) console.log(`retry in ${result.retryAfterSeconds} s`);
 * ```
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly burst: number;
  private readonly maxKeys: number;
  private readonly now: () => number;
  private lastSweep: number;
  private readonly sweepEveryMs: number;

  constructor(options: TokenBucketsOptions) {
    const { calls, perSeconds, burst } = options;
    for (const [name, value] of Object.entries({ calls, perSeconds, burst })) {
      if (!Number.isFinite(value) || value <= 0) {
        throw new RangeError(`rate limit ${name} must be a positive number, got ${value}`);
      }
    }
    if (burst < 1) throw new RangeError(`rate limit burst must be at least 1, got ${burst}`);
    this.perMs = calls / (perSeconds * 1000);
    this.burst = burst;
    this.maxKeys = options.maxKeys ?? 10_000;
    if (!Number.isInteger(this.maxKeys) || this.maxKeys < 1) {
      throw new RangeError(`maxKeys must be a positive integer, got ${this.maxKeys}`);
    }
    this.now = options.now ?? Date.now;
    this.lastSweep = this.now();
    // A bucket is full again at the latest this long after its last call.
    this.sweepEveryMs = Math.max(1000, burst / this.perMs);
  }

  /** Number of keys tracked now. */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes one token from `key`'s bucket, or says how long until one is there. */
  take(key: string): TakeResult {
    const now = this.now();
    if (now - this.lastSweep >= this.sweepEveryMs) this.sweep(now);
    const known = this.buckets.get(key);
    const tokens = known ? this.tokensAt(known, now) : this.burst;
    if (known) {
      // Re-inserted on every call, so the map's order is least recently seen first.
      this.buckets.delete(key);
    } else if (this.buckets.size >= this.maxKeys) {
      this.makeRoom(now);
    }
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return { allowed: true };
    }
    this.buckets.set(key, { tokens, at: now });
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000)),
    };
  }

  private tokensAt(bucket: Bucket, now: number): number {
    return Math.min(this.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
  }

  /** Drops the buckets that have refilled: they hold nothing a new bucket would not. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (this.tokensAt(bucket, now) >= this.burst) this.buckets.delete(key);
    }
  }

  /**
   * At the cap: drop refilled buckets, and if that is not enough, the least recently
   * seen tenth (those addresses start again with a full bucket; the cap matters more).
   */
  private makeRoom(now: number): void {
    this.sweep(now);
    if (this.buckets.size < this.maxKeys) return;
    let excess = this.buckets.size - Math.floor(this.maxKeys * 0.9);
    for (const key of this.buckets.keys()) {
      if (excess-- <= 0) break;
      this.buckets.delete(key);
    }
  }
}

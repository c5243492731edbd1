/**
 * Rate limits per key: token buckets per client address for the calls without an API
 * key, and sliding windows per API key for keyed calls (`keyRateLimit`). Memory stays
 * bounded whatever the traffic: a key's state that has gone back to where a new key's
 * would start is dropped, and the map holds at most `maxKeys` keys.
 */
import { ApiError, ErrorCode } from '../domain/errors.js';

/**
 * A rate: `calls` per `perSeconds` on average, and up to `burst` at once.
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
 */
export interface TokenBucketsOptions extends RateLimit {
  /** Most keys tracked at once; least recently seen ones go first. Default 10 000. */
  maxKeys?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

/**
 * The answer of {@link TokenBuckets.take}.
 */
export type TakeResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The 429 `RATE_LIMITED` error, with `Retry-After` in whole seconds.
 */
export function rateLimited(
  retryAfterSeconds: number,
  description: string,
  hint: string,
): ApiError {
  const seconds = String(retryAfterSeconds);
  return new ApiError(
    429,
    [
      {
        error_code: ErrorCode.RATE_LIMITED,
        description: `${description}; retry in ${seconds} s`,
        hint,
      },
    ],
    'request',
    { 'Retry-After': seconds },
  );
}

/**
 * A wait in milliseconds as the whole seconds of `Retry-After`, rounded up. The wait is
 * worked out in floating point (1 / (1 / 3,600,000) is 3,600,000.0000000005), so a
 * wait of exactly n seconds must not become n + 1: a difference under a microsecond is
 * rounding, not time.
 *
 * @example
 * ```ts
 * import { wholeSeconds } from './rate-limit.js';
 *
 * wholeSeconds(3_600_000.0000000005); // 3600
 * wholeSeconds(1_000.5); // 2
 * ```
 */
export function wholeSeconds(ms: number): number {
  return Math.ceil(Math.round(ms * 1000) / 1_000_000);
}

/**
 * A map of per-key states with bounded memory, in least recently seen order. `idle`
 * says when a state holds nothing a new key's would not: such states are swept every
 * `sweepEveryMs`, and at the cap before anything else goes.
 */
class KeyedStates<State> {
  private readonly states = new Map<string, State>();
  private lastSweep: number;

  constructor(
    private readonly maxKeys: number,
    private readonly sweepEveryMs: number,
    private readonly idle: (state: State, now: number) => boolean,
    now: number,
  ) {
    if (!Number.isInteger(maxKeys) || maxKeys < 1) {
      throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
    }
    this.lastSweep = now;
  }

  get size(): number {
    return this.states.size;
  }

  /**
   * Takes `key`'s state out of the map (undefined for a key not tracked), making room
   * for it: {@link put} puts it back as the most recently seen.
   */
  take(key: string, now: number): State | undefined {
    if (now - this.lastSweep >= this.sweepEveryMs) this.sweep(now);
    const known = this.states.get(key);
    if (known !== undefined) this.states.delete(key);
    else if (this.states.size >= this.maxKeys) this.makeRoom(now);
    return known;
  }

  put(key: string, state: State): void {
    this.states.set(key, state);
  }

  /** Drops the idle states: they hold nothing a new one would not. */
  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [key, state] of this.states) {
      if (this.idle(state, now)) this.states.delete(key);
    }
  }

  /**
   * At the cap: drop idle states, and if that is not enough, the least recently seen
   * tenth (those keys start again afresh; the cap matters more).
   */
  private makeRoom(now: number): void {
    this.sweep(now);
    if (this.states.size < this.maxKeys) return;
    let excess = this.states.size - Math.floor(this.maxKeys * 0.9);
    for (const key of this.states.keys()) {
      if (excess-- <= 0) break;
      this.states.delete(key);
    }
  }
}

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
 * import { TokenBuckets } from './rate-limit.js';
 *
 * const buckets = new TokenBuckets({ calls: 30, perSeconds: 60, burst: 10 });
 * const result = buckets.take('203.0.113.7');
 * if (!result.allowed) console.log(`retry in ${result.retryAfterSeconds} s`);
 * ```
 */
export class TokenBuckets {
  private readonly buckets: KeyedStates<Bucket>;
  private readonly perMs: number;
  /** Milliseconds one token takes to refill, kept apart from `perMs` for exact waits. */
  private readonly msPerToken: number;
  private readonly burst: number;
  private readonly now: () => number;

  constructor(options: TokenBucketsOptions) {
    const { calls, perSeconds, burst } = options;
    for (const [name, value] of Object.entries({ calls, perSeconds, burst })) {
      if (!Number.isFinite(value) || value <= 0) {
        throw new RangeError(`rate limit ${name} must be a positive number, got ${value}`);
      }
    }
    if (burst < 1) throw new RangeError(`rate limit burst must be at least 1, got ${burst}`);
    this.perMs = calls / (perSeconds * 1000);
    this.msPerToken = (perSeconds * 1000) / calls;
    this.burst = burst;
    this.now = options.now ?? Date.now;
    this.buckets = new KeyedStates<Bucket>(
      options.maxKeys ?? 10_000,
      // A bucket is full again at the latest this long after its last call.
      Math.max(1000, burst / this.perMs),
      (bucket, now) => this.tokensAt(bucket, now) >= this.burst,
      this.now(),
    );
  }

  /** Number of keys tracked now. */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes one token from `key`'s bucket, or says how long until one is there. */
  take(key: string): TakeResult {
    const now = this.now();
    const known = this.buckets.take(key, now);
    const tokens = known ? this.tokensAt(known, now) : this.burst;
    if (tokens >= 1) {
      this.buckets.put(key, { tokens: tokens - 1, at: now });
      return { allowed: true };
    }
    this.buckets.put(key, { tokens, at: now });
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, wholeSeconds((1 - tokens) * this.msPerToken)),
    };
  }

  private tokensAt(bucket: Bucket, now: number): number {
    return Math.min(this.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
  }
}

/**
 * Options of {@link SlidingWindows}.
 */
export interface SlidingWindowsOptions {
  /** Calls allowed in any window of `perSeconds`. */
  calls: number;
  /** The window, in seconds. Default 1. */
  perSeconds?: number;
  /** Most keys tracked at once; least recently seen ones go first. Default 10 000. */
  maxKeys?: number;
  /** The clock, in milliseconds. Default `performance.now` (steady when the wall clock is set). */
  now?: () => number;
}

/**
 * The largest `calls` of a {@link SlidingWindows}: each key keeps one time per call.
 */
export const MAX_WINDOW_CALLS = 10_000;

/** The times of a key's last calls allowed, as a ring: `next` is the oldest once full. */
interface Window {
  times: Float64Array;
  next: number;
  count: number;
}

/**
 * A strict limit per key: at most `calls` allowed in any window of `perSeconds`
 * (calls at t and at t + perSeconds are in different windows). Unlike a token bucket,
 * which lets a call through as soon as a fraction of the rate has refilled, this never
 * allows `calls + 1` within one window: a client spacing its calls at exactly
 * `perSeconds / calls` can still be refused after a little jitter, as by servers that
 * enforce a rate this way (Action Network's 4 a second). Refused calls do not count.
 * It keeps the times of each key's last `calls` allowed calls.
 *
 * @example
 * ```ts
 * import { SlidingWindows } from './rate-limit.js';
 *
 * const windows = new SlidingWindows({ calls: 4 });
 * for (let i = 0; i < 5; i++) windows.take('key'); // the fifth: { allowed: false, retryAfterSeconds: 1 }
 * ```
 */
export class SlidingWindows {
  private readonly windows: KeyedStates<Window>;
  private readonly calls: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: SlidingWindowsOptions) {
    const { calls, perSeconds = 1 } = options;
    if (!Number.isInteger(calls) || calls < 1 || calls > MAX_WINDOW_CALLS) {
      throw new RangeError(
        `rate limit calls must be a whole number from 1 to ${MAX_WINDOW_CALLS}, got ${calls}`,
      );
    }
    if (!Number.isFinite(perSeconds) || perSeconds <= 0) {
      throw new RangeError(`rate limit perSeconds must be a positive number, got ${perSeconds}`);
    }
    this.calls = calls;
    this.windowMs = perSeconds * 1000;
    this.now = options.now ?? (() => performance.now());
    this.windows = new KeyedStates<Window>(
      options.maxKeys ?? 10_000,
      Math.max(1000, this.windowMs),
      (window, now) => now - newest(window) >= this.windowMs,
      this.now(),
    );
  }

  /** Number of keys tracked now. */
  get size(): number {
    return this.windows.size;
  }

  /** Counts a call of `key` if its window has room, or says how long until it has. */
  take(key: string): TakeResult {
    const now = this.now();
    const window = this.windows.take(key, now) ?? {
      times: new Float64Array(this.calls),
      next: 0,
      count: 0,
    };
    const oldest = window.times[window.next] as number;
    if (window.count === this.calls && now - oldest < this.windowMs) {
      this.windows.put(key, window);
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, wholeSeconds(oldest + this.windowMs - now)),
      };
    }
    window.times[window.next] = now;
    window.next = (window.next + 1) % this.calls;
    window.count = Math.min(this.calls, window.count + 1);
    this.windows.put(key, window);
    return { allowed: true };
  }
}

/** The time of a window's latest call. */
function newest(window: Window): number {
  return window.times[(window.next + window.times.length - 1) % window.times.length] as number;
}

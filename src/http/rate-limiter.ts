/** What the limiter reads the time from; swap it in tests. */
export interface Clock {
  now(): number;
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

const monotonicClock: Clock = { now: () => performance.now() };

/**
 * Spaces request starts evenly: with `perSecond = 4`, one start every 250 ms at most,
 * first come first served, shared by everyone holding the limiter. Even spacing rather
 * than a burst-then-wait window, because servers that answer 429 at "a few requests a
 * second" often count over windows shorter than a second.
 *
 * What it guarantees is on its own clock, at the moment it lets a request start: two
 * starts n apart are at least n / perSecond seconds apart, so no second holds more than
 * perSecond of them (a timer that fires early is checked against the clock and waited
 * out). What it cannot see is when each request reaches the server: that comes
 * later by an amount that varies (a new connection's set-up, a busy event loop, the
 * network). A server that counts arrivals needs a rate under its limit, not at it:
 * at exactly its limit, a first request held up by 10 ms puts five arrivals in one
 * second (see the `actionNetwork` preset for the numbers).
 *
 * @example
 * ```ts
 * import { RateLimiter } from './rate-limiter.js';
 *
 * const limiter = new RateLimiter(4);
 * await limiter.acquire(AbortSignal.timeout(5_000)); // resolves when this request may start
 * ```
 */
export class RateLimiter {
  readonly #interval: number;
  readonly #clock: Clock;
  readonly #queue: Waiter[] = [];
  #lastStart = Number.NEGATIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(perSecond: number, clock: Clock = monotonicClock) {
    if (!(perSecond > 0) || !Number.isFinite(perSecond)) {
      throw new RangeError(
        `rateLimit must be a positive number of requests per second, got ${perSecond}`,
      );
    }
    this.#interval = 1000 / perSecond;
    this.#clock = clock;
  }

  /**
   * Waits for this caller's turn to start a request. Rejects with the signal's reason
   * if it aborts first; an aborted waiter gives its turn to the next one.
   */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const index = this.#queue.indexOf(waiter);
          if (index !== -1) this.#queue.splice(index, 1);
          if (this.#queue.length === 0) this.#stopTimer();
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#drain();
    });
  }

  #drain(): void {
    if (this.#timer !== undefined) return;
    while (this.#queue.length > 0) {
      const now = this.#clock.now();
      const wait = this.#lastStart + this.#interval - now;
      if (wait > 0) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#drain();
        }, wait);
        return;
      }
      const waiter = this.#queue.shift();
      if (!waiter) return;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.#lastStart = now;
      waiter.resolve();
    }
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

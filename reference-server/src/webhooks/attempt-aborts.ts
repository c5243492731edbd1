/**
 * How a stopping worker cuts short the delivery attempts still in flight: one
 * AbortController per attempt, kept in a set while it runs, all aborted at once.
 *
 * Why not one shared AbortSignal that every attempt listens on: each attempt in flight
 * added a listener to it, and an event fanned out to more than ten subscriptions put more
 * than ten on one signal, which Node reports as a leak (`MaxListenersExceededWarning`);
 * raising the limit would hide a real leak later. Here each attempt's signal has its own
 * single listener (fetch's), and the set forgets an attempt when it ends. (Nor
 * `AbortSignal.any`: combined with a long-lived signal it kept every combined signal
 * alive on some Node versions.)
 */

/** One attempt's abort: its signal, and what to call when it ends (however it ends). */
export interface AttemptAbort {
  signal: AbortSignal;
  end(): void;
}

/**
 * The aborts of the attempts in flight.
 *
 * @example
 * ```ts
 * import { AttemptAborts } from './attempt-aborts.js';
 *
 * const aborts = new AttemptAborts();
 * const attempt = aborts.begin();
 * try {
 *   await fetch('https://hooks.example.org/adis', { method: 'POST', signal: attempt.signal });
 * } finally {
 *   attempt.end();
 * }
 * // at shutdown, past the grace:
 * aborts.abortAll();
 * ```
 */
export class AttemptAborts {
  private readonly inFlight = new Set<AbortController>();
  private abortedAll = false;

  /** True once {@link abortAll} was called: attempts begun later start aborted. */
  get aborted(): boolean {
    return this.abortedAll;
  }

  /** Attempts begun and not yet ended. */
  get size(): number {
    return this.inFlight.size;
  }

  /** A new attempt's abort, aborted already when {@link abortAll} was called. */
  begin(): AttemptAbort {
    const controller = new AbortController();
    if (this.abortedAll) controller.abort();
    else this.inFlight.add(controller);
    return {
      signal: controller.signal,
      end: () => {
        this.inFlight.delete(controller);
      },
    };
  }

  /** Aborts every attempt in flight, and every one begun from now on. */
  abortAll(): void {
    this.abortedAll = true;
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
  }
}

/**
 * How long a client may take to send a request, and how long an idle connection is kept:
 * what stops slow clients (slowloris: headers a byte at a time, a body that trickles or
 * stalls) from holding connections open. Node's own defaults (60 s for the headers,
 * 5 minutes for the request, checked every 30 s) let one client hold a connection for
 * minutes with a few bytes.
 */
/** The server's timeouts, in milliseconds. */
export interface ServerTimeouts {
  /**
   * From the connection (or, on a kept-alive one, the request's first byte) until the
   * request line and headers are complete; then 408 and the connection is closed.
   */
  headersMs: number;
  /** The same, until the whole request, body included, is received. At least `headersMs`. */
  requestMs: number;
  /** How long a connection is kept open, idle, after an answer, for the client's next request. */
  keepAliveMs: number;
}

/**
 * The defaults. 10 s for the headers: the server's clients are programs, which send them in
 * one packet. 30 s for the whole request: the 1 MiB body limit at about 35 KB/s, a slow
 * mobile uplink. 5 s keep-alive, Node's own.
 */
export const DEFAULT_SERVER_TIMEOUTS: Readonly<ServerTimeouts> = Object.freeze({
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
});

/**
 * `timeouts` over the defaults, checked: each a positive whole number of milliseconds,
 * and the headers' no longer than the request's (Node requires it). Throws a RangeError
 * that names the option.
 *
 * @example
 * ```ts
 * import { serverTimeouts } from './server-timeouts.js';
 *
 * serverTimeouts({ headersMs: 2_000 }); // { headersMs: 2000, requestMs: 30000, keepAliveMs: 5000 }
 * ```
 */
export function serverTimeouts(timeouts: Partial<ServerTimeouts> = {}): ServerTimeouts {
  const chosen = { ...DEFAULT_SERVER_TIMEOUTS, ...timeouts };
  for (const [name, value] of Object.entries(chosen)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(
        `timeouts.${name} must be a positive whole number of milliseconds, got ${value}`,
      );
    }
  }
  if (chosen.headersMs > chosen.requestMs) {
    throw new RangeError(
      `timeouts.headersMs (${chosen.headersMs}) must not exceed timeouts.requestMs (${chosen.requestMs})`,
    );
  }
  return chosen;
}

/**
 * How often Node looks for requests past their time (its `connectionsCheckingInterval`,
 * 30 s by default, which would let a request overrun a 10 s limit by 30 s): a quarter of
 * the shorter timeout, at most a second, so a limit is enforced within a second of it.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { checkingIntervalMs, DEFAULT_SERVER_TIMEOUTS } from './server-timeouts.js';
 *
 * createServer({ connectionsCheckingInterval: checkingIntervalMs(DEFAULT_SERVER_TIMEOUTS) });
 * ```
 */
export function checkingIntervalMs(timeouts: ServerTimeouts): number {
  return Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 4)));
}

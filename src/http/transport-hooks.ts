import type { HttpMethod } from './http-method.js';

/** One attempt of a request, as the hooks see it. */
export interface AttemptEvent {
  /** The attempt's method. */
  method: HttpMethod;
  /** The attempt's URL. */
  url: string;
  /** 1 for the first attempt, 2 for the first retry, and so on (per redirect hop). */
  attempt: number;
  /** Whether this attempt carries the API key (the key itself is never exposed). */
  authenticated: boolean;
}

/** An attempt that got a response (any status). */
export interface ResponseEvent extends AttemptEvent {
  /** The response status, whatever it is. */
  status: number;
  /** From the start of the attempt (after any rate-limit wait) to the response headers. */
  durationMs: number;
}

/** A failed attempt about to be retried. */
export interface RetryEvent extends AttemptEvent {
  /** Why the previous attempt failed: an SDK error (HTTPError, TimeoutError, NetworkError). */
  error: unknown;
}

/**
 * Observers of the transport's traffic, for logging and metrics. They may be async;
 * the request waits for them. An error thrown by a hook fails the request.
 *
 * @example
 * ```ts
 * import { createTransport } from 'adis-sdk';
 *
 * createTransport({
 *   hooks: {
 *     afterResponse: ({ method, url, status, durationMs }) =>
 *       console.log(`${method} ${url} ${status} ${durationMs.toFixed(0)} ms`),
 *   },
 * });
 * ```
 */
export interface TransportHooks {
  /**
   * Called before each attempt is sent: the first one, each retry and each redirect hop.
   *
   * @example
   * ```ts
   * import type { TransportHooks } from 'adis-sdk';
   *
   * const hooks: TransportHooks = {
   *   beforeRequest: ({ method, url, attempt }) => console.log(`${method} ${url} #${attempt}`),
   * };
   * ```
   */
  beforeRequest?(event: AttemptEvent): void | Promise<void>;
  /**
   * Called when an attempt gets a response, whatever its status (a 503 that will be
   * retried included), once its headers have arrived.
   */
  afterResponse?(event: ResponseEvent): void | Promise<void>;
  /**
   * Called when an attempt failed and another will be made, after the wait between the
   * two; `event.attempt` is the number of the attempt about to start (2 for the first
   * retry) and `event.error` what made the previous one fail.
   *
   * @example
   * ```ts
   * import type { TransportHooks } from 'adis-sdk';
   *
   * const hooks: TransportHooks = {
   *   beforeRetry: ({ url, attempt, error }) => console.warn(`attempt ${attempt} of ${url}`, error),
   * };
   * ```
   */
  beforeRetry?(event: RetryEvent): void | Promise<void>;
}

import type { HttpMethod } from './transport.js';

/** One attempt of a request, as the hooks see it. */
export interface AttemptEvent {
  method: HttpMethod;
  url: string;
  /** 1 for the first attempt, 2 for the first retry, and so on (per redirect hop). */
  attempt: number;
  /** Whether this attempt carries the API key (the key itself is never exposed). */
  authenticated: boolean;
}

/** An attempt that got a response (any status). */
export interface ResponseEvent extends AttemptEvent {
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
 * createTransport({
 *   hooks: {
 *     afterResponse: ({ method, url, status, durationMs }) =>
 *       console.log(`${method} ${url} ${status} ${durationMs.toFixed(0)} ms`),
 *   },
 * });
 * ```
 */
export interface TransportHooks {
  beforeRequest?(event: AttemptEvent): void | Promise<void>;
  afterResponse?(event: ResponseEvent): void | Promise<void>;
  beforeRetry?(event: RetryEvent): void | Promise<void>;
}

import type { ShouldRetryState } from 'ky';
import ky, { isHTTPError as isKyHTTPError, isTimeoutError as isKyTimeoutError } from 'ky';
import { HTTPError } from '../errors/http-error.js';
import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { NetworkError } from '../errors/network-error.js';
import { RateLimitError } from '../errors/rate-limit-error.js';
import { RedirectError } from '../errors/redirect-error.js';
import { ResponseFormatError } from '../errors/response-format-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { isAdisError, isNetworkError, isTimeoutError } from '../errors/type-guards.js';
import { bufferResponse, textOf } from './body-reader.js';
import { KeyHonouringOrigins } from './honoured-keys.js';
import type { HttpMethod } from './http-method.js';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyFor } from './idempotency-key.js';
import { bodyValue, parseBody } from './json-body.js';
import { toKyRetry } from './ky-retry.js';
import { originOf, TrustedOrigins } from './origins.js';
import { RateLimiter } from './rate-limiter.js';
import { type Hop, isRedirectStatus, MAX_REDIRECTS, nextHop } from './redirects.js';
import { refusedBeforeSending } from './refused-connection.js';
import {
  isIdempotentMethod,
  type RetryCall,
  type RetryFailure,
  type RetryOptions,
  type RetryPolicy,
  type RetryVerdict,
  retryPolicy,
  retryVerdict,
} from './retry-policy.js';
import type { TransportHooks } from './transport-hooks.js';

export type { RetryOptions } from './retry-policy.js';
export type {
  AttemptEvent,
  ResponseEvent,
  RetryEvent,
  TransportHooks,
} from './transport-hooks.js';

import { DEFAULT_API_KEY_HEADER } from '../wire/api-key-header.js';
import { BODY_PREVIEW_LENGTH } from '../wire/body-preview.js';
import { isHttpUrl } from '../wire/http-url.js';

export type { HttpMethod } from './http-method.js';
export { DEFAULT_API_KEY_HEADER };

/** One request as the rest of the SDK describes it. */
export interface HttpRequest {
  /** The HTTP method. */
  method: HttpMethod;
  /** Absolute URL, used exactly as given (links are canonical; never rewritten). */
  url: string;
  /** Serialised as JSON when present, with `Content-Type: application/json`. */
  body?: unknown;
  /** Cancels this call; rejects with the signal's reason, unwrapped. */
  signal?: AbortSignal;
  /** Per-attempt timeout for this call in ms (headers and body), or `false` for none. */
  timeout?: number | false;
  /** Extra headers for this call, over the transport's `headers`. */
  headers?: Record<string, string>;
  /** Default true. `false` never sends the key (unauthenticated helper calls from browsers). */
  authenticate?: boolean;
  /**
   * The `Idempotency-Key` of a POST: by default (`undefined`) a new random key for this
   * call when the transport's `idempotencyKeys` is on, sent unchanged with every retry
   * and redirect hop that stays a POST; a string sends that key instead (1 to 255
   * visible ASCII characters, else an `InvalidIdempotencyKeyError` before any request);
   * `false` sends none. A POST with a key its server honours is retried like a GET;
   * any other POST only after a 429 or a refused connection (see the transport's
   * `idempotencyKeys`). Ignored on other methods.
   */
  idempotencyKey?: string | false;
  /**
   * Shown the start of the response body as it arrives (the text so far, after each
   * chunk, up to 64 KiB) until it answers true: lets a caller act on the head of a
   * large body before the rest is read and parsed. Called again on a retry.
   */
  onHead?: (text: string) => boolean;
}

/** A successful (2xx) response, body already parsed. */
export interface HttpResponse {
  /** The response status, a 2xx. */
  status: number;
  /** Final URL of the response, after redirects. */
  url: string;
  /** The response headers. */
  headers: Headers;
  /** Parsed JSON; undefined for an empty body (204, or 200 with no content). */
  body: unknown;
}

/** How a transport talks to one server. */
export interface TransportOptions {
  /** The API key, sent only to trusted origins. Without one no key is ever sent. */
  apiKey?: string;
  /** Default `STD-API-Token`; some servers use `OSDI-API-Token` or their own name. */
  apiKeyHeader?: string;
  /** Origins that may receive the key besides those added with `trustOrigin`. */
  trustedOrigins?: readonly string[];
  /** Custom fetch (msw, proxies, tests). Default: the global fetch at call time. */
  fetch?: typeof globalThis.fetch;
  /**
   * Longest time one attempt may take, from its start to the end of the response body,
   * ms, or `false` for none. Default 30 000.
   */
  timeout?: number | false;
  /**
   * Longest pause between two chunks of a response body, ms, or `false` for none: a
   * body that stalls fails (and is retried, for idempotent calls) this long after its
   * last byte, even with `timeout: false`. Default 10 000.
   */
  idleTimeout?: number | false;
  /**
   * A number is the retry limit; `false` disables retries. Default: limit 3, backoff
   * up to 10 s, and a server-requested wait of at most 60 s (`maxRetryAfter`).
   */
  retry?: RetryOptions | number | false;
  /** Most request starts (retries and redirect hops included) per second; default unlimited. */
  rateLimit?: number;
  /** Extra headers on every request (User-Agent etc.). */
  headers?: Record<string, string>;
  /** Observers of each attempt, response and retry, for logging and metrics. */
  hooks?: TransportHooks;
  /**
   * `Idempotency-Key` on POSTs (creates, helper calls), and when a POST is retried.
   *
   * - `true` (the default): every POST carries a key, a new random one per call reused
   *   on its retries. Sending it is harmless, but most servers ignore it, so a POST is
   *   retried after a 5xx, a timeout or a reset (any failure that may come after the
   *   server acted) only once the server has shown that it honours the key: an answer
   *   from its origin carrying `Idempotency-Key-Honoured: true` (the reference server
   *   sends it on every answer, the entry point's included) or echoing the key sent.
   *   Until then a POST is retried only after a 429, or a connection refused before
   *   anything was sent.
   * - `'honoured'`: the same keys, and you vouch that every server this transport talks
   *   to honours them (answers a repeated key with the first answer): keyed POSTs are
   *   retried like a GET (network errors, timeouts, 408, 429, 5xx, and 409 with
   *   `Retry-After`) from the first call on.
   * - `false`: no key unless a call gives its own (`idempotencyKey`): for a server that
   *   refuses the header (a CORS preflight that does not allow it, a proxy).
   *
   * @example
   * ```ts
   * import { createTransport } from 'adis-sdk';
   *
   * // A server of your own that stores Idempotency-Key answers but does not say so:
   * createTransport({ apiKey: process.env.ADIS_KEY, idempotencyKeys: 'honoured' });
   * ```
   */
  idempotencyKeys?: boolean | 'honoured';
  /**
   * Most bytes of a response body the transport reads, any status; `false` for no cap.
   * A body that grows past it fails the call with a `ResponseTooLargeError` as soon as
   * the chunk that passes the cap arrives, and is not retried. Default
   * {@link DEFAULT_MAX_BODY_BYTES} (32 MiB).
   *
   * @example
   * ```ts
   * import { createTransport } from 'adis-sdk';
   *
   * createTransport({ maxBodyBytes: 4 * 1024 * 1024 }); // 4 MiB: memory is tight here
   * ```
   */
  maxBodyBytes?: number | false;
}

/** Sends requests for the SDK; see {@link createTransport}. */
export interface Transport {
  /**
   * Sends one request; resolves with a 2xx response or rejects with an SDK error.
   */
  request(request: HttpRequest): Promise<HttpResponse>;
  /**
   * Lets the origin of this URL receive the API key (the navigator adds the entry point).
   */
  trustOrigin(urlOrOrigin: string): void;
  /**
   * Whether the API key would be sent to this URL.
   */
  isTrusted(url: string): boolean;
}

/** Per-attempt timeout when none is given, ms. */
export const DEFAULT_TIMEOUT = 30_000;
/** Longest pause between two chunks of a body when none is given, ms. */
export const DEFAULT_IDLE_TIMEOUT = 10_000;
/**
 * Most bytes of a response body read when no `maxBodyBytes` is given: 32 MiB. A page of
 * 100 people is about 0.2 MB and the specification's largest answers (a page at a
 * server's `max_pagesize`, an export page) stay under a few MB, so the cap is two orders
 * of magnitude above any real answer, yet bounds what an endless body can take: the
 * bytes, then at most twice as much again while they are decoded to a string.
 *
 * @example
 * ```ts
 * import { createTransport, DEFAULT_MAX_BODY_BYTES } from 'adis-sdk';
 *
 * createTransport({ maxBodyBytes: 2 * DEFAULT_MAX_BODY_BYTES }); // a server with huge pages
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

const DEFAULT_ACCEPT = 'application/hal+json, application/json;q=0.9, */*;q=0.1';
// ky refuses a timeout above what setTimeout can hold; refuse it when the transport is made.
const MAX_TIMEOUT = 2_147_483_647;

// An error thrown by one of the caller's hooks, carried through ky unchanged: it is
// neither retried nor turned into an SDK error, and comes back to the caller as it was.
class HookFailure {
  constructor(readonly error: unknown) {}
}

async function runHook<E>(hook: ((event: E) => void | Promise<void>) | undefined, event: E) {
  if (!hook) return;
  try {
    await hook(event);
  } catch (error) {
    throw new HookFailure(error);
  }
}

/**
 * Creates the HTTP transport every other part of the SDK sends through. It sends the
 * API key only to trusted origins (and re-checks on every redirect hop), gives every
 * POST an `Idempotency-Key`, retries idempotent requests (and POSTs whose key the server
 * honours; any call after a 429) with backoff and jitter honouring `Retry-After` up to a
 * cap, spaces request starts under a client-side rate limit, times out each attempt
 * (body included) and each stalled body, caps the bytes of a body, parses JSON leniently
 * and turns every failure into an SDK error.
 *
 * Every call settles within a time the options bound: per redirect hop, at most
 * `retry.limit + 1` attempts of at most `timeout` each, with at most
 * `max(retry.backoffLimit, retry.maxRetryAfter)` between two of them (plus any wait for
 * the client-side `rateLimit`); see docs/errors.md.
 *
 * @example
 * ```ts
 * import { createTransport } from 'adis-sdk';
 *
 * const transport = createTransport({ apiKey: process.env.ADIS_KEY, rateLimit: 4 });
 * transport.trustOrigin('https://api.example.org/api/v1/');
 * const { body } = await transport.request({ method: 'GET', url: 'https://api.example.org/api/v1/' });
 * ```
 */
export function createTransport(options: TransportOptions = {}): Transport {
  const origins = new TrustedOrigins(options.trustedOrigins);
  const limiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
  const keyHeader = options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER;
  const hooks = options.hooks ?? {};
  const policy = retryPolicy(options.retry);
  const idleTimeout = checkedTimeout('idleTimeout', options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT);
  const defaultTimeout = checkedTimeout('timeout', options.timeout ?? DEFAULT_TIMEOUT);
  const maxBodyBytes = checkedBodyCap(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const honouring = new KeyHonouringOrigins(options.idempotencyKeys === 'honoured');
  // Looked up per call so that fetch mocks installed after the transport (msw) still apply.
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function request(call: HttpRequest): Promise<HttpResponse> {
    const { signal } = call;
    signal?.throwIfAborted();
    // Links are checked where they are resolved; this catches an address given by hand.
    if (originOf(call.url) === undefined) {
      throw new InvalidLinkError({
        rel: undefined,
        href: call.url,
        documentUrl: undefined,
        reason: 'not an absolute http(s) URL',
      });
    }
    // One key per logical call, made (or checked) before anything is sent.
    const idempotencyKey =
      call.method === 'POST'
        ? idempotencyKeyFor(
            call.idempotencyKey,
            options.idempotencyKeys !== false,
            'POST',
            call.url,
          )
        : undefined;
    try {
      return await followRedirects(call, idempotencyKey);
    } catch (error) {
      // Whatever surfaced (fetch's AbortError, a limiter rejection, a half-read body),
      // a caller who aborted gets back exactly the reason they aborted with.
      if (signal?.aborted) throw signal.reason;
      if (error instanceof HookFailure) throw error.error;
      if (isAdisError(error)) throw error;
      // Anything else the platform threw while sending is a failed exchange too.
      throw new NetworkError(call.method, call.url, error);
    }
  }

  async function followRedirects(
    call: HttpRequest,
    idempotencyKey: string | undefined,
  ): Promise<HttpResponse> {
    let hop: Hop = { method: call.method, url: call.url, body: call.body };
    const firstOrigin = originOf(call.url);
    // Once a chain leaves the trusted origins the key stays off, even if a later hop
    // comes back: otherwise any server a link points at could make us send an
    // authenticated request of its choosing.
    let keyAllowed = options.apiKey !== undefined && call.authenticate !== false;
    for (let redirects = 0; ; redirects++) {
      keyAllowed = keyAllowed && origins.has(hop.url);
      const crossOrigin = originOf(hop.url) !== firstOrigin;
      // A hop that a redirect turned into a GET needs no key.
      const hopKey = hop.method === 'POST' ? idempotencyKey : undefined;
      const response = await send(call, hop, keyAllowed, crossOrigin, hopKey);
      // Only key-carrying hops use `redirect: 'manual'`; others let fetch follow.
      if (keyAllowed && response.type === 'opaqueredirect') {
        throw new RedirectError(hop.method, hop.url, 'opaque-redirect');
      }
      if (!keyAllowed || !isRedirectStatus(response.status)) {
        return toHttpResponse(hop, response);
      }
      void response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      if (location === null) throw new RedirectError(hop.method, hop.url, 'missing-location');
      if (redirects >= MAX_REDIRECTS) {
        throw new RedirectError(hop.method, hop.url, 'too-many-redirects');
      }
      const target = resolveLocation(location, hop.url);
      if (target === undefined)
        throw new RedirectError(hop.method, hop.url, 'unsupported-location');
      hop = nextHop(hop, response.status, target);
    }
  }

  async function send(
    call: HttpRequest,
    hop: Hop,
    withKey: boolean,
    crossOrigin: boolean,
    idempotencyKey: string | undefined,
  ): Promise<Response> {
    const { signal } = call;
    const keyed = idempotencyKey !== undefined;
    // A POST with a key is safe to repeat where the server answers a repeat with the
    // first answer. Asked at each failure: the failed attempt's answer may have shown it.
    const retryCall = (): RetryCall => ({
      repeatSafe: isIdempotentMethod(hop.method) || (keyed && honouring.has(hop.url)),
      keyed,
    });
    const timeout =
      call.timeout === undefined ? defaultTimeout : checkedTimeout('timeout', call.timeout);
    const event = { method: hop.method, url: hop.url, authenticated: withKey };
    let attempt = 0;
    let attemptStart = 0;
    const verdictOf = (error: unknown): RetryVerdict | undefined => {
      const failure = retryFailure(error);
      return failure && retryVerdict(policy, failure, retryCall());
    };
    const shouldRetry = ({ error }: ShouldRetryState): boolean | undefined => {
      if (signal?.aborted) return false;
      const verdict = verdictOf(error);
      if (!verdict?.retry) return false;
      // ky waits what the answer names (it reads the headers as the policy does), or backs off.
      return verdict.wait === undefined ? true : undefined;
    };
    try {
      return await ky(hop.url, {
        method: hop.method,
        headers: requestHeaders(call, withKey, crossOrigin, hop.body !== undefined, idempotencyKey),
        ...(hop.body === undefined ? {} : { json: hop.body }),
        ...(signal ? { signal } : {}),
        timeout,
        retry: toKyRetry(policy, keyed, shouldRetry),
        redirect: withKey ? 'manual' : 'follow',
        // 3xx (and the status 0 of an opaque redirect) come back for us to follow.
        throwHttpErrors: (status) => status >= 400,
        // The whole exchange, body included, happens inside ky's attempt: its timeout
        // then covers the body, and a body that fails is retried like a failed fetch.
        fetch: async (input, init) => {
          const attemptSignal = input instanceof Request ? input.signal : init?.signal;
          let response: Response;
          try {
            response = await baseFetch(input, init);
          } catch (error) {
            // Aborts and timeouts are ky's (and the caller's) business, not network errors.
            if (attemptSignal?.aborted) throw error;
            throw new NetworkError(hop.method, hop.url, error);
          }
          honouring.learn(response.url || hop.url, response.headers, idempotencyKey);
          await runHook(hooks.afterResponse, {
            ...event,
            attempt,
            status: response.status,
            durationMs: performance.now() - attemptStart,
          });
          // A redirect to follow by hand has nothing worth reading.
          if (response.type === 'opaqueredirect' || (withKey && isRedirectStatus(response.status)))
            return response;
          return bufferResponse(response, {
            method: hop.method,
            url: hop.url,
            idleTimeout,
            maxBodyBytes,
            signal: attemptSignal ?? undefined,
            onHead: call.onHead,
          });
        },
        hooks: {
          beforeRequest: [
            async (_request, _options, { retryCount }) => {
              if (limiter) await limiter.acquire(signal);
              attempt = retryCount + 1;
              attemptStart = performance.now();
              await runHook(hooks.beforeRequest, { ...event, attempt });
            },
          ],
          beforeRetry: [
            async ({ error, retryCount }) => {
              if (!hooks.beforeRetry) return;
              const reported = await toAdisError(error, hop, timeout, verdictOf(error), policy);
              await runHook(hooks.beforeRetry, {
                ...event,
                attempt: retryCount + 1,
                error: reported,
              });
            },
          ],
        },
      });
    } catch (error) {
      throw await toAdisError(error, hop, timeout, verdictOf(error), policy);
    }
  }

  function requestHeaders(
    call: HttpRequest,
    withKey: boolean,
    crossOrigin: boolean,
    hasBody: boolean,
    idempotencyKey: string | undefined,
  ): Headers {
    const headers = new Headers({ accept: DEFAULT_ACCEPT });
    for (const [name, value] of Object.entries({ ...options.headers, ...call.headers })) {
      headers.set(name, value);
    }
    // A key put into the extra headers by hand must obey the same origin rule.
    headers.delete(keyHeader);
    if (withKey && options.apiKey !== undefined) headers.set(keyHeader, options.apiKey);
    if (crossOrigin) {
      // As fetch does on a cross-origin redirect: caller credentials stay with their origin.
      headers.delete('authorization');
      headers.delete('cookie');
    }
    if (!hasBody) headers.delete('content-type');
    if (idempotencyKey !== undefined) headers.set(IDEMPOTENCY_KEY_HEADER, idempotencyKey);
    return headers;
  }

  return {
    request,
    trustOrigin: (urlOrOrigin) => origins.add(urlOrOrigin),
    isTrusted: (url) => origins.has(url),
  };
}

function checkedBodyCap(value: number | false): number | false {
  if (value === false || (Number.isInteger(value) && value > 0)) return value;
  throw new RangeError(
    `maxBodyBytes must be false or a whole number of bytes above 0, got ${value}`,
  );
}

/**
 * A failure as the retry policy tells them apart, or undefined for one that is not the
 * exchange's (an error thrown by a hook), which is never retried.
 */
function retryFailure(error: unknown): RetryFailure | undefined {
  if (isKyHTTPError(error)) return error.response;
  if (refusedBeforeSending(error)) return 'unsent';
  return isNetworkError(error) || isTimeoutError(error) || isKyTimeoutError(error)
    ? 'lost'
    : undefined;
}

function checkedTimeout(name: string, value: number | false): number | false {
  if (value === false) return false;
  if (!(value > 0 && value <= MAX_TIMEOUT)) {
    throw new RangeError(`${name} must be false or 1 to ${MAX_TIMEOUT} ms, got ${value}`);
  }
  return value;
}

async function toHttpResponse(hop: Hop, response: Response): Promise<HttpResponse> {
  const url = response.url || hop.url;
  const body = parseBody(await textOf(response));
  if (response.status < 200 || response.status > 299) {
    throw new HTTPError({
      method: hop.method,
      url,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: bodyValue(body),
    });
  }
  if (body.kind === 'text') {
    throw new ResponseFormatError({
      method: hop.method,
      url,
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: body.text.slice(0, BODY_PREVIEW_LENGTH),
      cause: body.error,
    });
  }
  return {
    status: response.status,
    url,
    headers: response.headers,
    body: body.kind === 'json' ? body.value : undefined,
  };
}

async function toAdisError(
  error: unknown,
  hop: Hop,
  timeout: number | false,
  verdict: RetryVerdict | undefined,
  { maxRetryAfter }: RetryPolicy,
): Promise<unknown> {
  if (isAdisError(error) || error instanceof HookFailure) return error;
  if (isKyHTTPError(error)) {
    const { response } = error;
    const text = await textOf(response).catch(() => '');
    const init = {
      method: hop.method,
      url: response.url || hop.url,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: bodyValue(parseBody(text)),
    };
    // The server asked for a longer wait than the policy allows: the call ends here.
    if (verdict && !verdict.retry && verdict.wait !== undefined) {
      return new RateLimitError({ ...init, retryAfter: verdict.wait, maxRetryAfter });
    }
    return new HTTPError(init);
  }
  if (isKyTimeoutError(error)) {
    return new TimeoutError(hop.method, hop.url, timeout === false ? 0 : timeout, { cause: error });
  }
  return error;
}

function resolveLocation(location: string, base: string): string | undefined {
  try {
    const target = new URL(location, base);
    return isHttpUrl(target) ? target.toString() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one way `adis-check` talks to a server: every request spaced (`rate`), counted
 * against a budget (`maxRequests`), bounded in time (`timeoutMs`), and a 429 waited out
 * as its `Retry-After` asks (at most `maxWaitMs`). It keeps what the checks of rate
 * limiting need: the 429s met, with and without `Retry-After`. And it keeps to the
 * server under test: a request to another origin, or a redirect there, is refused
 * unless the caller says it may leave (a documentation link the user asked to follow).
 *
 * It uses `fetch` directly, not the SDK's transport: a checker must see each answer as
 * the server sent it (status, headers, a body that is not JSON), not as the navigator
 * decodes and retries it.
 */
import { NetworkError } from '../errors/network-error.js';
import { requestedWait } from '../wire/retry-after.js';

/** Options of a {@link Prober}. */
export interface ProberOptions {
  fetch?: typeof globalThis.fetch;
  /**
   * Sent with every request to `origin` unless it says `withKey: false`; never to
   * another origin (a link or a redirect elsewhere gets no key), as with the SDK.
   */
  keyHeaders?: Record<string, string>;
  /**
   * The server under test's origin (the entry point's), which the key belongs to: a
   * request elsewhere, or a redirect there, is refused ({@link OffOriginError}) unless
   * it says `elsewhere: true`. Without it, any origin, and no key is sent.
   */
  origin?: string;
  /** Requests a second at most. Default 4. */
  rate?: number;
  /** Requests in all (retries after a 429 included). Default 500. */
  maxRequests?: number;
  /** Milliseconds a request may take, body included. Default 15 000. */
  timeoutMs?: number;
  /** The longest `Retry-After` waited out; a longer one ends the retries. Default 30 000. */
  maxWaitMs?: number;
  /** Aborts every wait and request. */
  signal?: AbortSignal;
  /** Told of each request as it is sent (progress on stderr). */
  onRequest?: (method: string, url: string) => void;
}

/** Options of one request. */
export interface ProbeInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Send the key headers. Default true. */
  withKey?: boolean;
  /** Retry after a 429 (waiting as asked). Default true; false to see the 429 itself. */
  retry429?: boolean;
  /**
   * May leave the server's origin, redirects included (a documentation link the user
   * asked to follow: `--follow-docs`); elsewhere, no key is sent. Default false.
   */
  elsewhere?: boolean;
}

/** An answer as the server sent it. */
export interface ProbeResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  /** The content type without parameters, lower case (`application/hal+json`). */
  contentType: string;
  text: string;
  /** The body parsed, when it is JSON. */
  json?: unknown;
  /** Why the body is not JSON, when it is not empty and does not parse. */
  jsonError?: string;
}

/** A 429 the prober met. */
export interface RateLimitMeeting {
  url: string;
  retryAfter: string | null;
}

/** The request budget (`maxRequests`) is spent: the checks that need more are skipped. */
export class RequestBudgetError extends Error {
  /** Always `'REQUEST_BUDGET'`. */
  readonly code = 'REQUEST_BUDGET' as const;
  override readonly name = 'RequestBudgetError';
  /**
   * Builds the error; the message names the budget and the option that sets it.
   *
   * @param maxRequests - The budget that is spent.
   */
  constructor(readonly maxRequests: number) {
    super(`the request budget of ${maxRequests} is spent (--max-requests)`);
  }
}

/**
 * A request, or a redirect, that would leave the server under test for another origin,
 * refused before anything is sent: the checker contacts nothing elsewhere unless asked.
 */
export class OffOriginError extends Error {
  /** Always `'OFF_ORIGIN'`. */
  readonly code = 'OFF_ORIGIN' as const;
  override readonly name = 'OffOriginError';
  /**
   * @param url - The URL on another origin.
   * @param origin - The server under test's origin.
   * @param from - The URL that redirected there, when it was a redirect.
   */
  constructor(
    readonly url: string,
    readonly origin: string,
    readonly from?: string,
  ) {
    super(
      `${from ? `${from} redirects to ${url}, ` : `${url} is `}on another origin than the server under test (${origin})`,
    );
  }
}

/**
 * Sends the checks' requests within the limits of {@link ProberOptions}.
 *
 * @example
 * ```ts
 * import { Prober } from './prober.js';
 *
 * const prober = new Prober({ keyHeaders: { 'STD-API-Token': 'secret' }, origin: 'https://api.example.org', rate: 4 });
 * const answer = await prober.request('https://api.example.org/api/v1/');
 * answer.status; // 200
 * ```
 */
export class Prober {
  readonly #fetch: typeof globalThis.fetch;
  /** Sent with every request that does not say `withKey: false`. */
  keyHeaders: Record<string, string>;
  readonly #options: ProberOptions;
  readonly #intervalMs: number;
  #nextStart = 0;
  /** Requests sent so far. */
  sent = 0;
  /** Requests sent, by method. */
  readonly methods: Record<string, number> = {};
  /** Every 429 met. */
  readonly rateLimited: RateLimitMeeting[] = [];
  /** Rate-limit headers seen on any answer (`x-ratelimit-limit: 4`). */
  readonly limitHeaders = new Map<string, string>();

  constructor(options: ProberOptions = {}) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.keyHeaders = { ...options.keyHeaders };
    const rate = options.rate ?? 4;
    this.#intervalMs = rate > 0 && Number.isFinite(rate) ? 1000 / rate : 0;
  }

  /** Requests still allowed by the budget. */
  get remaining(): number {
    return (this.#options.maxRequests ?? 500) - this.sent;
  }

  /**
   * Sends one request and reads its whole answer. Rejects with RequestBudgetError when
   * the budget is spent, NetworkError when no answer came (or not within `timeoutMs`),
   * OffOriginError (nothing sent) for another origin than `origin` without `elsewhere`.
   */
  async request(url: string, init: ProbeInit = {}): Promise<ProbeResponse> {
    const method = init.method ?? 'GET';
    for (let attempt = 1; ; attempt++) {
      const answer = await this.#follow(method, url, init);
      if (answer.status !== 429) return answer;
      const retryAfter = answer.headers.get('retry-after');
      this.rateLimited.push({ url, retryAfter });
      if (init.retry429 === false || attempt >= 3) return answer;
      const wait = requestedWait(answer.headers, Date.now(), ['retry-after']);
      const ms = wait.kind === 'wait' ? wait.ms : 1000 * attempt;
      if (ms > (this.#options.maxWaitMs ?? 30_000)) return answer;
      await this.#sleep(ms);
    }
  }

  /**
   * Sends, following redirects itself (at most {@link MAX_REDIRECTS}): `fetch` would
   * carry the key header to whatever origin a redirect names.
   */
  async #follow(method: string, url: string, init: ProbeInit): Promise<ProbeResponse> {
    let target = url;
    for (let hop = 0; ; hop++) {
      const origin = this.#options.origin;
      if (origin !== undefined && init.elsewhere !== true && originOf(target) !== origin) {
        throw new OffOriginError(target, origin, hop > 0 ? url : undefined);
      }
      const answer = await this.#send(method, target, init);
      const location = answer.headers.get('location');
      const redirect = [301, 302, 303, 307, 308].includes(answer.status) && location !== null;
      // Only reads are followed: a write that is redirected is reported as it came.
      if (!redirect || hop >= MAX_REDIRECTS || !['GET', 'HEAD', 'OPTIONS'].includes(method))
        return answer;
      try {
        target = new URL(location, target).href;
      } catch {
        return answer;
      }
    }
  }

  async #send(method: string, url: string, init: ProbeInit): Promise<ProbeResponse> {
    if (this.remaining <= 0) throw new RequestBudgetError(this.#options.maxRequests ?? 500);
    const now = Date.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + this.#intervalMs;
    if (start > now) await this.#sleep(start - now);
    this.sent++;
    this.methods[method] = (this.methods[method] ?? 0) + 1;
    this.#options.onRequest?.(method, url);
    const headers: Record<string, string> = {
      Accept: 'application/hal+json, application/json;q=0.9, */*;q=0.1',
      ...(init.withKey === false || originOf(url) !== this.#options.origin ? {} : this.keyHeaders),
      ...init.headers,
    };
    let body: string | undefined;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['Content-Type'] ??= 'application/json';
    }
    const timeout = AbortSignal.timeout(this.#options.timeoutMs ?? 15_000);
    const signal = this.#options.signal
      ? AbortSignal.any([this.#options.signal, timeout])
      : timeout;
    try {
      const response = await this.#fetch(url, {
        method,
        headers,
        body,
        signal,
        redirect: 'manual',
      });
      const { text, cut } = await readText(response, MAX_BODY_BYTES);
      for (const name of LIMIT_HEADERS) {
        const value = response.headers.get(name);
        if (value !== null) this.limitHeaders.set(name, value);
      }
      return {
        method,
        url,
        status: response.status,
        headers: response.headers,
        text,
        ...(cut
          ? { jsonError: `the body is over ${MAX_BODY_BYTES / 1024 / 1024} MiB: not read` }
          : parsed(text)),
        contentType: mediaType(response.headers),
      };
    } catch (error) {
      throw new NetworkError(
        method,
        url,
        timeout.aborted
          ? new Error(`no answer within ${this.#options.timeoutMs ?? 15_000} ms`)
          : error,
      );
    }
  }

  #sleep(ms: number): Promise<void> {
    const signal = this.#options.signal;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

const LIMIT_HEADERS = ['x-ratelimit-limit', 'ratelimit-limit', 'ratelimit-policy'];

/** Redirects followed for one request at most. */
const MAX_REDIRECTS = 5;

/** The most of a body read: a page of records is far less; a server sending more is cut off. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The body as text, up to `limit` bytes; `cut` when there was more (the rest is not read). */
async function readText(
  response: Response,
  limit: number,
): Promise<{ text: string; cut: boolean }> {
  if (!response.body) return { text: '', cut: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), cut: false };
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel();
      return { text: '', cut: true };
    }
    text += decoder.decode(value, { stream: true });
  }
}

function mediaType(headers: Headers): string {
  return (headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function parsed(text: string): { json?: unknown; jsonError?: string } {
  if (text.trim() === '') return {};
  try {
    return { json: JSON.parse(text) as unknown };
  } catch (error) {
    return { jsonError: error instanceof Error ? error.message : String(error) };
  }
}

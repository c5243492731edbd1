import { HTTPError } from '../errors/http-error.js';
import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { NetworkError } from '../errors/network-error.js';
import { ResponseFormatError } from '../errors/response-format-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyFor } from '../http/idempotency-key.js';
import { bodyValue, parseBody } from '../http/json-body.js';
import {
  backoffDelay,
  type RetryFailure,
  type RetryOptions,
  retryPolicy,
  retryVerdict,
} from '../http/retry-policy.js';
import { DEFAULT_API_KEY_HEADER } from '../wire/api-key-header.js';
import { DEFAULT_BACKGROUND_PARAMETER } from '../wire/background-parameter.js';
import { BODY_PREVIEW_LENGTH } from '../wire/body-preview.js';
import { isHttpUrl } from '../wire/http-url.js';
import { isJsonObject } from '../wire/json-object.js';
import { type HelperResult, isPartialSuccess, partialResult, successResult } from './result.js';

// The light entry talks to `fetch` directly: the full SDK's transport (ky, rate limits,
// trusted origins, hooks) is far beyond a page's budget. Its retries follow the SDK's one
// policy (http/retry-policy.ts), in a loop of its own: a 429 (which applied nothing) and
// a refused connection are sent again, and, where the page says the server honours
// Idempotency-Key, a broken connection and a 5xx too, since a page on a phone loses its
// connection more often than anything else goes wrong, and the key then makes a repeat
// safe. It learns nothing from answers: one call is all it sees. Retries stay inside the
// call's one deadline: a wait that would pass it ends the call with the answer.

/**
 * Options of the standalone helper functions (`recordSignature`, `callHelper`…).
 *
 * @example
 * ```ts
 * import { recordSignature } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/petitions/1/record_signature_helper';
 * const input = { person: { given_name: 'Ana' } };
 * // From a web page: no key, the helper answers {} or an error.
 * await recordSignature(href, input);
 * // From a server: with the key, the helper answers with the records.
 * await recordSignature(href, input, { apiKey: process.env.ADIS_KEY, signal: AbortSignal.timeout(10_000) });
 * ```
 */
export interface HelperCallOptions {
  /** The API key. Leave it out in browser pages: a key must never be put in a page. */
  apiKey?: string;
  /** The key's header; default `STD-API-Token`. */
  apiKeyHeader?: string;
  /** The fetch to use (tests, proxies); default the global fetch at call time. */
  fetch?: typeof fetch;
  /** Cancels the call; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Longest time the call may take, from sending to the end of the answer's body, its
   * retries and the waits between them included, ms, or `false` for none; past it the
   * call rejects with a `TimeoutError`. Default 30 000.
   */
  timeout?: number | false;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * When the call is sent again, the client's `retry` option in the same shape (a
   * number is the limit, `false` none): which failures, how long to wait (the
   * `Retry-After` a server names, seconds or date, up to `maxRetryAfter`), how many
   * times. Default: 3 retries, backoff from 0.3 s up to 10 s, waits of at most 60 s;
   * all within `timeout`. See docs/errors.md, "Retries".
   */
  retry?: RetryOptions | number | false;
  /**
   * The call's `Idempotency-Key`. By default a new random key per call, sent again with
   * each retry (see `idempotencyKeysHonoured` for which failures are retried). A
   * string sends that key instead: keep one made with {@link newIdempotencyKey} across
   * submits whose outcome is unknown (a `NetworkError` or `TimeoutError`), so that a
   * signer who submits again then signs once on a server that honours the key, and make
   * a new one after any answer. 1 to 255 visible ASCII characters, else an
   * `InvalidIdempotencyKeyError` before any request. `false` sends no key (and the call
   * is retried only after a 429): for a server whose CORS does not allow the header (the
   * browser then refuses the preflight; see docs/browser.md).
   */
  idempotencyKey?: string | false;
  /**
   * Whether the server honours `Idempotency-Key` (answers a repeated key with the first
   * answer instead of acting again), as the reference server does. Default false: the
   * call is retried (up to `retry.limit` times, within `timeout`) only after a 429 or a
   * refused connection, which applied nothing, since a server that ignores the key would
   * record a signature again on a retry after a lost answer. `true`, with a key: also
   * retried on a network error, 408, 5xx and a 409 with `Retry-After`, and the server
   * acts once.
   *
   * @example
   * ```ts
   * import { recordSignature } from 'adis-sdk/helpers';
   *
   * const href = 'https://api.example.org/api/v1/petitions/1/record_signature_helper';
   * // The reference server honours keys (and says so with Idempotency-Key-Honoured: true).
   * await recordSignature(href, { person: { given_name: 'Ana' } }, { idempotencyKeysHonoured: true });
   * ```
   */
  idempotencyKeysHonoured?: boolean;
  /**
   * Asks the server to do the work later: `background_request=true` is added to the
   * href's query (its other parameters kept), the spelling Action Network documents. A
   * server that does so answers at once with `{}` (202 Accepted, or 200 on Action
   * Network), and the call resolves with `accepted: true` and no record; one that
   * ignores the parameter answers as usual. The light entry always sends this spelling
   * (a page pays for every byte: the full SDK's `backgroundParameter` names another).
   * Default false.
   */
  background?: boolean;
}

/**
 * Options of {@link callHelper}: those of every helper function, and the name of the
 * main record's relation, which picks the record out of a non-atomic answer.
 */
export interface CallHelperOptions extends HelperCallOptions {
  /**
   * The main record's relation without prefix (`signature`, `canvass`; `person` for
   * signup). Without it, the record of a non-atomic answer is the member beside the
   * error that is not the person.
   */
  record?: string;
}

const DEFAULT_TIMEOUT = 30_000;
const ACCEPT = 'application/hal+json, application/json;q=0.9, */*;q=0.1';

/**
 * POSTs a body to a helper link and reads the answer, with `fetch` only (no zod, no
 * ky): the call behind every standalone helper function, for helpers the SDK does not
 * name. A 2xx resolves (`{}` gives no record; with `background`, `accepted: true`); a
 * non-atomic 400 resolves with `complete: false`; any other answer rejects with an
 * `HTTPError` whose `stdError` is decoded, a 2xx that is not a JSON object with a
 * `ResponseFormatError`, a failed fetch or body with a `NetworkError`, a call slower than
 * `timeout` with a `TimeoutError`, an `href` that is not an http(s) URL with an
 * `InvalidLinkError`, and an `idempotencyKey` that cannot be sent with an
 * `InvalidIdempotencyKeyError`. The body is sent as given, not checked: the server
 * checks it. The call carries an `Idempotency-Key`, and is retried after a 429, and
 * after network errors, 408, 5xx and a 409 with Retry-After too where the server
 * honours the key (`idempotencyKeysHonoured`). With an API key, a redirect is not
 * followed, so the API key never goes to another address: the call rejects with an
 * `HTTPError` of the 3xx status (0 in a browser, where the redirect is opaque).
 *
 * @example
 * ```ts
 * import { callHelper } from 'adis-sdk/helpers';
 *
 * const href = 'https://api.example.org/api/v1/petitions/1/record_signature_helper';
 * const result = await callHelper(href, { person: { given_name: 'Ana' } }, { record: 'signature' });
 * console.log(result.status, result.complete);
 * ```
 */
export async function callHelper<R = Record<string, unknown>, P = Record<string, unknown>>(
  href: string,
  body: object,
  options: CallHelperOptions = {},
): Promise<HelperResult<R, P>> {
  const method = 'POST';
  const { signal } = options;
  signal?.throwIfAborted();
  const url = checkedUrl(href);
  let target = href;
  if (options.background) {
    // On the checked URL, a copy of the href: its other query parameters are kept, and
    // a `background_request` already there replaced. The documented name only: a page
    // pays for every byte, and the full SDK's `backgroundParameter` is not its concern.
    url.searchParams.set(DEFAULT_BACKGROUND_PARAMETER, 'true');
    target = url.href;
  }
  // One key for the logical call, sent unchanged with each attempt.
  const key = idempotencyKeyFor(options.idempotencyKey, true, method, target);
  // A repeat after a failure that may come after the server acted is safe only then.
  const call = { repeatSafe: !!(key && options.idempotencyKeysHonoured), keyed: !!key };
  const policy = retryPolicy(options.retry);
  const headers = new Headers(options.headers);
  headers.set('accept', ACCEPT);
  headers.set('content-type', 'application/json');
  if (options.apiKey !== undefined) {
    headers.set(options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER, options.apiKey);
  }
  if (key) headers.set(IDEMPOTENCY_KEY_HEADER, key);
  const fetcher = options.fetch ?? globalThis.fetch;
  // Serialised before the try: a body that cannot be (a BigInt, a cycle) is the caller's
  // TypeError, not a network failure.
  const json = JSON.stringify(body);
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  // One deadline for the headers and the body: a body that stalls cannot hold the page.
  const deadline = timeout === false ? undefined : AbortSignal.timeout(timeout);
  const combined = signal && deadline ? AbortSignal.any([signal, deadline]) : (signal ?? deadline);
  const ends = timeout === false ? Number.POSITIVE_INFINITY : Date.now() + timeout;
  let last: Response | NetworkError;
  let text = '';
  let wait = 0;
  for (let retries = 0; ; retries++) {
    let failure: RetryFailure;
    try {
      if (retries > 0) await pause(wait, combined);
      failure = last = await fetcher(target, {
        method,
        headers,
        body: json,
        // 'manual', not 'error' (which Cloudflare Workers refuse): the 3xx comes back
        // unfollowed, and is thrown below as an HTTPError like any other non-2xx.
        redirect: options.apiKey === undefined ? 'follow' : 'manual',
        ...(combined ? { signal: combined } : {}),
      });
      text = await last.text();
      if (last.status < 400) break;
    } catch (error) {
      // A caller who aborted gets exactly the reason they aborted with.
      if (signal?.aborted) throw signal.reason;
      if (deadline?.aborted)
        throw new TimeoutError(method, target, timeout === false ? 0 : timeout, { cause: error });
      last = new NetworkError(method, target, error);
      // A page cannot tell a refused connection from a lost answer: browsers report both
      // alike, so the light entry counts every failed exchange as lost.
      failure = 'lost';
    }
    const verdict = retryVerdict(policy, failure, call);
    wait = verdict.wait ?? backoffDelay(policy, retries + 1);
    // A person is waiting on the page: past the limit or the deadline, the answer (with
    // its Retry-After) comes back now, rather than a TimeoutError later.
    if (!verdict.retry || retries >= policy.limit || Date.now() + wait >= ends) break;
  }
  if (last instanceof NetworkError) throw last;
  const response = last;
  const responseUrl = response.url || target;
  const parsed = parseBody(text);
  const value = bodyValue(parsed);
  if (!response.ok) {
    const error = new HTTPError({
      method,
      url: responseUrl,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: value,
    });
    if (error.stdError && isPartialSuccess(error.status, error.stdError)) {
      return partialResult(error.status, error.stdError, options.record);
    }
    throw error;
  }
  if (parsed.kind === 'text' || (value !== undefined && !isJsonObject(value))) {
    throw new ResponseFormatError({
      method,
      url: responseUrl,
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: text.slice(0, BODY_PREVIEW_LENGTH),
      ...(parsed.kind === 'json' ? { reason: 'a JSON object or no body was expected' } : {}),
    });
  }
  return successResult(response.status, value, options.record, options.background);
}

// The href is the server's data, passed on by the page: only http(s) is ever called.
// A relative href is resolved against the page, as fetch would.
function checkedUrl(href: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(href, (globalThis as { location?: { href?: string } }).location?.href);
  } catch {
    url = undefined;
  }
  if (url && isHttpUrl(url)) return url;
  throw new InvalidLinkError({
    rel: undefined,
    href,
    documentUrl: undefined,
    reason: url ? 'not an http(s) URL' : 'not an absolute URL',
  });
}

// Rejects with the signal's reason when it aborts (the caller's, or the deadline),
// also when it already has.
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

import { HTTPError } from '../errors/http-error.js';
import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { NetworkError } from '../errors/network-error.js';
import { ResponseFormatError } from '../errors/response-format-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { isJsonObject } from '../hal/link.js';
import { bodyValue, parseBody } from '../http/json-body.js';
import { type HelperResult, isPartialSuccess, partialResult, successResult } from './result.js';

// The light entry talks to `fetch` directly: the full SDK's transport (ky, retries,
// rate limits, trusted origins) is far beyond a page's budget, and a helper call is a
// single POST that must not be retried anyway (it may have been applied).

/**
 * Options of the standalone helper functions (`recordSignature`, `callHelper`…).
 *
 * @example
 * ```ts
 * // From a web page: no key, the helper answers {} or an error.
 * await recordSignature(href, { person: { given_name: 'Ana' } });
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
   * Longest time the call may take, from sending to the end of the answer's body, ms,
   * or `false` for none; past it the call rejects with a `TimeoutError`. Default 30 000.
   */
  timeout?: number | false;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/**
 * Options of {@link callHelper}: those of every helper function, and the name of the
 * main record's relation, which picks the record out of a non-atomic answer.
 *
 * @example
 * ```ts
 * await callHelper(href, body, { apiKey, record: 'signature' });
 * ```
 */
export interface CallHelperOptions extends HelperCallOptions {
  /**
   * The main record's relation without prefix (`signature`, `canvass`; `person` for
   * signup). Without it, the record of a non-atomic answer is the member beside the
   * error that is not the person.
   */
  record?: string;
}

const DEFAULT_API_KEY_HEADER = 'STD-API-Token';
const DEFAULT_TIMEOUT = 30_000;
const ACCEPT = 'application/hal+json, application/json;q=0.9, */*;q=0.1';
const BODY_PREVIEW_LENGTH = 500;

/**
 * POSTs a body to a helper link and reads the answer, with `fetch` only (no zod, no
 * ky): the call behind every standalone helper function, for helpers the SDK does not
 * name. A 2xx resolves (`{}` gives no record); a non-atomic 400 resolves with
 * `complete: false`; any other answer rejects with an `HTTPError` whose `stdError` is
 * decoded, a 2xx that is not a JSON object with a `ResponseFormatError`, a failed fetch
 * or body with a `NetworkError`, a call slower than `timeout` with a `TimeoutError`, and
 * an `href` that is not an http(s) URL with an `InvalidLinkError`. The body is sent as given, not
 * checked: the server checks it. With a key, a redirect is refused, so the key never
 * follows one to another address.
 *
 * @example
 * ```ts
 * import { callHelper } from 'adis-sdk/helpers';
 * const result = await callHelper(petition.helperHref, { person: { given_name: 'Ana' } }, { record: 'signature' });
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
  checkHref(href);
  const headers = new Headers(options.headers);
  headers.set('accept', ACCEPT);
  headers.set('content-type', 'application/json');
  if (options.apiKey !== undefined) {
    headers.set(options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER, options.apiKey);
  }
  const fetcher = options.fetch ?? globalThis.fetch;
  // Serialised before the try: a body that cannot be (a BigInt, a cycle) is the caller's
  // TypeError, not a network failure.
  const json = JSON.stringify(body);
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  // One deadline for the headers and the body: a body that stalls cannot hold the page.
  const deadline = timeout === false ? undefined : AbortSignal.timeout(timeout);
  const combined = signal && deadline ? AbortSignal.any([signal, deadline]) : (signal ?? deadline);
  let response: Response;
  let text: string;
  try {
    response = await fetcher(href, {
      method,
      headers,
      body: json,
      redirect: options.apiKey === undefined ? 'follow' : 'error',
      ...(combined ? { signal: combined } : {}),
    });
    text = await response.text();
  } catch (error) {
    // A caller who aborted gets exactly the reason they aborted with.
    if (signal?.aborted) throw signal.reason;
    if (deadline?.aborted)
      throw new TimeoutError(method, href, timeout === false ? 0 : timeout, { cause: error });
    throw new NetworkError(method, href, error);
  }
  const url = response.url || href;
  const parsed = parseBody(text);
  const value = bodyValue(parsed);
  if (!response.ok) {
    const error = new HTTPError({
      method,
      url,
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
      url,
      status: response.status,
      contentType: response.headers.get('content-type'),
      bodyText: text.slice(0, BODY_PREVIEW_LENGTH),
      ...(parsed.kind === 'json' ? { reason: 'a JSON object or no body was expected' } : {}),
    });
  }
  return successResult(response.status, value, options.record);
}

// The href is the server's data, passed on by the page: only http(s) is ever called.
// A relative href is resolved against the page, as fetch would.
function checkHref(href: string): void {
  let url: URL | undefined;
  try {
    url = new URL(href, (globalThis as { location?: { href?: string } }).location?.href);
  } catch {
    url = undefined;
  }
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return;
  throw new InvalidLinkError({
    rel: undefined,
    href,
    documentUrl: undefined,
    reason: url ? 'not an http(s) URL' : 'not an absolute URL',
  });
}

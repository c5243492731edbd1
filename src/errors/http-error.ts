import { AdisError } from './adis-error.js';
import { decodeStdError, errorDescriptions } from './decode-std-error.js';
import type { StdError } from './std-error-schema.js';

/**
 * What an {@link HTTPError} is built from: the request and the answer, body already read.
 */
export interface HTTPErrorInit {
  /** The request's method. */
  method: string;
  /** The request's URL. */
  url: string;
  /** The response status. */
  status: number;
  /** The response status text (often empty over HTTP/2). */
  statusText: string;
  /** The response headers. */
  headers: Headers;
  /** Parsed JSON when the body was JSON, else its text; undefined when empty. */
  body: unknown;
}

/**
 * The server answered with a status outside 2xx. Carries the request, the status, the
 * response headers, the body and, when the body held one, the decoded `std:error`.
 *
 * @example
 * ```ts
 * try {
 *   await client.people.get(url);
 * } catch (error) {
 *   if (isHTTPError(error) && error.status === 404) return undefined;
 *   throw error;
 * }
 * ```
 */
export class HTTPError extends AdisError {
  /** Always `'HTTP_ERROR'`. */
  readonly code = 'HTTP_ERROR' as const;
  /** Always `'HTTPError'`. */
  override readonly name = 'HTTPError' as const;
  /** The request's method. */
  readonly method: string;
  /** The URL that answered (after any redirects). */
  readonly url: string;
  /** The response status, 400 or above. */
  readonly status: number;
  /** The response status text (often empty over HTTP/2). */
  readonly statusText: string;
  /** The response headers, for `Retry-After` and the like. */
  readonly headers: Headers;
  /** The parsed JSON body when the body was JSON, else its text; undefined when empty. */
  readonly body: unknown;
  /** The body decoded as a `std:error`, when it is one; see {@link errorDescriptions}. */
  readonly stdError: StdError | undefined;

  /**
   * Builds the error from the request and the answer; decodes `init.body` as a
   * `std:error` and names its first error description in the message.
   *
   * @param init - The request, the status, the headers and the body already read.
   *
   * @example
   * ```ts
   * const error = new HTTPError({
   *   method: 'GET',
   *   url: 'https://api.example.org/api/v1/people/1',
   *   status: 404,
   *   statusText: 'Not Found',
   *   headers: new Headers(),
   *   body: undefined,
   * });
   * ```
   */
  constructor(init: HTTPErrorInit) {
    const stdError = decodeStdError(init.body);
    super(httpErrorMessage(init, stdError));
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.body = init.body;
    this.stdError = stdError;
  }
}

function httpErrorMessage(init: HTTPErrorInit, stdError: StdError | undefined): string {
  const status = `${init.status} ${init.statusText}`.trim();
  const message = `Request failed with status ${status}: ${init.method} ${init.url}`;
  const [first, ...rest] = errorDescriptions(stdError);
  if (!first) return message;
  const detail = first.description ? `${first.error_code}: ${first.description}` : first.error_code;
  const more = rest.length > 0 ? ` (and ${rest.length} more)` : '';
  return `${message} (${detail})${more}`;
}

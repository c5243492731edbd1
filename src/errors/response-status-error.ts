import { AdisError } from './adis-error.js';
import { decodeStdError, errorDescriptions } from './decode-std-error.js';
import type { StdError } from './std-error-schema.js';

/**
 * What an answer with an unwanted status is built from: the request and the answer,
 * body already read.
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
 * Base class of the errors that carry a server's answer: {@link HTTPError} (a status
 * outside 2xx) and {@link RateLimitError} (a wait longer than the SDK may sleep). Both
 * have the request, the status, the headers, the body and the decoded `std:error`;
 * each fixes its own `code`.
 *
 * @example
 * ```ts
 * import { ResponseStatusError } from 'adis-sdk';
 *
 * try {
 *   await client.people.get('https://api.example.org/api/v1/people/1');
 * } catch (error) {
 *   if (error instanceof ResponseStatusError) console.error(error.status, error.stdError);
 * }
 * ```
 */
export abstract class ResponseStatusError extends AdisError {
  /** The request's method. */
  declare readonly method: string;
  /** The URL that answered (after any redirects). */
  declare readonly url: string;
  /** The response status. */
  declare readonly status: number;
  /** The response status text (often empty over HTTP/2). */
  declare readonly statusText: string;
  /** The response headers, for `Retry-After` and the like. */
  declare readonly headers: Headers;
  /** The parsed JSON body when the body was JSON, else its text; undefined when empty. */
  declare readonly body: unknown;
  /** The body decoded as a `std:error`, when it is one; see {@link errorDescriptions}. */
  declare readonly stdError: StdError | undefined;

  /**
   * Called by the subclasses with their message and the answer; decodes `init.body` as
   * a `std:error`.
   *
   * @param message - The error message, or a function of the decoded `std:error` that
   *   returns it.
   * @param init - The request, the status, the headers and the body already read.
   */
  constructor(message: string | ((stdError: StdError | undefined) => string), init: HTTPErrorInit) {
    const stdError = decodeStdError(init.body);
    super(typeof message === 'string' ? message : message(stdError));
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.body = init.body;
    this.stdError = stdError;
  }

  /**
   * Every `error_code` of the decoded `std:error`, across all its resource statuses, in
   * order, each once; `[]` when the body held none. A description the server sent
   * without a code counts as `'UNKNOWN'` (`UNKNOWN_ERROR_CODE`). The short way to
   * `stdError?.resource_status[0]?.error_descriptions[0]?.error_code`; for the
   * descriptions themselves (properties, hints), see {@link errorDescriptions}.
   *
   * @example
   * ```ts
   * import { isHTTPError } from 'adis-sdk';
   *
   * const isDuplicate = (error: unknown) =>
   *   isHTTPError(error) && error.errorCodes.includes('DUPLICATE_IDENTIFIER');
   * ```
   */
  get errorCodes(): string[] {
    return [...new Set(errorDescriptions(this.stdError).map((d) => d.error_code))];
  }

  /**
   * The first `error_code` of the decoded `std:error` ({@link errorCodes}' first), or
   * undefined when the body held none.
   *
   * @example
   * ```ts
   * import { isHTTPError } from 'adis-sdk';
   *
   * const isNotFound = (error: unknown) => isHTTPError(error) && error.errorCode === 'NOT_FOUND';
   * ```
   */
  get errorCode(): string | undefined {
    return this.errorCodes[0];
  }
}

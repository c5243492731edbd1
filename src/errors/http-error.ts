import { AdisError } from './adis-error.js';
import { decodeStdError, errorDescriptions } from './decode-std-error.js';
import type { StdError } from './std-error-schema.js';

/**
 * What an {@link HTTPError} is built from: the request and the answer, body already read.
 */
export interface HTTPErrorInit {
  method: string;
  url: string;
  status: number;
  statusText: string;
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
  readonly code = 'HTTP_ERROR' as const;
  override readonly name = 'HTTPError' as const;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly stdError: StdError | undefined;

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

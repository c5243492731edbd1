import { errorDescriptions } from './decode-std-error.js';
import { type HTTPErrorInit, ResponseStatusError } from './response-status-error.js';
import type { StdError } from './std-error-schema.js';

export type { HTTPErrorInit } from './response-status-error.js';

/**
 * The server answered with a status outside 2xx. Carries the request, the status, the
 * response headers, the body and, when the body held one, the decoded `std:error`.
 *
 * @example
 * ```ts
 * import { isHTTPError } from 'adis-sdk';
 *
 * async function findPerson(url: string) {
 *   try {
 *     return await client.people.get(url);
 *   } catch (error) {
 *     if (isHTTPError(error) && error.status === 404) return undefined;
 *     throw error;
 *   }
 * }
 * ```
 */
export class HTTPError extends ResponseStatusError {
  /** Always `'HTTP_ERROR'`. */
  readonly code = 'HTTP_ERROR' as const;
  /** Always `'HTTPError'`. */
  override readonly name = 'HTTPError' as const;

  /**
   * Builds the error from the request and the answer; decodes `init.body` as a
   * `std:error` and names its first error description in the message.
   *
   * @param init - The request, the status, the headers and the body already read.
   */
  constructor(init: HTTPErrorInit) {
    super((stdError) => httpErrorMessage(init, stdError), init);
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

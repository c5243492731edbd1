import { AdisError } from './adis-error.js';

/** What a {@link ResponseFormatError} is built from. */
export interface ResponseFormatErrorInit {
  /** The request's method. */
  method: string;
  /** The request's URL. */
  url: string;
  /** The response status (a 2xx). */
  status: number;
  /** The response's `Content-Type`, or null when it had none. */
  contentType: string | null;
  /** The start of the body, for the message and for debugging. */
  bodyText: string;
  /** What was wrong when the body is JSON but not what was expected; default "not JSON". */
  reason?: string;
  /** The parse error, when there was one. */
  cause?: unknown;
}

/**
 * A successful (2xx) response whose body is not JSON, e.g. an HTML login or
 * maintenance page from a proxy in front of the API, or JSON that is not what the
 * call needs at all (then `reason` says what was expected).
 *
 * @example
 * ```ts
 * import { isResponseFormatError } from 'adis-sdk';
 *
 * try {
 *   await client.people.get('https://api.example.org/api/v1/people/1');
 * } catch (error) {
 *   if (isResponseFormatError(error)) console.error(error.contentType, error.bodyText);
 * }
 * ```
 */
export class ResponseFormatError extends AdisError {
  /** Always `'RESPONSE_FORMAT'`. */
  readonly code = 'RESPONSE_FORMAT' as const;
  /** Always `'ResponseFormatError'`. */
  override readonly name = 'ResponseFormatError' as const;
  /** The request's method. */
  declare readonly method: string;
  /** The request's URL. */
  declare readonly url: string;
  /** The response status (a 2xx). */
  declare readonly status: number;
  /** The response's `Content-Type`, or null when it had none. */
  declare readonly contentType: string | null;
  /** The start of the body. */
  declare readonly bodyText: string;
  /** What was wrong when the body is JSON; undefined when it is not JSON at all. */
  declare readonly reason: string | undefined;

  /**
   * Builds the error; the message says what was expected (`init.reason`, by default a
   * JSON body) and what came.
   *
   * @param init - The request, the response's status and content type, and the start
   *   of its body.
   */
  constructor(init: ResponseFormatErrorInit) {
    const type = init.contentType ?? 'no content type';
    const problem = init.reason ?? `expected a JSON body but got ${type}`;
    super(`Unexpected response, ${problem} (status ${init.status}): ${init.method} ${init.url}`, {
      cause: init.cause,
    });
    this.reason = init.reason;
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.contentType = init.contentType;
    this.bodyText = init.bodyText;
  }
}

import { AdisError } from './adis-error.js';

/** What a {@link ResponseFormatError} is built from. */
export interface ResponseFormatErrorInit {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  /** The start of the body, for the message and for debugging. */
  bodyText: string;
  /** What was wrong when the body is JSON but not what was expected; default "not JSON". */
  reason?: string;
  cause?: unknown;
}

/**
 * A successful (2xx) response whose body is not JSON, e.g. an HTML login or
 * maintenance page from a proxy in front of the API, or JSON that is not what the
 * call needs at all (then `reason` says what was expected).
 *
 * @example
 * ```ts
 * try {
 *   await transport.request({ method: 'GET', url });
 * } catch (error) {
 *   if (isResponseFormatError(error)) console.error(error.contentType, error.bodyText);
 * }
 * ```
 */
export class ResponseFormatError extends AdisError {
  readonly code = 'RESPONSE_FORMAT' as const;
  override readonly name = 'ResponseFormatError' as const;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly bodyText: string;
  readonly reason: string | undefined;

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

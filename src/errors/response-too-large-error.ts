import { AdisError } from './adis-error.js';

/** What a {@link ResponseTooLargeError} is built from. */
export interface ResponseTooLargeErrorInit {
  /** The request's method. */
  method: string;
  /** The request's URL. */
  url: string;
  /** The response status, whatever it was: an endless error page counts too. */
  status: number;
  /** The cap that was passed, in bytes (the transport's `maxBodyBytes`). */
  maxBodyBytes: number;
  /** How many bytes of the body had arrived when reading stopped: just past the cap. */
  bytesRead: number;
}

/**
 * A response body grew past the transport's `maxBodyBytes` while it arrived: a server
 * (or something in front of it) that streams an endless or absurdly large body. The
 * read stops there, so memory holds at most about the cap, and the call fails at once
 * instead of at its timeout. It is not retried: the same server would send the same
 * body. Raise `maxBodyBytes` if the body is one you want.
 *
 * @example
 * ```ts
 * import { isResponseTooLargeError } from 'adis-sdk';
 *
 * try {
 *   await client.people.toArray();
 * } catch (error) {
 *   if (isResponseTooLargeError(error)) console.error(`${error.url}: over ${error.maxBodyBytes} bytes`);
 * }
 * ```
 */
export class ResponseTooLargeError extends AdisError {
  /** Always `'RESPONSE_TOO_LARGE'`. */
  readonly code = 'RESPONSE_TOO_LARGE' as const;
  /** Always `'ResponseTooLargeError'`. */
  override readonly name = 'ResponseTooLargeError' as const;
  /** The request's method. */
  declare readonly method: string;
  /** The request's URL. */
  declare readonly url: string;
  /** The response status. */
  declare readonly status: number;
  /** The cap that was passed, in bytes. */
  declare readonly maxBodyBytes: number;
  /** The bytes of the body read when reading stopped. */
  declare readonly bytesRead: number;

  /**
   * Builds the error; the message names the request, the cap and the bytes read.
   *
   * @param init - The request, the response status, the cap and the bytes read.
   */
  constructor(init: ResponseTooLargeErrorInit) {
    super(
      `Response body larger than maxBodyBytes (${init.maxBodyBytes} bytes): stopped after ${init.bytesRead} bytes (status ${init.status}): ${init.method} ${init.url}`,
    );
    this.method = init.method;
    this.url = init.url;
    this.status = init.status;
    this.maxBodyBytes = init.maxBodyBytes;
    this.bytesRead = init.bytesRead;
  }
}

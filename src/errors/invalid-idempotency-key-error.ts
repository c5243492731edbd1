import { AdisError } from './adis-error.js';

/**
 * The `idempotencyKey` given for a call cannot be sent: it must be a string of 1 to 255
 * visible ASCII characters (`!` to `~`, no space), which every server can store and
 * compare byte for byte. Thrown before any request is made.
 *
 * @example
 * ```ts
 * import { isInvalidIdempotencyKeyError } from 'adis-sdk';
 *
 * try {
 *   await client.people.create({ given_name: 'Ana' }, { idempotencyKey: 'two words' });
 * } catch (error) {
 *   if (isInvalidIdempotencyKeyError(error)) console.error(error.key, error.url);
 * }
 * ```
 */
export class InvalidIdempotencyKeyError extends AdisError {
  /** Always `'INVALID_IDEMPOTENCY_KEY'`. */
  readonly code = 'INVALID_IDEMPOTENCY_KEY' as const;
  /** Always `'InvalidIdempotencyKeyError'`. */
  override readonly name = 'InvalidIdempotencyKeyError' as const;
  /** The method of the call that was not sent. */
  declare readonly method: string;
  /** The URL of the call that was not sent. */
  declare readonly url: string;
  /** The key as given (a caller without types may pass anything). */
  declare readonly key: unknown;

  /**
   * Builds the error; the message names the call and the key.
   *
   * @param method - The call's method.
   * @param url - The call's URL.
   * @param key - The key as given.
   */
  constructor(method: string, url: string, key: unknown) {
    const shown = typeof key === 'string' ? JSON.stringify(key) : `a ${typeof key}`;
    super(
      `Invalid Idempotency-Key for ${method} ${url}: ${shown} is not 1 to 255 visible ASCII characters`,
    );
    this.method = method;
    this.url = url;
    this.key = key;
  }
}

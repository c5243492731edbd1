import { ADIS_ERROR_BRAND } from './brand.js';

/**
 * The `code` of each error class of the SDK. Switch on it (or narrow an
 * {@link AdisErrorUnion}) instead of comparing classes.
 */
export type AdisErrorCode =
  | 'HTTP_ERROR'
  | 'TIMEOUT'
  | 'NETWORK'
  | 'RESPONSE_FORMAT'
  | 'SCHEMA_VALIDATION'
  | 'REDIRECT'
  | 'LINK_NOT_FOUND'
  | 'RATE_LIMITED'
  | 'INVALID_LINK'
  | 'INVALID_IDEMPOTENCY_KEY'
  | 'RESPONSE_TOO_LARGE'
  | 'UNKNOWN_KIND'
  | 'WEBHOOK_PAYLOAD'
  | 'SYNC_SETUP';

// A subclass declares the members its constructor assigns (`declare readonly url`): a
// class field would compile to a definition beside the assignment, which every bundle
// with the class carries (60 B gzipped of the signature page's, issue 47).

/**
 * Base class of every error the SDK throws. Each subclass fixes a literal `code`, so
 * `catch (error) { if (isAdisError(error)) switch (error.code) ... }` narrows.
 *
 * @example
 * ```ts
 * import { isAdisError } from 'adis-sdk';
 *
 * try {
 *   await client.people.get('https://api.example.org/api/v1/people/1');
 * } catch (error) {
 *   if (!isAdisError(error)) throw error;
 *   if (error.code === 'HTTP_ERROR') console.error(error.status, error.errorCode);
 *   else console.error(error.code, error.message);
 * }
 * ```
 */
export abstract class AdisError extends Error {
  /** What kind of error this is; each subclass fixes its own literal. */
  abstract readonly code: AdisErrorCode;
  /**
   * Marks SDK errors so that {@link isAdisError} recognises them even when two copies of
   * the SDK are loaded (where `instanceof` fails). Non-enumerable.
   *
   * @internal
   */
  declare readonly [ADIS_ERROR_BRAND]: true;

  /**
   * Called by the subclasses with their message; `options.cause` is kept as the
   * standard `Error.cause`.
   *
   * @param message - The error message.
   * @param options - `cause`: the error that led to this one.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Non-enumerable so that logging or JSON.stringify of an error stays clean.
    Object.defineProperty(this, ADIS_ERROR_BRAND, { value: true, enumerable: false });
  }
}

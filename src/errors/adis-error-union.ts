/**
 * The union of every error class the SDK throws, in a file of its own: the public
 * barrel re-exports it and the type guards narrow to it, so neither imports the other.
 */
import type { HTTPError } from './http-error.js';
import type { InvalidIdempotencyKeyError } from './invalid-idempotency-key-error.js';
import type { InvalidLinkError } from './invalid-link-error.js';
import type { LinkNotFoundError } from './link-not-found-error.js';
import type { NetworkError } from './network-error.js';
import type { RateLimitError } from './rate-limit-error.js';
import type { RedirectError } from './redirect-error.js';
import type { ResponseFormatError } from './response-format-error.js';
import type { ResponseTooLargeError } from './response-too-large-error.js';
import type { SchemaValidationError } from './schema-validation-error.js';
import type { TimeoutError } from './timeout-error.js';
import type { UnknownKindError } from './unknown-kind-error.js';
import type { WebhookPayloadError } from './webhook-payload-error.js';

/**
 * Every error the SDK throws, discriminated by `code`.
 *
 * @example
 * ```ts
 * import type { AdisErrorUnion } from 'adis-sdk';
 *
 * function describe(error: AdisErrorUnion): string {
 *   switch (error.code) {
 *     case 'HTTP_ERROR': return `status ${error.status}`;
 *     case 'TIMEOUT': return `timed out after ${error.timeout} ms`;
 *     case 'RATE_LIMITED': return `retry in ${error.retryAfter} ms`;
 *     default: return error.message;
 *   }
 * }
 * ```
 */
export type AdisErrorUnion =
  | HTTPError
  | TimeoutError
  | NetworkError
  | ResponseFormatError
  | SchemaValidationError
  | RedirectError
  | LinkNotFoundError
  | RateLimitError
  | InvalidLinkError
  | InvalidIdempotencyKeyError
  | ResponseTooLargeError
  | UnknownKindError
  | WebhookPayloadError;

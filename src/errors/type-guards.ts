import type { AdisErrorUnion } from './adis-error-union.js';
import { hasAdisBrand } from './brand.js';
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

// The guards check the brand plus `name`, never `instanceof`: an error thrown by
// another copy of this module (a second bundle, an iframe) is a different class, and
// ky's own HTTPError/TimeoutError share our names but not the brand.

/**
 * Whether a value is an error thrown by this SDK, from any copy of it. The guards below
 * narrow to one class each; each class's own example shows its guard in a `catch`.
 */
export function isAdisError(error: unknown): error is AdisErrorUnion {
  return hasAdisBrand(error);
}

function isAdisErrorNamed(error: unknown, name: string): boolean {
  return hasAdisBrand(error) && error.name === name;
}

/**
 * Whether a value is an {@link HTTPError} (a non-2xx answer).
 */
export function isHTTPError(error: unknown): error is HTTPError {
  return isAdisErrorNamed(error, 'HTTPError');
}

/**
 * Whether a value is a {@link TimeoutError}.
 */
export function isTimeoutError(error: unknown): error is TimeoutError {
  return isAdisErrorNamed(error, 'TimeoutError');
}

/**
 * Whether a value is a {@link NetworkError}.
 */
export function isNetworkError(error: unknown): error is NetworkError {
  return isAdisErrorNamed(error, 'NetworkError');
}

/**
 * Whether a value is a {@link ResponseFormatError}.
 */
export function isResponseFormatError(error: unknown): error is ResponseFormatError {
  return isAdisErrorNamed(error, 'ResponseFormatError');
}

/**
 * Whether a value is a {@link SchemaValidationError}.
 */
export function isSchemaValidationError(error: unknown): error is SchemaValidationError {
  return isAdisErrorNamed(error, 'SchemaValidationError');
}

/**
 * Whether a value is a {@link RedirectError}.
 */
export function isRedirectError(error: unknown): error is RedirectError {
  return isAdisErrorNamed(error, 'RedirectError');
}

/**
 * Whether a value is a {@link LinkNotFoundError}.
 */
export function isLinkNotFoundError(error: unknown): error is LinkNotFoundError {
  return isAdisErrorNamed(error, 'LinkNotFoundError');
}

/**
 * Whether a value is a {@link RateLimitError} (the server asked for a longer wait than
 * `retry.maxRetryAfter` allows).
 */
export function isRateLimitError(error: unknown): error is RateLimitError {
  return isAdisErrorNamed(error, 'RateLimitError');
}

/**
 * Whether a value is an {@link InvalidLinkError} (an address that cannot be used).
 */
export function isInvalidLinkError(error: unknown): error is InvalidLinkError {
  return isAdisErrorNamed(error, 'InvalidLinkError');
}

/**
 * Whether a value is an {@link InvalidIdempotencyKeyError} (an `idempotencyKey` that
 * cannot be sent).
 */
export function isInvalidIdempotencyKeyError(error: unknown): error is InvalidIdempotencyKeyError {
  return isAdisErrorNamed(error, 'InvalidIdempotencyKeyError');
}

/**
 * Whether a value is a {@link ResponseTooLargeError} (a body past `maxBodyBytes`).
 */
export function isResponseTooLargeError(error: unknown): error is ResponseTooLargeError {
  return isAdisErrorNamed(error, 'ResponseTooLargeError');
}

/**
 * Whether a value is an {@link UnknownKindError} (a relation to a kind the connection
 * does not know).
 */
export function isUnknownKindError(error: unknown): error is UnknownKindError {
  return isAdisErrorNamed(error, 'UnknownKindError');
}

/**
 * Whether a value is a {@link WebhookPayloadError} (a webhook delivery that is not the
 * array of typed elements `parseWebhook` reads).
 */
export function isWebhookPayloadError(error: unknown): error is WebhookPayloadError {
  return isAdisErrorNamed(error, 'WebhookPayloadError');
}

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
 * Whether a value is an error thrown by this SDK, from any copy of it.
 *
 * @example
 * ```ts
 * catch (error) { if (isAdisError(error)) switch (error.code) { case 'HTTP_ERROR': ... } }
 * ```
 */
export function isAdisError(error: unknown): error is AdisErrorUnion {
  return hasAdisBrand(error);
}

function isAdisErrorNamed(error: unknown, name: string): boolean {
  return hasAdisBrand(error) && error.name === name;
}

/**
 * Whether a value is an {@link HTTPError} (a non-2xx answer).
 *
 * @example
 * ```ts
 * if (isHTTPError(error) && error.status === 404) return undefined;
 * ```
 */
export function isHTTPError(error: unknown): error is HTTPError {
  return isAdisErrorNamed(error, 'HTTPError');
}

/**
 * Whether a value is a {@link TimeoutError}.
 *
 * @example
 * ```ts
 * if (isTimeoutError(error)) console.warn(error.timeout);
 * ```
 */
export function isTimeoutError(error: unknown): error is TimeoutError {
  return isAdisErrorNamed(error, 'TimeoutError');
}

/**
 * Whether a value is a {@link NetworkError}.
 *
 * @example
 * ```ts
 * if (isNetworkError(error)) scheduleRetryLater();
 * ```
 */
export function isNetworkError(error: unknown): error is NetworkError {
  return isAdisErrorNamed(error, 'NetworkError');
}

/**
 * Whether a value is a {@link ResponseFormatError}.
 *
 * @example
 * ```ts
 * if (isResponseFormatError(error)) console.error(error.bodyText);
 * ```
 */
export function isResponseFormatError(error: unknown): error is ResponseFormatError {
  return isAdisErrorNamed(error, 'ResponseFormatError');
}

/**
 * Whether a value is a {@link SchemaValidationError}.
 *
 * @example
 * ```ts
 * if (isSchemaValidationError(error)) for (const issue of error.issues) console.log(issue.path);
 * ```
 */
export function isSchemaValidationError(error: unknown): error is SchemaValidationError {
  return isAdisErrorNamed(error, 'SchemaValidationError');
}

/**
 * Whether a value is a {@link RedirectError}.
 *
 * @example
 * ```ts
 * if (isRedirectError(error)) console.error(error.reason);
 * ```
 */
export function isRedirectError(error: unknown): error is RedirectError {
  return isAdisErrorNamed(error, 'RedirectError');
}

/**
 * Whether a value is a {@link LinkNotFoundError}.
 *
 * @example
 * ```ts
 * if (isLinkNotFoundError(error)) console.error(error.available);
 * ```
 */
export function isLinkNotFoundError(error: unknown): error is LinkNotFoundError {
  return isAdisErrorNamed(error, 'LinkNotFoundError');
}

/**
 * Whether a value is a {@link RateLimitError} (the server asked for a longer wait than
 * `retry.maxRetryAfter` allows).
 *
 * @example
 * ```ts
 * if (isRateLimitError(error)) await sleep(error.retryAfter);
 * ```
 */
export function isRateLimitError(error: unknown): error is RateLimitError {
  return isAdisErrorNamed(error, 'RateLimitError');
}

/**
 * Whether a value is an {@link InvalidLinkError} (an address that cannot be used).
 *
 * @example
 * ```ts
 * if (isInvalidLinkError(error)) console.error(error.rel, error.documentUrl);
 * ```
 */
export function isInvalidLinkError(error: unknown): error is InvalidLinkError {
  return isAdisErrorNamed(error, 'InvalidLinkError');
}

/**
 * Whether a value is an {@link InvalidIdempotencyKeyError} (an `idempotencyKey` that
 * cannot be sent).
 *
 * @example
 * ```ts
 * if (isInvalidIdempotencyKeyError(error)) console.error(error.key);
 * ```
 */
export function isInvalidIdempotencyKeyError(error: unknown): error is InvalidIdempotencyKeyError {
  return isAdisErrorNamed(error, 'InvalidIdempotencyKeyError');
}

/**
 * Whether a value is a {@link ResponseTooLargeError} (a body past `maxBodyBytes`).
 *
 * @example
 * ```ts
 * if (isResponseTooLargeError(error)) console.error(error.bytesRead, error.maxBodyBytes);
 * ```
 */
export function isResponseTooLargeError(error: unknown): error is ResponseTooLargeError {
  return isAdisErrorNamed(error, 'ResponseTooLargeError');
}

/**
 * Whether a value is an {@link UnknownKindError} (a relation to a kind the connection
 * does not know).
 *
 * @example
 * ```ts
 * if (isUnknownKindError(error)) console.error(`give the ${error.kind} kind to connectWith`);
 * ```
 */
export function isUnknownKindError(error: unknown): error is UnknownKindError {
  return isAdisErrorNamed(error, 'UnknownKindError');
}

/**
 * Whether a value is a {@link WebhookPayloadError} (a webhook delivery that is not the
 * array of typed elements `parseWebhook` reads).
 *
 * @example
 * ```ts
 * if (isWebhookPayloadError(error)) console.error(error.index, error.problem);
 * ```
 */
export function isWebhookPayloadError(error: unknown): error is WebhookPayloadError {
  return isAdisErrorNamed(error, 'WebhookPayloadError');
}

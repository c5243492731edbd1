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

export { AdisError, type AdisErrorCode } from './adis-error.js';
export { ADIS_ERROR_BRAND } from './brand.js';
export { decodeStdError, errorDescriptions, extractEmbeddedResults } from './decode-std-error.js';
export { HTTPError, type HTTPErrorInit } from './http-error.js';
export { InvalidIdempotencyKeyError } from './invalid-idempotency-key-error.js';
export { InvalidLinkError, type InvalidLinkErrorInit } from './invalid-link-error.js';
export { type CurieProblem, LinkNotFoundError } from './link-not-found-error.js';
export { NetworkError } from './network-error.js';
export { RateLimitError, type RateLimitErrorInit } from './rate-limit-error.js';
export { RedirectError, type RedirectFailure } from './redirect-error.js';
export { ResponseFormatError, type ResponseFormatErrorInit } from './response-format-error.js';
export { ResponseStatusError } from './response-status-error.js';
export {
  ResponseTooLargeError,
  type ResponseTooLargeErrorInit,
} from './response-too-large-error.js';
export {
  formatPath,
  type SchemaValidationContext,
  SchemaValidationError,
  type ValidationIssue,
  type ZodErrorLike,
} from './schema-validation-error.js';
export {
  type ErrorDescription,
  ErrorDescriptionSchema,
  type RequestType,
  RequestTypeSchema,
  type ResourceStatus,
  ResourceStatusSchema,
  type StdError,
  StdErrorSchema,
} from './std-error-schema.js';
export { UNKNOWN_ERROR_CODE } from './std-error-wire.js';
export { TimeoutError, type TimeoutPhase } from './timeout-error.js';
export {
  isAdisError,
  isHTTPError,
  isInvalidIdempotencyKeyError,
  isInvalidLinkError,
  isLinkNotFoundError,
  isNetworkError,
  isRateLimitError,
  isRedirectError,
  isResponseFormatError,
  isResponseTooLargeError,
  isSchemaValidationError,
  isTimeoutError,
  isUnknownKindError,
} from './type-guards.js';
export { UnknownKindError } from './unknown-kind-error.js';

/**
 * Every error the SDK throws, discriminated by `code`.
 *
 * @example
 * ```ts
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

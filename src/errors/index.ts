export { AdisError, type AdisErrorCode } from './adis-error.js';
export type { AdisErrorUnion } from './adis-error-union.js';
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

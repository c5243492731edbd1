/**
 * The spec's error model (`std:error`) and the one error type the server throws.
 *
 * Domain and HTTP code throw {@link ApiError}; the HTTP layer's error handler turns it
 * into the response body with {@link errorBody}. Keeping the type tiny (a status and a
 * list of descriptions) lets validation report every problem at once, as the spec's
 * examples do ("both errors are reported together in one error_descriptions array").
 */

import { RuleCode } from 'adis-sdk/schema';

/**
 * One reason a request failed: the spec's ErrorDescription, as this server writes it
 * (`description` always set). The SDK's `ErrorDescription` is the same member as a client
 * reads it from any server, leniently.
 */
export interface ErrorDescription {
  /** Machine-readable reason, upper case with underscores. */
  error_code: string;
  /** Human-readable reason. */
  description: string;
  /** Properties of the resource (or request) causing the error, as indexed paths. */
  properties?: string[];
  /** How to resolve it, for example a pattern the value must match. */
  hint?: string;
  /** Reference to an internal error report (logged to stderr). */
  reference_code?: string;
}

/**
 * Outcome for one resource of a request: the spec's ResourceStatus, as this server
 * writes it. The SDK's `ResourceStatus` is the same member as a client reads it.
 */
export interface ResourceStatus {
  resource: string;
  response_code: number;
  error_descriptions?: ErrorDescription[];
}

/**
 * The `std:error` member of an error body, as this server writes it (`errorBody`). A
 * client decodes it with the SDK's `decodeStdError` into its lenient `StdError`.
 */
export interface StdErrorBody {
  request_type: 'atomic' | 'non-atomic';
  response_code: number;
  resource_status: ResourceStatus[];
}

/**
 * Error codes this server emits. Documented in the README; the spec lists only a few
 * (NOT_SUPPORTED among them) and leaves the rest to the implementation.
 */
export const ErrorCode = {
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  INVALID_JSON: 'INVALID_JSON',
  // A body nested deeper than the HTTP layer's limit (MAX_JSON_DEPTH).
  JSON_TOO_DEEP: 'JSON_TOO_DEEP',
  INVALID_BODY: 'INVALID_BODY',
  INVALID_PROPERTY: 'INVALID_PROPERTY',
  UNKNOWN_PROPERTY: 'UNKNOWN_PROPERTY',
  // The rules of the shared write schemas (MULTIPLE_PRIMARY, START_DATE_AFTER_END_DATE, …).
  ...RuleCode,
  INVALID_FILTER: 'INVALID_FILTER',
  INVALID_LINK: 'INVALID_LINK',
  MISSING_LINK: 'MISSING_LINK',
  INVALID_ANSWER: 'INVALID_ANSWER',
  TICKETS_SOLD_OUT: 'TICKETS_SOLD_OUT',
  UNKNOWN_TICKET_LEVEL: 'UNKNOWN_TICKET_LEVEL',
  CURRENCY_MISMATCH: 'CURRENCY_MISMATCH',
  DUPLICATE_NAME: 'DUPLICATE_NAME',
  INVALID_PARAMETER: 'INVALID_PARAMETER',
  INVALID_CONTROL: 'INVALID_CONTROL',
  LOCAL_IDENTIFIER_NOT_ALLOWED: 'LOCAL_IDENTIFIER_NOT_ALLOWED',
  DUPLICATE_IDENTIFIER: 'DUPLICATE_IDENTIFIER',
  NOT_SUPPORTED: 'NOT_SUPPORTED',
  // Record helpers: action functions naming what does not exist (non-atomic parts).
  TAG_NAME_DOES_NOT_EXIST: 'TAG_NAME_DOES_NOT_EXIST',
  TAG_URI_DOES_NOT_EXIST: 'TAG_URI_DOES_NOT_EXIST',
  LIST_NAME_DOES_NOT_EXIST: 'LIST_NAME_DOES_NOT_EXIST',
  LIST_URI_DOES_NOT_EXIST: 'LIST_URI_DOES_NOT_EXIST',
  QUESTION_DOES_NOT_EXIST: 'QUESTION_DOES_NOT_EXIST',
  // Record attendance helper: tickets against the event's type.
  TICKETS_REQUIRED: 'TICKETS_REQUIRED',
  TICKETS_NOT_ALLOWED: 'TICKETS_NOT_ALLOWED',
  ATTENDED_NOT_ALLOWED: 'ATTENDED_NOT_ALLOWED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  // The database cannot be reached or take more work now (PostgreSQL restarting, every
  // pooled connection busy past the wait): 503 with Retry-After; nothing was committed.
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  // Requests refused before the app runs (HTTP layer: client-errors.ts): malformed
  // HTTP, headers over the parser's limit, a request not received in time.
  BAD_REQUEST: 'BAD_REQUEST',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  // Anonymous (browser) calls: too many from one address.
  RATE_LIMITED: 'RATE_LIMITED',
  // Idempotency-Key on POSTs (http/idempotency.ts): a header that is not 1 to 255
  // visible ASCII characters; a key reused for another request; a key whose first
  // request is still running past the wait.
  INVALID_HEADER: 'INVALID_HEADER',
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  IDEMPOTENCY_KEY_IN_PROGRESS: 'IDEMPOTENCY_KEY_IN_PROGRESS',
  // Message helpers (send, schedule): why a message cannot move to the state asked for.
  MESSAGE_HAS_NO_TARGETS: 'MESSAGE_HAS_NO_TARGETS',
  MESSAGE_INCOMPLETE: 'MESSAGE_INCOMPLETE',
  MESSAGE_ALREADY_SENDING: 'MESSAGE_ALREADY_SENDING',
  MESSAGE_ALREADY_SENT: 'MESSAGE_ALREADY_SENT',
  MESSAGE_NOT_SENDING: 'MESSAGE_NOT_SENDING',
  MESSAGE_NOT_SCHEDULED: 'MESSAGE_NOT_SCHEDULED',
  SCHEDULE_IN_PAST: 'SCHEDULE_IN_PAST',
  // Webhook subscriptions through the API: the tenant has as many as the server allows
  // (domain/webhook-subscription-limit.ts): 409, taken once one is deleted.
  WEBHOOK_LIMIT_REACHED: 'WEBHOOK_LIMIT_REACHED',
} as const;

/** One of the {@link ErrorCode} values. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * An atomic request failure: an HTTP status and every reason, for one resource.
 *
 * @example
 * ```ts
 * import { ApiError } from 'adis-server';
 *
 * throw new ApiError(404, [{ error_code: 'NOT_FOUND', description: 'no such person' }], 'std:person');
 * ```
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorDescription[];
  readonly resource: string;
  /** Extra response headers (for example `Allow` on 405). */
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    errors: ErrorDescription[],
    resource = 'request',
    headers: Record<string, string> = {},
  ) {
    super(errors.map((e) => e.description).join('; ') || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.resource = resource;
    this.headers = headers;
  }
}

/**
 * Shorthand for an {@link ApiError} with a single description.
 *
 * @example
 * ```ts
 * import { apiError } from 'adis-server';
 *
 * throw apiError(400, 'INVALID_PARAMETER', 'page must be a positive integer', { properties: ['page'] });
 * ```
 */
export function apiError(
  status: number,
  errorCode: string,
  description: string,
  extra: { properties?: string[]; hint?: string; resource?: string } = {},
): ApiError {
  const entry: ErrorDescription = { error_code: errorCode, description };
  if (extra.properties) entry.properties = extra.properties;
  if (extra.hint) entry.hint = extra.hint;
  return new ApiError(status, [entry], extra.resource);
}

/**
 * The response body of an atomic error: `{ "std:error": { request_type: "atomic", ... } }`
 * with exactly one resource_status entry, as the spec requires of atomic requests.
 *
 * @example
 * ```ts
 * import { ApiError, errorBody } from 'adis-server';
 *
 * const body = errorBody(new ApiError(400, [{ error_code: 'INVALID_JSON', description: 'bad' }]));
 * body['std:error'].resource_status[0]?.response_code; // 400
 * ```
 */
export function errorBody(error: ApiError): { 'std:error': StdErrorBody } {
  return {
    'std:error': {
      request_type: 'atomic',
      response_code: error.status,
      resource_status: [
        {
          resource: error.resource,
          response_code: error.status,
          error_descriptions: error.errors,
        },
      ],
    },
  };
}

/**
 * The body of a non-atomic error: overall 400 and one resource_status entry per
 * resource involved, as the spec's person signup helper example shows.
 *
 * @example
 * ```ts
 * import { nonAtomicErrorBody } from 'adis-server';
 *
 * nonAtomicErrorBody([{ resource: 'std:person', response_code: 201 }]);
 * ```
 */
export function nonAtomicErrorBody(statuses: ResourceStatus[]): { 'std:error': StdErrorBody } {
  return {
    'std:error': { request_type: 'non-atomic', response_code: 400, resource_status: statuses },
  };
}

// The transport's public surface. Origins, the rate limiter and redirect handling are
// internals of createTransport and stay out of the package's API.
export { IDEMPOTENCY_KEY_HONOURED_HEADER } from './honoured-keys.js';
export { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from './idempotency-key.js';
export {
  DEFAULT_BACKOFF_LIMIT,
  DEFAULT_MAX_RETRY_AFTER,
  DEFAULT_RETRY_AFTER_STATUS_CODES,
  DEFAULT_RETRY_LIMIT,
  DEFAULT_RETRY_STATUS_CODES,
  KEYED_POST_RETRY_STATUS_CODES,
} from './retry-policy.js';
export {
  type AttemptEvent,
  createTransport,
  DEFAULT_API_KEY_HEADER,
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT,
  type HttpMethod,
  type HttpRequest,
  type HttpResponse,
  type ResponseEvent,
  type RetryEvent,
  type RetryOptions,
  type Transport,
  type TransportHooks,
  type TransportOptions,
} from './transport.js';

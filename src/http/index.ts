export { originOf, TrustedOrigins } from './origins.js';
export { type Clock, RateLimiter } from './rate-limiter.js';
export {
  DEFAULT_RETRY_AFTER_STATUS_CODES,
  DEFAULT_RETRY_LIMIT,
  DEFAULT_RETRY_STATUS_CODES,
} from './retry-policy.js';
export {
  type AttemptEvent,
  createTransport,
  DEFAULT_API_KEY_HEADER,
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

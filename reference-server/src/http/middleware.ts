/**
 * Cross-cutting HTTP concerns: API headers, authentication, error mapping.
 */
import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError, apiError, ErrorCode } from '../domain/errors.js';
import { duplicateIdentifierError } from '../domain/identifiers.js';
import { recordHomes } from '../presets/record-homes.js';
import { DuplicateIdentifierError, StorageUnavailableError } from '../storage/storage.js';
import { newRequestId } from './access-log.js';
import { anonymousHelperOf } from './anonymous.js';
import type { AppConfig, AppEnv } from './env.js';
import { DOCS_PREFIX, requestRoot, Urls } from './links.js';
import { requestHeader } from './request-header.js';
import { errorResponse, setApiHeaders } from './respond.js';
import { unavailable } from './unavailable.js';

/** Methods a read-only key may use. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sets the spec's Content-Type and Cache-Control on every API response, whichever
 * handler (or error handler) produced it, and the request's URL builder. Documentation
 * pages keep their HTML content type.
 */
export function apiHeaders(config: AppConfig): MiddlewareHandler<AppEnv> {
  // Urls holds nothing but its root: requests with the same root share one.
  let last: { root: string; urls: Urls } | undefined;
  const homes = recordHomes(config.preset, config.registry);
  return async (c, next) => {
    const root = requestRoot(c.req.url, config.publicUrl);
    if (last?.root !== root)
      last = {
        root,
        urls: new Urls(
          root,
          config.curiePrefix,
          config.apiPrefix,
          config.preset.extraCuries,
          config.preset.relationNames,
          homes,
        ),
      };
    c.set('urls', last.urls);
    await next();
    if (!c.req.path.startsWith(DOCS_PREFIX)) setApiHeaders(c.res.headers);
  };
}

/** Headers that mean something else to HTTP, to CORS or to this server. */
const TAKEN_HEADERS = new Set(
  [
    'Accept',
    'Connection',
    'Content-Length',
    'Content-Type',
    'Host',
    'Idempotency-Key',
    'Origin',
    'Transfer-Encoding',
    'X-Forwarded-For',
    'X-Request-Id',
  ].map((name) => name.toLowerCase()),
);

/**
 * Checks the name of the API key header: an HTTP header name (a token), and not one
 * that already means something else (Content-Type, Host, Origin, X-Request-Id, …).
 * Returns it; throws a `RangeError` saying what is wrong.
 *
 * @example
 * ```ts
 * import { checkApiKeyHeader } from './middleware.js';
 *
 * checkApiKeyHeader('OSDI-API-Token'); // 'OSDI-API-Token'
 * checkApiKeyHeader('API Token'); // RangeError
 * ```
 */
export function checkApiKeyHeader(name: string): string {
  if (typeof name !== 'string' || !/^[!#$%&'*+.^`|~\w-]{1,64}$/.test(name)) {
    throw new RangeError(
      `API key header must be an HTTP header name (1 to 64 letters, digits or !#$%&'*+-.^_\`|~, no spaces), got ${JSON.stringify(name)}`,
    );
  }
  if (TAKEN_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('access-control-')) {
    throw new RangeError(`API key header cannot be ${name}: that header has another meaning`);
  }
  return name;
}

/**
 * API key check. Missing or unknown key: 401; a read key on a writing method: 403. The
 * spec defines no body for either; a std:error body says what went wrong.
 *
 * Two kinds of calls pass without a key: OPTIONS (CORS preflights, which browsers send
 * without credentials; the CORS middleware answers them before this runs), and a POST
 * to a record helper the spec opens to anonymous callers (`anonymous` is set and
 * `auth` is not: the helper finds the tenant from the record in its URL). A key that
 * is sent but unknown is refused even there: it is never downgraded to anonymous.
 */
export function authenticate(config: AppConfig): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const token = requestHeader(c, config.apiKeyHeader);
    if (
      token === undefined &&
      anonymousHelperOf(config.registry, c.req.method, c.req.path, config.apiPrefix)
    ) {
      c.set('anonymous', true);
      return next();
    }
    if (!token) {
      throw apiError(
        401,
        ErrorCode.UNAUTHORIZED,
        `missing API key: send it in the ${config.apiKeyHeader} header`,
        {
          hint: `${config.apiKeyHeader}: <API key>`,
        },
      );
    }
    const auth = await config.storage.tenants.authenticate(token);
    if (!auth) {
      throw apiError(
        401,
        ErrorCode.UNAUTHORIZED,
        `unknown API key (sent in the ${config.apiKeyHeader} header)`,
      );
    }
    if (auth.access === 'read' && !READ_METHODS.has(c.req.method)) {
      throw apiError(
        403,
        ErrorCode.FORBIDDEN,
        `this API key is read-only and may not ${c.req.method}`,
      );
    }
    c.set('auth', auth);
    c.set('anonymous', false);
    return next();
  };
}

/**
 * A handler answering 405 with an `Allow` header; registered after the allowed
 * methods of a route.
 */
export function methodNotAllowed(allowed: readonly string[]) {
  return (c: Context<AppEnv>): Response => {
    throw new ApiError(
      405,
      [
        {
          error_code: ErrorCode.METHOD_NOT_ALLOWED,
          description: `${c.req.method} is not allowed here; allowed: ${allowed.join(', ')}`,
        },
      ],
      'request',
      { Allow: allowed.join(', ') },
    );
  };
}

/**
 * 404 for unknown routes, as std:error.
 */
export function notFound(config: AppConfig): NotFoundHandler<AppEnv> {
  return (c) =>
    errorResponse(
      apiError(404, ErrorCode.NOT_FOUND, `nothing at ${c.req.path}`),
      config.curiePrefix,
    );
}

/**
 * Maps thrown errors to responses: {@link ApiError} as given, Hono's HTTP exceptions by
 * status, anything else as a 500 whose `reference_code` is the request id, logged with
 * the stack trace to `logError` (stderr by default): the client gets the code (in the
 * body and as `X-Request-Id`), the operator finds the trace, and the request's access
 * log line, by it.
 */
export function errorHandler(config: AppConfig): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ApiError) return errorResponse(error, config.curiePrefix);
    if (error instanceof StorageUnavailableError) {
      return errorResponse(unavailable(error), config.curiePrefix);
    }
    // An identifier another writer took between this request's check and its commit
    // (held writes are sent at the commit): the same 400 as when the check finds it.
    if (error instanceof DuplicateIdentifierError) {
      const resource = `std:${error.kind ?? 'record'}`;
      return errorResponse(
        duplicateIdentifierError([error.identifier], [error.identifier], resource),
        config.curiePrefix,
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(
        apiError(error.status, `HTTP_${error.status}`, error.message || 'request refused'),
        config.curiePrefix,
      );
    }
    // Set by the first middleware of every request; a new id only if that never ran.
    const reference = c.get('requestId') ?? newRequestId();
    config.logError(
      `[${new Date().toISOString()}] ${reference} ${c.req.method} ${c.req.path}: ${
        error instanceof Error ? (error.stack ?? error.message) : String(error)
      }`,
    );
    const failure = apiError(500, ErrorCode.INTERNAL_ERROR, 'unexpected server error');
    const first = failure.errors[0];
    if (first) first.reference_code = reference;
    return errorResponse(failure, config.curiePrefix);
  };
}

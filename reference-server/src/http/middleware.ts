/**
 * Cross-cutting HTTP concerns: API headers, authentication, error mapping.
 */
import { randomBytes } from 'node:crypto';
import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError, apiError, ErrorCode } from '../domain/errors.js';
import { anonymousHelperOf } from './anonymous.js';
import type { AppConfig, AppEnv } from './env.js';
import { DOCS_PREFIX, requestRoot, Urls } from './links.js';
import { requestHeader } from './request-header.js';
import { errorResponse, setApiHeaders } from './respond.js';

/** Methods a read-only key may use. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sets the spec's Content-Type and Cache-Control on every API response, whichever
 * handler (or error handler) produced it, and the request's URL builder. Documentation
 * pages keep their HTML content type.
 *
 * @example
 * ```ts
 * app.use('*', apiHeaders(config));
 * ```
 */
export function apiHeaders(config: AppConfig): MiddlewareHandler<AppEnv> {
  // Urls holds nothing but its root: requests with the same root share one.
  let last: { root: string; urls: Urls } | undefined;
  return async (c, next) => {
    const root = requestRoot(c.req.url, config.publicUrl);
    if (last?.root !== root) last = { root, urls: new Urls(root) };
    c.set('urls', last.urls);
    await next();
    if (!c.req.path.startsWith(DOCS_PREFIX)) setApiHeaders(c.res.headers);
  };
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
 *
 * @example
 * ```ts
 * app.use('/api/v1/*', authenticate(config));
 * ```
 */
export function authenticate(config: AppConfig): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    const token = requestHeader(c, config.apiKeyHeader);
    if (token === undefined && anonymousHelperOf(config.registry, c.req.method, c.req.path)) {
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
    const auth = config.storage.authenticate(token);
    if (!auth) throw apiError(401, ErrorCode.UNAUTHORIZED, 'unknown API key');
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
 *
 * @example
 * ```ts
 * app.all('/api/v1/people', methodNotAllowed(['GET', 'POST']));
 * ```
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
 *
 * @example
 * ```ts
 * app.notFound(notFound);
 * ```
 */
export const notFound: NotFoundHandler<AppEnv> = (c) =>
  errorResponse(apiError(404, ErrorCode.NOT_FOUND, `nothing at ${c.req.path}`));

/**
 * Maps thrown errors to responses: {@link ApiError} as given, Hono's HTTP exceptions by
 * status, anything else as a 500 with a `reference_code` logged to stderr (the client
 * gets the code, the operator finds the stack trace by it).
 *
 * @example
 * ```ts
 * app.onError(errorHandler(config));
 * ```
 */
export function errorHandler(config: AppConfig): ErrorHandler<AppEnv> {
  return (error, c) => {
    if (error instanceof ApiError) return errorResponse(error);
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(
        apiError(error.status, `HTTP_${error.status}`, error.message || 'request refused'),
      );
    }
    const reference = randomBytes(8).toString('hex');
    config.logError(
      `[${new Date().toISOString()}] ${reference} ${c.req.method} ${c.req.path}: ${
        error instanceof Error ? (error.stack ?? error.message) : String(error)
      }`,
    );
    const failure = apiError(500, ErrorCode.INTERNAL_ERROR, 'unexpected server error');
    const first = failure.errors[0];
    if (first) first.reference_code = reference;
    return errorResponse(failure);
  };
}

/**
 * Request body size limits, and what a client that goes past one is answered.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError, apiError, ErrorCode } from '../domain/errors.js';
import { drainRefusedBody } from './drain-refused-body.js';
import type { AppEnv } from './env.js';
import { CANONICAL_PREFIX } from './relations.js';
import { incomingOf } from './request-header.js';
import { errorResponse } from './respond.js';

/**
 * The 413 answer to a body over `limit` bytes: a `std:error` (under `curiePrefix`) with
 * `Connection: close`.
 * The rest of such a body is not waited for, so the connection cannot carry another
 * request; saying so lets a keep-alive client open a new one at once instead of
 * sending its next request into a connection that is about to close.
 *
 * @example
 * ```ts
 * import { payloadTooLarge } from './body-limit.js';
 *
 * payloadTooLarge(16384).status; // 413
 * payloadTooLarge(16384).headers.get('Connection'); // 'close'
 * ```
 */
export function payloadTooLarge(limit: number, curiePrefix = CANONICAL_PREFIX): Response {
  return errorResponse(
    new ApiError(
      413,
      [
        {
          error_code: ErrorCode.PAYLOAD_TOO_LARGE,
          description: `the request body exceeds the limit of ${limit} bytes`,
          hint: `send at most ${limit} bytes`,
        },
      ],
      'request',
      { Connection: 'close' },
    ),
    curiePrefix,
  );
}

/**
 * Reads the request body up front, refusing one over `maxBytes` with
 * {@link payloadTooLarge}: at once when its Content-Length announces more (before any of
 * it is read), else as soon as the bytes read pass the limit. Neither waits for the
 * rest: the answer says `Connection: close`, and under Node the rest is then drained
 * (bounded, {@link drainRefusedBody}) before the connection closes, so that a client
 * still sending reads its answer rather than a reset.
 * A body that cannot be read (the client broke the connection mid-body, or Node's
 * parser refused its framing) is the client's failure, a 400 `BAD_REQUEST`, not a
 * server error; nobody may be left to receive it, but no 500 is logged for it either.
 * Handlers then read the buffered body.
 */
export function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // GET and HEAD carry no body (the node adapter gives them none; fetch forbids one).
    // Reading `c.req.raw.body` anyway would make the adapter build the full web Request
    // (headers, abort signal, stream) that it otherwise never needs.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    // Served by node, the body is read from the node request itself: the web Request
    // and its stream, built for this alone, cost a write call about a tenth of its time.
    const incoming = incomingOf(c.env);
    // (Node's web streams are async iterable; the DOM typings do not say so.)
    // The node request is read without destroying it on an early return: a refused
    // body is drained, and destroying the request would close the connection.
    const body = (incoming?.iterator({ destroyOnReturn: false }) ??
      c.req.raw.body) as AsyncIterable<Uint8Array> | null;
    if (body === null) return next();
    const refuse = () => {
      if (incoming) drainRefusedBody(incoming);
      return payloadTooLarge(maxBytes, c.get('urls').curiePrefix);
    };
    const declared = c.req.header('content-length');
    if (
      declared !== undefined &&
      c.req.header('transfer-encoding') === undefined &&
      Number(declared) > maxBytes
    ) {
      return refuse();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += chunk.byteLength;
        if (size > maxBytes) return refuse();
        chunks.push(chunk);
      }
    } catch (error) {
      throw apiError(
        400,
        ErrorCode.BAD_REQUEST,
        `the request body could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    c.set('body', Buffer.concat(chunks, size));
    return next();
  };
}

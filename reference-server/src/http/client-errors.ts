/**
 * Answers to requests refused before the app sees them, as `std:error` bodies like
 * every other error of the server.
 *
 * Two layers refuse requests on their own. Node's HTTP parser refuses what it cannot
 * parse (a malformed request line or header, a bad Content-Length or Transfer-Encoding,
 * headers over its 16 KiB limit) through the server's `clientError` event, whose default
 * writes a bare `400 Bad Request` with no body. The node adapter refuses what it cannot
 * turn into a web `Request` (no Host header, an invalid one, a backslash in the path)
 * with an empty 400. A client of this server decodes `std:error` bodies; these answers
 * give it one too, with the reason.
 */
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError } from '@hono/node-server';
import { ApiError, ErrorCode, errorBody } from '../domain/errors.js';
import { CACHE_CONTROL, errorResponse, HAL_CONTENT_TYPE } from './respond.js';

/** The status and error of each parser failure that has its own status; others are 400. */
const PARSER_FAILURES: Readonly<Record<string, { status: number; code: string; what: string }>> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: ErrorCode.HEADERS_TOO_LARGE,
    what: `the request line and headers exceed the limit of ${maxHeaderSize} bytes`,
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: ErrorCode.PAYLOAD_TOO_LARGE,
    // Node's fixed limit (16 KiB) on the `;name=value` text after each chunk size.
    what: 'the chunk extensions of the body exceed the limit of 16384 bytes',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: ErrorCode.REQUEST_TIMEOUT,
    what: 'the request was not received in time',
  },
};

/**
 * The complete HTTP/1.1 response, as bytes for a raw socket, for a request refused with
 * `status`: a `std:error` body with its Content-Length, the API's content type, and
 * `Connection: close`, since after a parse failure the connection cannot be read any
 * further.
 */
export function rawErrorResponse(status: number, code: string, description: string): Buffer {
  const body = JSON.stringify(
    errorBody(new ApiError(status, [{ error_code: code, description }], 'request')),
  );
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `Content-Type: ${HAL_CONTENT_TYPE}`,
    `Cache-Control: ${CACHE_CONTROL}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  return Buffer.from(head + body);
}

/** Node's in-flight response on a socket, when it has begun writing it. */
function responseStarted(socket: Duplex): boolean {
  // `_httpMessage` is how Node's own default clientError handler tells whether a
  // response is being written on the socket; there is no public equivalent.
  const message = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return message?.headersSent === true;
}

/**
 * The server's `clientError` listener: answers a request Node's parser refused with a
 * `std:error` (431 for headers too large, 413 for oversized chunk extensions, 408 for a
 * request timeout, 400 for everything else malformed) and closes the connection. When
 * nothing can be written (the peer reset the connection, the socket is no longer
 * writable, or a response is already half sent, which an error answer would corrupt) it
 * only destroys the socket.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
    socket.destroy();
    return;
  }
  const known = error.code === undefined ? undefined : PARSER_FAILURES[error.code];
  const response = known
    ? rawErrorResponse(known.status, known.code, known.what)
    : rawErrorResponse(
        400,
        ErrorCode.BAD_REQUEST,
        `the request is not valid HTTP/1.1 (${error.code ?? 'parse error'}: ${error.message})`,
      );
  // Destroy once the answer is flushed: the parser has given up on this connection.
  socket.end(response, () => socket.destroy());
}

/**
 * The node adapter's `errorHandler`: a request it could not turn into a web `Request`
 * (`RequestError`: no Host header, an invalid one, a backslash in the path) is a 400
 * `BAD_REQUEST`. Anything else reaching it escaped the app's own error handler, so it is
 * a bug: logged, and answered 500 like the app's other unexpected errors.
 */
export function adapterErrorResponse(error: unknown): Response {
  if (error instanceof RequestError) {
    return errorResponse(
      new ApiError(400, [
        { error_code: ErrorCode.BAD_REQUEST, description: `bad request: ${error.message}` },
      ]),
    );
  }
  console.error(error);
  return errorResponse(
    new ApiError(500, [
      { error_code: ErrorCode.INTERNAL_ERROR, description: 'unexpected server error' },
    ]),
  );
}

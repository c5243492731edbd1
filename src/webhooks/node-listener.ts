// Node's `http` (and Express, Fastify's raw request, Koa's `ctx.req`) hand over a stream
// and a response to write, not a Fetch Request: this adapter reads the raw body (within
// the handler's cap: the signature is over the exact bytes sent, so the body must not be
// parsed first), builds the Request, and writes the Response back. Its types are
// structural, so the SDK's declarations need no @types/node.

import { concatBytes } from '../wire/concat-bytes.js';
import type { WebhookHandler } from './webhook-handler.js';

/** The part of Node's `IncomingMessage` (or Express's `Request`) the adapter reads. */
export interface NodeWebhookRequest extends AsyncIterable<Uint8Array | string> {
  /** The request method. */
  readonly method?: string | undefined;
  /** The path and query. */
  readonly url?: string | undefined;
  /** The request headers. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * Set by Express's body parsers: used as the raw body when it is a string or bytes
   * (`express.raw()`, `express.text()`); a parsed object cannot be checked against a
   * signature and is refused with 500.
   */
  readonly body?: unknown;
  /** Whether the stream was read already (by a body parser). */
  readonly readableEnded?: boolean | undefined;
  /** Lets the rest of an unread body flow away. */
  resume?(): unknown;
}

/** The part of Node's `ServerResponse` the adapter writes. */
export interface NodeWebhookResponse {
  /** The status to send. */
  statusCode: number;
  /** Sets a header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and ends the response. */
  end(body: Uint8Array): unknown;
}

/** What {@link toNodeListener} returns: a `node:http` request listener, or Express middleware. */
export type NodeWebhookListener = (
  request: NodeWebhookRequest,
  response: NodeWebhookResponse,
) => Promise<void>;

const encoder = new TextEncoder();

function send(response: NodeWebhookResponse, status: number, body: Record<string, unknown>): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json');
  response.end(encoder.encode(JSON.stringify(body)));
}

/** The raw body, read within `maxBytes`; `undefined` past it, `'parsed'` when a parser had it. */
async function rawBody(
  request: NodeWebhookRequest,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined | 'parsed'> {
  const { body } = request;
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return new Uint8Array(body);
  if (request.readableEnded === true && body !== undefined) return 'parsed';
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (declared > maxBytes) return undefined;
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of request) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    length += bytes.byteLength;
    if (length > maxBytes) return undefined;
    chunks.push(bytes);
  }
  // A copy of its own: a Request body must not share Node's pooled buffers.
  return new Uint8Array(concatBytes(chunks, length));
}

function fetchHeaders(request: NodeWebhookRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    headers.set(name, typeof value === 'string' ? value : value.join(', '));
  }
  return headers;
}

/**
 * Runs a {@link webhookHandler} under Node's `http` server or Express: reads the raw
 * body (at most the handler's `maxBodyBytes`, answering 413 past it), hands the handler
 * a Fetch Request, and writes its Response back.
 *
 * With Express, mount it before `express.json()` (or give its route `express.raw({
 * type: () => true })`): the signature is over the bytes sent, which a parsed body has
 * lost. An error the handler itself throws (not one of `on`'s: those are its 500) is
 * answered 500 too, never left unhandled.
 *
 * @param handler - The receiver, from {@link webhookHandler}.
 * @returns A request listener for `http.createServer`, or an Express handler.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { toNodeListener, webhookHandler } from 'adis-sdk/webhooks';
 *
 * const handler = webhookHandler({ on: { signature: (event) => console.log(event.record) } });
 * createServer(toNodeListener(handler)).listen(3000);
 * // Express: app.post('/webhooks/adis', toNodeListener(handler));
 * ```
 */
export function toNodeListener(handler: WebhookHandler): NodeWebhookListener {
  return async (request, response) => {
    try {
      await listen(handler, request, response);
    } catch {
      try {
        send(response, 500, { error: 'RECEIVER_FAILED', message: 'the webhook receiver failed' });
      } catch {
        // The answer was already under way: nothing more can be said to the sender.
      }
    }
  };
}

async function listen(
  handler: WebhookHandler,
  request: NodeWebhookRequest,
  response: NodeWebhookResponse,
): Promise<void> {
  const method = request.method ?? 'GET';
  let url = 'http://localhost/';
  try {
    url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`).href;
  } catch {
    // A Host header no URL can hold: the handler does not read the URL anyway.
  }
  let body: Uint8Array<ArrayBuffer> | null = null;
  if (method === 'POST') {
    const raw = await rawBody(request, handler.maxBodyBytes);
    if (raw === 'parsed') {
      send(response, 500, {
        error: 'BODY_ALREADY_PARSED',
        message:
          'the body was parsed before the webhook handler (express.json()?): mount it first, or use express.raw()',
      });
      return;
    }
    if (raw === undefined) {
      // Let the rest of the body flow away unread, so the sender reads this answer.
      request.resume?.();
      send(response, 413, {
        error: 'BODY_TOO_LARGE',
        message: `the body is over ${handler.maxBodyBytes} bytes`,
        maxBodyBytes: handler.maxBodyBytes,
      });
      return;
    }
    body = raw;
  } else {
    request.resume?.();
  }
  let fetchRequest: Request;
  try {
    fetchRequest = new Request(url, { method, headers: fetchHeaders(request), body });
  } catch {
    // A method Fetch forbids (CONNECT, TRACE): any method but POST gets the same 405.
    fetchRequest = new Request(url, { method: 'GET' });
  }
  const answer = await handler(fetchRequest);
  response.statusCode = answer.status;
  answer.headers.forEach((value, name) => {
    response.setHeader(name, value);
  });
  response.end(new Uint8Array(await answer.arrayBuffer()));
}

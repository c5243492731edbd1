/**
 * Serving the app over HTTP with @hono/node-server, and stopping cleanly.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { ApiError, ErrorCode } from './domain/errors.js';
import { entryPointPath } from './http/app.js';
import { adapterErrorResponse, answerClientError } from './http/client-errors.js';
import type { AppEnv } from './http/env.js';
import { errorResponse } from './http/respond.js';
import { checkingIntervalMs, type ServerTimeouts, serverTimeouts } from './server-timeouts.js';

/** Options of {@link startServer}. */
export interface StartServerOptions {
  app: Hono<AppEnv>;
  /** TCP port; 0 picks a free one. Default 8000. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1 (local only). */
  host?: string;
  /**
   * How long a client may take to send its request, and an idle connection is kept
   * (milliseconds); each one left out keeps its default (`DEFAULT_SERVER_TIMEOUTS`:
   * headers 10 s, whole request 30 s, keep-alive 5 s).
   */
  timeouts?: Partial<ServerTimeouts>;
}

/** Options of {@link listen}: where to listen, before there is an app to serve. */
export type ListenOptions = Omit<StartServerOptions, 'app'>;

/**
 * A server listening before its app exists ({@link listen}): the port is claimed, and
 * requests meanwhile get 503 `SERVICE_UNAVAILABLE` with `Retry-After: 1`.
 */
export interface ListeningServer {
  server: Server;
  host: string;
  /** The real port (useful with port 0). */
  port: number;
  /** Root URL, for example `http://127.0.0.1:8000`. */
  url: string;
  /** Serves `app` from now on (once). */
  serve(app: Hono<AppEnv>): RunningServer;
  /** Stops listening (a start that failed after claiming the port). */
  close(): Promise<void>;
}

/** A listening server. */
export interface RunningServer {
  server: Server;
  host: string;
  /** The real port (useful with port 0). */
  port: number;
  /** Root URL, for example `http://127.0.0.1:8000`. */
  url: string;
  /** The API entry point URL. */
  entryPoint: string;
  /** Stops accepting connections and resolves once in-flight requests have finished. */
  close(): Promise<void>;
}

function hostForUrl(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The node HTTP server for an app. Every refusal gets a `std:error` body: requests
 * Node's parser refuses through `clientError` (a request past its timeout too: 408),
 * requests the adapter cannot convert through its `errorHandler`. Node's own Host check
 * is off (`requireHostHeader`) because it answers a bare 400 itself; the adapter refuses
 * a missing Host the same way, with a body. `timeouts` are checked (a RangeError when one
 * is not a positive whole number, or the headers' exceeds the request's).
 *
 * @example
 * ```ts
 * import { createApp, openStorage } from 'adis-server';
 * import { createNodeServer } from './server.js';
 *
 * const storage = openStorage('data/adis.db');
 * const server = createNodeServer(createApp({ storage }), { headersMs: 5_000 });
 * server.listen(8000, '127.0.0.1');
 * ```
 */
export function createNodeServer(app: Hono<AppEnv>, timeouts?: Partial<ServerTimeouts>): Server {
  return nodeServer(app.fetch, timeouts);
}

/** The node server of {@link createNodeServer}, answering with `fetch`. */
function nodeServer(fetch: FetchHandler, timeouts?: Partial<ServerTimeouts>): Server {
  const chosen = serverTimeouts(timeouts);
  const listener = getRequestListener(fetch, { errorHandler: adapterErrorResponse });
  const server = createServer(
    {
      requireHostHeader: false,
      headersTimeout: chosen.headersMs,
      requestTimeout: chosen.requestMs,
      connectionsCheckingInterval: checkingIntervalMs(chosen),
    },
    listener,
  );
  // Node 20's createServer takes no keep-alive option.
  server.keepAliveTimeout = chosen.keepAliveMs;
  server.on('clientError', answerClientError);
  return server;
}

/** What a node server answers requests with: an app's `fetch`. */
type FetchHandler = Hono<AppEnv>['fetch'];

/** The answer while the server has claimed its port but has no app yet. */
function starting(): Response {
  return errorResponse(
    new ApiError(
      503,
      [
        {
          error_code: ErrorCode.SERVICE_UNAVAILABLE,
          description: 'the server is starting (opening its database); retry in 1 s',
          hint: 'send the request again after Retry-After seconds',
        },
      ],
      'request',
      { 'Retry-After': '1' },
    ),
  );
}

/**
 * Claims the port before anything else is done: a command line checks what it can check
 * (a taken port) before it opens, migrates or seeds a database. Rejects when the port is
 * taken or the host is invalid; throws a RangeError for invalid `timeouts`. Until
 * `serve(app)`, requests get 503 with `Retry-After: 1`.
 *
 * @example
 * ```ts
 * import { createApp, openPostgresStorage } from 'adis-server';
 * import { listen } from './server.js';
 *
 * const listening = await listen({ port: 8000 }); // fails here if 8000 is taken
 * const storage = await openPostgresStorage('postgres://adis@db/adis');
 * const running = listening.serve(createApp({ storage }));
 * ```
 */
export function listen(options: ListenOptions = {}): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  let fetch: FetchHandler | undefined;
  const server = nodeServer(
    (request, env, context) => (fetch ? fetch(request, env, context) : starting()),
    options.timeouts,
  );
  const close = () =>
    new Promise<void>((done, fail) => {
      server.close((error) => (error ? fail(error) : done()));
      // Keep-alive connections with no request in flight would hold close() open.
      server.closeIdleConnections();
    });
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(options.port ?? 8000, host, () => {
      server.off('error', onError);
      const port = (server.address() as AddressInfo).port;
      const url = `http://${hostForUrl(host)}:${port}`;
      resolve({
        server,
        host,
        port,
        url,
        close,
        serve(app) {
          if (fetch) throw new Error('serve(app) was called twice');
          fetch = app.fetch;
          return { server, host, port, url, entryPoint: `${url}${entryPointPath(app)}`, close };
        },
      });
    });
  });
}

/**
 * Starts listening. Rejects when the port is taken or the host is invalid; throws a
 * RangeError for invalid `timeouts`.
 *
 * @example
 * ```ts
 * import { createApp, openStorage, startServer } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * const running = await startServer({ app: createApp({ storage }), port: 0 });
 * console.log(running.entryPoint);
 * await running.close();
 * ```
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { app, ...where } = options;
  return (await listen(where)).serve(app);
}

/**
 * Serving the app over HTTP with @hono/node-server, and stopping cleanly.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { entryPointPath } from './http/app.js';
import { adapterErrorResponse, answerClientError } from './http/client-errors.js';
import type { AppEnv } from './http/env.js';
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
 * const server = createNodeServer(createApp({ storage }), { headersMs: 5_000 });
 * server.listen(8000, '127.0.0.1');
 * ```
 */
export function createNodeServer(app: Hono<AppEnv>, timeouts?: Partial<ServerTimeouts>): Server {
  const chosen = serverTimeouts(timeouts);
  const listener = getRequestListener(app.fetch, { errorHandler: adapterErrorResponse });
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

/**
 * Starts listening. Rejects when the port is taken or the host is invalid; throws a
 * RangeError for invalid `timeouts`.
 *
 * @example
 * ```ts
 * const running = await startServer({ app: createApp({ storage }), port: 0 });
 * console.log(running.entryPoint);
 * await running.close();
 * ```
 */
export function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createNodeServer(options.app, options.timeouts);
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
        entryPoint: `${url}${entryPointPath(options.app)}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            // Keep-alive connections with no request in flight would hold close() open.
            server.closeIdleConnections();
          }),
      });
    });
  });
}

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

/** Options of {@link startServer}. */
export interface StartServerOptions {
  app: Hono<AppEnv>;
  /** TCP port; 0 picks a free one. Default 8000. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1 (local only). */
  host?: string;
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
 * Node's parser refuses through `clientError`, requests the adapter cannot convert
 * through its `errorHandler`. Node's own Host check is off (`requireHostHeader`) because
 * it answers a bare 400 itself; the adapter refuses a missing Host the same way, with a
 * body.
 *
 * @example
 * ```ts
 * const server = createNodeServer(createApp({ storage }));
 * server.listen(8000, '127.0.0.1');
 * ```
 */
export function createNodeServer(app: Hono<AppEnv>): Server {
  const listener = getRequestListener(app.fetch, { errorHandler: adapterErrorResponse });
  const server = createServer({ requireHostHeader: false }, listener);
  server.on('clientError', answerClientError);
  return server;
}

/**
 * Starts listening. Rejects when the port is taken or the host is invalid.
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
  const server = createNodeServer(options.app);
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

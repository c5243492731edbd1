/**
 * Serving the app over HTTP with @hono/node-server, and stopping cleanly.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
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
  const server = createAdaptorServer({ fetch: options.app.fetch }) as Server;
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
        entryPoint: `${url}/api/v1/`,
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

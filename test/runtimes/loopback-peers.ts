/**
 * The misbehaving servers the runtime suite needs beside the reference server, each on
 * loopback: one that accepts and never answers (timeouts), and one that answers 503
 * with `Retry-After: 0` to its first request and then hands on the reference server's
 * entry point (retries). A closed port is port 1, where nothing listens.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** The peers of one suite run, and how to stop them. */
export interface LoopbackPeers {
  silentUrl: string;
  flakyUrl: string;
  closedUrl: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
}

/**
 * Starts the peers for a suite run against `entryPoint`.
 *
 * @example
 * ```ts
 * const peers = await startLoopbackPeers(server.entryPoint);
 * try { await run({ ...peers }); } finally { await peers.close(); }
 * ```
 */
export async function startLoopbackPeers(entryPoint: string): Promise<LoopbackPeers> {
  const sockets = new Set<Socket>();
  const silent = createServer(() => {
    // Never answers: the client's timeout has to end the request.
  });
  let flakyCalls = 0;
  const flaky = createServer((request, response) => {
    flakyCalls++;
    if (flakyCalls === 1) {
      response.writeHead(503, { 'retry-after': '0', 'content-type': 'text/plain' });
      response.end('try again');
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'connection')
        headers.set(name, value);
    }
    fetch(entryPoint, { headers })
      .then(async (answer) => {
        response.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? '',
        });
        response.end(await answer.text());
      })
      .catch(() => {
        response.writeHead(502);
        response.end();
      });
  });
  for (const server of [silent, flaky]) {
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  }
  const [silentUrl, flakyUrl] = await Promise.all([listen(silent), listen(flaky)]);
  return {
    silentUrl,
    flakyUrl,
    closedUrl: 'http://127.0.0.1:1/api/v1/',
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        [silent, flaky].map((server) => new Promise((resolve) => server.close(resolve))),
      );
    },
  };
}

/**
 * The misbehaving servers the runtime suite needs beside the reference server, each on
 * loopback: one that accepts and never answers (timeouts), and one in front of the
 * reference server that answers 503 with `Retry-After: 0` to its first GET and then
 * relays every request, its documents written with `_links` last (retries, and paging
 * a server that says where the next page is only at the end of each); the latter also serves the page the browser runs the suite
 * in, and answers CORS as the reference server does. A closed port is port 1, where
 * nothing listens.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** The peers of one suite run, and how to stop them. */
export interface LoopbackPeers {
  silentUrl: string;
  flakyUrl: string;
  closedUrl: string;
  /** A page whose module script is {@link LoopbackPeers.pageScript}, at the flaky server's origin. */
  pageUrl: string;
  /** The page's module script: set it before loading the page. */
  pageScript: string;
  close(): Promise<void>;
}

/** Moves `_links` after every other member, as some servers write their documents. */
function linksLast(document: unknown): unknown {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return document;
  const { _links: links, ...rest } = document as Record<string, unknown>;
  return links === undefined ? rest : { ...rest, _links: links };
}

/**
 * Hands a request on to the reference server and its answer back, with every href
 * moved to this server's origin (so the SDK keeps coming here, key and all) and
 * `_links` written last, as some servers write them: the next page's link then
 * arrives only with the end of each page, so read-ahead cannot ask for it early.
 */
async function relayLinksLast(
  request: IncomingMessage,
  response: ServerResponse,
  upstream: string,
  own: string,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string' && name !== 'host' && name !== 'connection')
      headers.set(name, value);
  }
  const answer = await fetch(new URL(request.url ?? '/', upstream), { headers });
  const text = (await answer.text()).replaceAll(upstream, own);
  const type = answer.headers.get('content-type') ?? '';
  const body = type.includes('json') ? JSON.stringify(linksLast(JSON.parse(text))) : text;
  response.writeHead(answer.status, { 'content-type': type });
  response.end(body);
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
  const upstream = new URL(entryPoint).origin;
  const ownOrigin = (): string => flakyOrigin;
  const sockets = new Set<Socket>();
  const silent = createServer(() => {
    // Never answers: the client's timeout has to end the request.
  });
  let flakyCalls = 0;
  const flaky = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '',
        'access-control-allow-methods': 'GET',
      });
      response.end();
      return;
    }
    if (request.url === '/page') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<!doctype html><title>runtime suite</title><script type="module" src="/suite.js"></script>',
      );
      return;
    }
    if (request.url === '/suite.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(peers.pageScript);
      return;
    }
    flakyCalls++;
    if (flakyCalls === 1) {
      response.writeHead(503, { 'retry-after': '0', 'content-type': 'text/plain' });
      response.end('try again');
      return;
    }
    relayLinksLast(request, response, upstream, ownOrigin()).catch(() => {
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
  const flakyOrigin = new URL(flakyUrl).origin;
  const peers: LoopbackPeers = {
    pageScript: '',
    silentUrl,
    flakyUrl: new URL(new URL(entryPoint).pathname, flakyUrl).href,
    closedUrl: 'http://127.0.0.1:1/api/v1/',
    pageUrl: new URL('/page', flakyUrl).href,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        [silent, flaky].map((server) => new Promise((resolve) => server.close(resolve))),
      );
    },
  };
  return peers;
}

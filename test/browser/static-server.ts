import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A static file server on a loopback port: the "web site" that embeds the widget. */
export interface StaticServer {
  /** Root URL with a trailing slash, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the files under `root` on a free loopback port, so the page runs on an origin
 * of its own, apart from the API's. `rewrite` may change an HTML file's text as it is
 * served, given the request URL (the test points the form at the record it created, as
 * a site owner would by editing the page).
 */
export async function serveStatic(
  root: string,
  rewrite: (url: URL, text: string) => string = (_url, text) => text,
): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    const relative = normalize(path === '/' ? '/index.html' : path).replace(/^[/\\]+/, '');
    const file = join(root, relative);
    if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (content) => {
        const type = TYPES[extname(file)] ?? 'application/octet-stream';
        const body = type.startsWith('text/html')
          ? rewrite(url, content.toString('utf8'))
          : content;
        response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
        response.end(body);
      },
      () => response.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

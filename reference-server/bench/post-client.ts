/**
 * The benchmark's write client: POSTs over node:http with keep-alive connections, one
 * per client. `fetch` (undici, web streams) costs the machine more CPU a request than
 * the server's cheapest answers do, and on two cores every millisecond the client
 * spends is one the server and its database do not get: pgbench, the anchor, is C.
 */
import { Agent, request } from 'node:http';

/** A POST client over `connections` keep-alive connections a host. */
export interface PostClient {
  /** POSTs `body` to `url`; resolves with the status once the answer is read whole. */
  post(url: string, headers: Readonly<Record<string, string>>, body: string): Promise<number>;
  /** Closes the connections. */
  close(): void;
}

/**
 * Makes a {@link PostClient}.
 *
 * @example
 * ```ts
 * const client = postClient(10);
 * const status = await client.post(url, { 'Content-Type': 'application/json' }, '{}');
 * client.close();
 * ```
 */
export function postClient(connections: number): PostClient {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return {
    post(url, headers, body) {
      return new Promise((resolve, reject) => {
        const req = request(
          url,
          {
            method: 'POST',
            agent,
            headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          },
          (res) => {
            res.on('error', reject);
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.resume();
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

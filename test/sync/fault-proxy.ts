/**
 * A proxy in front of a server of the world (node:http), to see what a sync sends and to
 * make the faults a real network and a real server make: a target that ignores
 * `Idempotency-Key` (the key taken off requests, `Idempotency-Key-Honoured` off
 * answers), 429 `Retry-After: 1` to every Nth request, and one 503 at the Kth POST,
 * either before the request reaches the server or after (the write made, its answer
 * lost). It logs every request (method, path, status) and lets a test act when the Nth
 * arrives (kill the sync's process there).
 *
 * The `Host` header is passed on as the client sent it, so the server writes its links
 * with the proxy's origin and the client stays behind the proxy.
 */
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the 503 of {@link FaultProxyOptions.failPost} is answered. */
export type FailureMode =
  /** Instead of forwarding: the server never sees the request. */
  | 'before'
  /** After forwarding: the server made the write, the client gets 503 instead of its answer. */
  | 'after';

/** Options of {@link faultProxy}. */
export interface FaultProxyOptions {
  /** The origin of the server behind, `http://127.0.0.1:<port>`. */
  upstream: string;
  /** Take `Idempotency-Key` off requests and `Idempotency-Key-Honoured` off answers. */
  ignoreIdempotencyKeys?: boolean;
  /** Answer 429 with `Retry-After: 1` to every Nth request (counted from 1), not forwarded. */
  throttleEvery?: number;
  /** Answer 503 once, at the Kth POST (from 1), `before` or `after` forwarding it. */
  failPost?: { at: number; mode: FailureMode };
}

/** One request the proxy saw. */
export interface ProxiedRequest {
  /** Its number, from 1. */
  n: number;
  method: string;
  /** Path and query. */
  path: string;
  /** The status the client got; undefined while it waits for it. */
  status?: number;
  /** Whether the server saw it (false for a 429 or a 503 `before`). */
  forwarded: boolean;
  /** The fault answered instead of the server's answer, if any. */
  fault?: '429' | '503 before' | '503 after';
}

/** A running proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`: where clients connect instead of the upstream. */
  readonly origin: string;
  /** Every request seen, in the order they arrived. */
  readonly log: ProxiedRequest[];
  /**
   * Called as each request arrives, before anything is done with it (a test kills the
   * sync's process at the Nth). Set or replace it at any time.
   */
  onRequest: ((request: ProxiedRequest) => void) | undefined;
  /** Requests seen by method (`GET`, `POST`, …), from the log. */
  counts(): Record<string, number>;
  /** Requests seen other than GET and HEAD: the writes sent. */
  writes(): ProxiedRequest[];
  /**
   * Resolves once no request is being handled: every request that reached the proxy has
   * been answered (or its client is gone), every write forwarded is made. A test awaits
   * it after killing a client, so that the next run meets the server the crash left.
   */
  settled(): Promise<void>;
  /** Forgets what was logged (the numbering goes on). */
  clear(): void;
  /** Changes the faults from now on. */
  configure(options: Omit<FaultProxyOptions, 'upstream'>): void;
  close(): Promise<void>;
}

/** Headers between two hops only, never forwarded (RFC 9110, section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

function forwardable(headers: IncomingHttpHeaders, drop: readonly string[]): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(name) || drop.includes(name)) continue;
    out[name] = value;
  }
  return out;
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** The answer of the server behind. */
interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Starts a proxy on a free port of 127.0.0.1.
 *
 * @example
 * ```ts
 * const proxy = await faultProxy({ upstream: world.target.origin, throttleEvery: 20 });
 * const to = await world.target.connect({ via: proxy.origin });
 * // … sync …
 * expect(proxy.counts().POST).toBe(0);
 * await proxy.close();
 * ```
 */
export async function faultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true });
  let faults: Omit<FaultProxyOptions, 'upstream'> = { ...options };
  let seen = 0;
  let posts = 0;
  let failed = false;
  const log: ProxiedRequest[] = [];
  let inFlight = 0;
  const waiting: (() => void)[] = [];

  const forward = (incoming: IncomingMessage, body: Buffer, drop: readonly string[]) =>
    new Promise<Upstream>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...forwardable(incoming.headers, drop), 'content-length': body.length },
          agent,
        },
        (answer) => {
          readBody(answer).then(
            (answered) =>
              resolve({
                status: answer.statusCode ?? 502,
                headers: answer.headers,
                body: answered,
              }),
            reject,
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const reply = (
    response: ServerResponse,
    status: number,
    headers: IncomingHttpHeaders,
    body: Buffer,
  ) => {
    if (response.destroyed) return;
    response.writeHead(status, { ...headers, 'content-length': body.length });
    response.end(body);
  };

  const problem = (code: string, description: string) =>
    Buffer.from(JSON.stringify({ 'std:error': { error_code: code, description } }));

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    seen += 1;
    const method = incoming.method ?? 'GET';
    const entry: ProxiedRequest = { n: seen, method, path: incoming.url ?? '/', forwarded: false };
    log.push(entry);
    proxy.onRequest?.(entry);
    const body = await readBody(incoming);
    if (method === 'POST') posts += 1;
    const json = { 'content-type': 'application/json' };

    if (faults.throttleEvery !== undefined && seen % faults.throttleEvery === 0) {
      entry.fault = '429';
      entry.status = 429;
      const answer = problem('RATE_LIMITED', 'the proxy says: too many requests');
      return reply(response, 429, { ...json, 'retry-after': '1' }, answer);
    }
    const failHere = !failed && method === 'POST' && faults.failPost?.at === posts;
    if (failHere && faults.failPost?.mode === 'before') {
      failed = true;
      entry.fault = '503 before';
      entry.status = 503;
      return reply(response, 503, json, problem('UNAVAILABLE', 'the proxy says: unavailable'));
    }
    const drop = faults.ignoreIdempotencyKeys ? ['idempotency-key'] : [];
    const answer = await forward(incoming, body, drop);
    entry.forwarded = true;
    if (failHere) {
      failed = true;
      entry.fault = '503 after';
      entry.status = 503;
      return reply(response, 503, json, problem('UNAVAILABLE', 'the proxy says: answer lost'));
    }
    const headers = forwardable(
      answer.headers,
      faults.ignoreIdempotencyKeys ? ['idempotency-key-honoured'] : [],
    );
    entry.status = answer.status;
    reply(response, answer.status, headers, answer.body);
  };

  const server: Server = createServer((incoming, response) => {
    inFlight += 1;
    // A client killed mid-body never ends its request: its end, or its going, settles it.
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight -= 1;
      if (inFlight === 0) for (const resolve of waiting.splice(0)) resolve();
    };
    handle(incoming, response)
      .catch((error: unknown) => {
        reply(response, 502, { 'content-type': 'text/plain' }, Buffer.from(String(error)));
      })
      .finally(finish);
    incoming.on('close', () => {
      if (!incoming.complete) finish();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const proxy: FaultProxy = {
    origin,
    log,
    onRequest: undefined,
    counts: () => {
      const counts: Record<string, number> = {};
      for (const entry of log) counts[entry.method] = (counts[entry.method] ?? 0) + 1;
      return counts;
    },
    writes: () => log.filter((entry) => entry.method !== 'GET' && entry.method !== 'HEAD'),
    settled: () =>
      inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve)),
    clear: () => {
      log.splice(0);
    },
    configure: (next) => {
      faults = { ...next };
      posts = 0;
      failed = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

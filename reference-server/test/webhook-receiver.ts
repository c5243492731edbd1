/**
 * A webhook receiver on loopback for the delivery tests: a real `node:http` server on a
 * free port that records every POST and answers as the test says, and ways to wait for a
 * condition (never a fixed sleep): on the receiver's own events, or by polling what
 * cannot be awaited. Their deadlines are bounds on a hang, under the tests' 60 s.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from 'adis-sdk/server-kit';

/**
 * How long a wait may take before it is a hang: well over anything a loaded machine
 * needs, under the tests' 60 s timeout so that the failure names what was awaited.
 */
export const HANG_MS = 45_000;

/** One request as the receiver got it. */
export interface ReceivedPost {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status the receiver answered. */
  status: number;
}

/** How the receiver answers the `n`-th request (0-based): a status, or a promise of one (to hold it). */
export type Answer = (request: { n: number; body: string }) => number | Promise<number>;

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  port: number;
  /** Every request, in arrival order (answered or not yet). */
  received: ReceivedPost[];
  /** Replaces how later requests are answered. */
  answer(with_: Answer): void;
  /**
   * Resolves once `condition()` holds, checked at once and again as each request arrives
   * and as each is answered; rejects naming `what` after `deadlineMs`.
   */
  until(condition: () => boolean, what: string, deadlineMs?: number): Promise<void>;
  close(): Promise<void>;
  server: Server;
}

/** Starts a receiver on 127.0.0.1 (port 0 unless given), answering 200 unless told otherwise. */
export async function startReceiver(port = 0): Promise<Receiver> {
  let answer: Answer = () => 200;
  const received: ReceivedPost[] = [];
  // Called at every arrival and every answer: the waits of `until`.
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watcher of [...watchers]) watcher();
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const post: ReceivedPost = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
        status: 0,
      };
      received.push(post);
      changed();
      void Promise.resolve(answer({ n: received.length - 1, body })).then((status) => {
        post.status = status;
        response.writeHead(status, { 'Content-Type': 'text/plain' }).end(`status ${status}`);
        changed();
      });
    });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hook`,
    port: actual,
    received,
    answer(with_) {
      answer = with_;
    },
    until(condition, what, deadlineMs = HANG_MS) {
      if (condition()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`no ${what} within ${deadlineMs} ms`));
        }, deadlineMs);
        const watch = () => {
          if (!condition()) return;
          clearTimeout(timer);
          watchers.delete(watch);
          resolve();
        };
        watchers.add(watch);
      });
    },
    server,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Waits until `condition()` holds, checking every 20 ms; fails after `deadlineMs`. Only
 * for what cannot be awaited (a database's rows, another process's output).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  deadlineMs = HANG_MS,
): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** The events of a delivery body, each element as sent. */
// biome-ignore lint/suspicious/noExplicitAny: tests read deep JSON freely
export type DeliveredElement = Record<string, any> & { idempotency_key: string };

/** Parses a delivery body (a JSON array). */
export function elementsOf(post: ReceivedPost): DeliveredElement[] {
  return JSON.parse(post.body) as DeliveredElement[];
}

/** The signature check of a received POST under `secret`, at `nowSeconds` (default: the clock). */
export function signatureCheck(
  post: ReceivedPost,
  secret: string,
  nowSeconds?: number,
): Promise<string> {
  const header = post.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()];
  return checkWebhookSignature(
    typeof header === 'string' ? header : undefined,
    post.body,
    secret,
    nowSeconds === undefined ? {} : { nowSeconds },
  );
}

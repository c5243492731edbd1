/**
 * A webhook receiver for both kinds of sender, on Node's own `http` server:
 *
 * - Action Network, which signs nothing: its URL carries a secret path segment
 *   (`/hooks/action-network/<ACTION_NETWORK_PATH_SECRET>`), and only HTTPS reaches it;
 * - the reference server (or any server that signs with `ADIS-Webhook-Signature`), whose
 *   subscription secret is ADIS_WEBHOOK_SECRET.
 *
 *   ACTION_NETWORK_PATH_SECRET=… ADIS_WEBHOOK_SECRET=… npx tsx examples/webhook-receiver.ts
 *
 * It listens on 127.0.0.1:3000, this machine only; `HOST=0.0.0.0` (every interface, for
 * a sender on another machine, such as Action Network through your HTTPS proxy) and
 * `PORT` choose. It prints the address it really listens on.
 *
 * docs/webhooks.md explains each choice. The same handlers run as Fetch handlers (Hono,
 * Workers, Deno, Bun, Next): see `app` below.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type SeenStore,
  toNodeListener,
  type WebhookEventHandlers,
  webhookHandler,
} from 'adis-sdk/webhooks';
import { Hono } from 'hono';

/** What this receiver does with the events: here, print them. */
const on: WebhookEventHandlers = {
  async signature(event) {
    console.log(
      `${event.person?.given_name} signed ${event.links.petition}`,
      event.record.comments,
    );
  },
  async donation(event) {
    console.log(`${event.person?.email_addresses?.[0]?.address} gave ${event.record.amount}`);
  },
  async signup(event) {
    console.log(`new person ${event.links.self}`, event.addTags);
  },
  unknown(event) {
    console.warn(`no handler for ${event.name}`);
  },
};

// Action Network: no signature to check, so the URL itself is the secret.
const actionNetwork = webhookHandler({ on });

/**
 * The secret when ADIS_WEBHOOK_SECRET is not set: for trying the receiver on your own
 * machine only (docs/webhooks.md, "Try it"). The reference server takes secrets of at
 * least 16 characters; this one is the webhooks file's of that walk-through.
 */
export const DEV_SECRET = 'dev-webhook-secret';

// The reference server signs each delivery with the subscription's secret.
const adis = webhookHandler({ on, secret: process.env.ADIS_WEBHOOK_SECRET ?? DEV_SECRET });

const pathSecret = process.env.ACTION_NETWORK_PATH_SECRET ?? 'change-me';
const routes: Record<string, ReturnType<typeof toNodeListener>> = {
  [`/hooks/action-network/${pathSecret}`]: toNodeListener(actionNetwork),
  '/hooks/adis': toNodeListener(adis),
};

/** Node's http server: one listener per path, 404 elsewhere. */
export const server = createServer((request, response) => {
  const listener = routes[new URL(request.url ?? '/', 'http://receiver').pathname];
  if (listener) return void listener(request, response);
  response.statusCode = 404;
  response.end();
});

/** The same receivers as a Hono app (Workers, Deno, Bun, Node with @hono/node-server). */
export const app = new Hono()
  .post(`/hooks/action-network/${pathSecret}`, (c) => actionNetwork(c.req.raw))
  .post('/hooks/adis', (c) => adis(c.req.raw));

/** A seen store on Redis (any client with `exists` and `set … NX EX`). */
export function redisSeenStore(redis: {
  exists(key: string): Promise<number>;
  set(key: string, value: string, options: { NX: true; EX: number }): Promise<unknown>;
}): SeenStore {
  return {
    has: async (key) => (await redis.exists(`webhook:${key}`)) === 1,
    add: async (key) => {
      await redis.set(`webhook:${key}`, '1', { NX: true, EX: 24 * 60 * 60 });
    },
  };
}

/** A seen store on SQL: `create table webhook_seen (key text primary key, at timestamp)`. */
export function sqlSeenStore(db: {
  query(sql: string, values: unknown[]): Promise<{ rowCount: number }>;
}): SeenStore {
  return {
    has: async (key) =>
      (await db.query('select 1 from webhook_seen where key = $1', [key])).rowCount > 0,
    add: async (key) => {
      await db.query(
        'insert into webhook_seen (key, at) values ($1, now()) on conflict (key) do nothing',
        [key],
      );
    },
  };
}

/**
 * Where the receiver listens: `HOST` (default 127.0.0.1, this machine only; `0.0.0.0` or
 * `::` for every interface, as a sender elsewhere needs) and `PORT` (default 3000, `0`
 * for any free one).
 */
export function listenAddress(env: NodeJS.ProcessEnv): { host: string; port: number } {
  return { host: env.HOST || '127.0.0.1', port: Number(env.PORT ?? 3000) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { host, port } = listenAddress(process.env);
  server.listen(port, host, () => {
    // The address really bound (the port chosen when PORT=0), IPv6 in brackets.
    const bound = server.address() as AddressInfo;
    const address = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
    console.log(`receiving webhooks on http://${address}:${bound.port}/hooks/…`);
  });
}

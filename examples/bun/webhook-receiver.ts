/**
 * On Bun: a webhook receiver for a server that signs its deliveries (the reference
 * server, with the subscription's secret). `webhookHandler` is a standard Fetch handler,
 * so `Bun.serve` takes it as is; ../shared/webhook-routes.ts routes `/webhooks` to it.
 *
 *   ADIS_WEBHOOK_SECRET=… PORT=8787 bun run examples/bun/webhook-receiver.ts
 *
 * It listens on this machine only (127.0.0.1); `HOST=0.0.0.0` (or an address of this
 * host) lets a server elsewhere reach it. Then subscribe `http://<that address>:8787/webhooks`
 * with the same secret.
 */
import { webhookRoutes } from '../shared/webhook-routes.js';

const secret = Bun.env.ADIS_WEBHOOK_SECRET;
if (!secret) {
  console.error('Set ADIS_WEBHOOK_SECRET: the secret of your webhook subscription.');
  process.exit(2);
}

const hostname = Bun.env.HOST ?? '127.0.0.1';
const server = Bun.serve({
  hostname,
  // PORT=0 takes any free port: the line below says which.
  port: Number(Bun.env.PORT ?? 8787),
  fetch: webhookRoutes(secret),
});
console.log(`Receiving webhooks on http://${hostname}:${server.port}/webhooks`);

/**
 * On Bun: a webhook receiver for a server that signs its deliveries (the reference
 * server, with the subscription's secret). `webhookHandler` is a standard Fetch handler,
 * so `Bun.serve` takes it as is; here it is routed to `/webhooks`.
 *
 *   ADIS_WEBHOOK_SECRET=… PORT=8787 bun run examples/bun/webhook-receiver.ts
 *
 * Then subscribe `http://<this host>:8787/webhooks` with the same secret.
 */
import { webhookHandler } from 'adis-sdk/webhooks';

const secret = Bun.env.ADIS_WEBHOOK_SECRET;
if (!secret) {
  console.error('Set ADIS_WEBHOOK_SECRET: the secret of your webhook subscription.');
  process.exit(2);
}

const webhooks = webhookHandler({
  // A delivery without a valid ADIS-Webhook-Signature gets 401, and runs nothing.
  secret,
  on: {
    signature(event) {
      console.log(`signature: ${event.person?.given_name} signed ${event.links.petition}`);
    },
    signup(event) {
      console.log(`signup: ${event.links.self}`);
    },
  },
});

const server = Bun.serve({
  // PORT=0 takes any free port: the line below says which.
  port: Number(Bun.env.PORT ?? 8787),
  fetch(request) {
    if (new URL(request.url).pathname === '/webhooks') return webhooks(request);
    return new Response('Not found', { status: 404 });
  },
});
console.log(`Receiving webhooks on http://localhost:${server.port}/webhooks`);

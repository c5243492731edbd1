/**
 * On Deno: a webhook receiver for a server that signs its deliveries (the reference
 * server, with the subscription's secret). `webhookHandler` is a standard Fetch handler,
 * so `Deno.serve` takes it as is; ../shared/webhook-routes.ts routes `/webhooks` to it.
 *
 *   ADIS_WEBHOOK_SECRET=… PORT=8787 deno task receive
 *
 * (`deno task receive` is `deno run --allow-net --allow-env=ADIS_WEBHOOK_SECRET,PORT,HOST
 * webhook-receiver.ts`.) It listens on this machine only (127.0.0.1); `HOST=0.0.0.0`
 * (or an address of this host) lets a server elsewhere reach it. Then subscribe
 * `http://<that address>:8787/webhooks` with the same secret.
 */
import { webhookRoutes } from '../shared/webhook-routes.ts';

const secret = Deno.env.get('ADIS_WEBHOOK_SECRET');
if (!secret) {
  console.error('Set ADIS_WEBHOOK_SECRET: the secret of your webhook subscription.');
  Deno.exit(2);
}

const hostname = Deno.env.get('HOST') ?? '127.0.0.1';
Deno.serve(
  {
    hostname,
    // PORT=0 takes any free port: the line below says which.
    port: Number(Deno.env.get('PORT') ?? 8787),
    onListen: ({ port }) =>
      console.log(`Receiving webhooks on http://${hostname}:${port}/webhooks`),
  },
  webhookRoutes(secret),
);

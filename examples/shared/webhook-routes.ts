/**
 * The Bun and Deno examples' webhook receiver, a standard Fetch handler that both
 * servers (`Bun.serve`, `Deno.serve`) take as it is: `POST /webhooks` goes to the SDK's
 * `webhookHandler`, anything else is a 404.
 */
import { webhookHandler } from 'adis-sdk/webhooks';

/**
 * A Fetch handler receiving deliveries signed with `secret` at `/webhooks`, printing
 * each signature and signup.
 *
 * @example
 * ```ts
 * Deno.serve({ port: 8787 }, webhookRoutes(secret));
 * ```
 */
export function webhookRoutes(secret: string): (request: Request) => Promise<Response> {
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
  return async (request) => {
    if (new URL(request.url).pathname === '/webhooks') return webhooks(request);
    return new Response('Not found', { status: 404 });
  };
}

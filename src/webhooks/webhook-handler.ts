import { isWebhookPayloadError } from '../errors/type-guards.js';
import {
  checkWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookSignatureCheck,
} from '../wire/webhook-signature.js';
import { DEFAULT_WEBHOOK_MAX_BODY_BYTES, readBoundedBody } from './bounded-body.js';
import type {
  KnownWebhookEvent,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventType,
} from './event.js';
import { parseWebhook, type WebhookValidators } from './parse-webhook.js';
import { memorySeenStore, type SeenStore } from './seen-store.js';

/**
 * The functions a receiver runs, by event type, plus `unknown` for elements of a type
 * the SDK does not name and `event` for every event (after its type's function). Each
 * may be async; the delivery is answered once they have all finished. An event with no
 * function to run is acknowledged and skipped.
 *
 * @example
 * ```ts
 * import type { WebhookEventHandlers } from 'adis-sdk/webhooks';
 *
 * const signatures: unknown[] = [];
 * const on: WebhookEventHandlers = {
 *   signature(event) { signatures.push(event.record); },
 *   event(event) { console.log(event.type, event.idempotencyKey); },
 * };
 * ```
 */
export type WebhookEventHandlers = {
  readonly [T in WebhookEventType]?: (event: KnownWebhookEvent<T>) => unknown;
} & {
  /** Runs for an element whose type the SDK does not name. */
  readonly unknown?: (event: UnknownWebhookEvent) => unknown;
  /** Runs for every event, after the function of its type. */
  readonly event?: (event: WebhookEvent) => unknown;
};

/** What {@link webhookHandler} takes. */
export interface WebhookHandlerOptions {
  /** What to run for each event. */
  readonly on: WebhookEventHandlers;
  /**
   * The subscription's signing secret: when given, a delivery without a valid
   * `ADIS-Webhook-Signature` is refused with 401. Several while a secret is rotated (a
   * signature by any of them holds). Action Network signs nothing: leave it out there
   * and keep the URL secret instead (docs/webhooks.md).
   */
  readonly secret?: string | readonly string[] | undefined;
  /**
   * Where handled events' idempotency keys are remembered, so that a delivery sent
   * again skips them: in memory by default ({@link memorySeenStore}: 10 000 keys, 24
   * hours); `false` to run every event of every delivery.
   */
  readonly seen?: SeenStore | false | undefined;
  /** How old a signature may be, in seconds. Default 300 (five minutes). */
  readonly toleranceSeconds?: number | undefined;
  /** The clock, in milliseconds since the epoch (tests pass their own). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** Most bytes a delivery may have; a larger one gets 413. Default 4 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Kinds to validate records with, by type (see `parseWebhook`); a mismatch gets 400. */
  readonly validate?: WebhookValidators | undefined;
  /**
   * Told when a function of `on` (or the seen store) throws, before the 500 answer;
   * the error is not sent back to the sender. Default: `console.error`.
   */
  readonly onError?: ((error: unknown, event: WebhookEvent) => void) | undefined;
}

/**
 * A webhook receiver as a standard Fetch handler: give it the request, send back the
 * response it returns. `maxBodyBytes` is its cap, which {@link toNodeListener} applies
 * while reading from Node.
 */
export interface WebhookHandler {
  /**
   * Handles one delivery.
   *
   * @param request - The POSTed request, its body unread.
   * @returns The answer for the sender: 200 once every event ran (or was skipped).
   */
  (request: Request): Promise<Response>;
  /** The most bytes a delivery may have. */
  readonly maxBodyBytes: number;
}

function json(status: number, body: Record<string, unknown>, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set('content-type', 'application/json');
  return response;
}

/** The check of the first secret that holds, or the most telling refusal. */
async function checkAny(
  header: string | null,
  body: string,
  secrets: readonly string[],
  nowSeconds: number,
  toleranceSeconds: number | undefined,
): Promise<WebhookSignatureCheck> {
  let refusal: WebhookSignatureCheck = 'mismatch';
  for (const secret of secrets) {
    const check = await checkWebhookSignature(header, body, secret, {
      nowSeconds,
      ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
    });
    if (check === 'ok') return 'ok';
    refusal = check;
  }
  return refusal;
}

const SIGNATURE_REFUSALS: Record<Exclude<WebhookSignatureCheck, 'ok'>, string> = {
  missing: `no ${WEBHOOK_SIGNATURE_HEADER} header`,
  malformed: `the ${WEBHOOK_SIGNATURE_HEADER} header is not t=<seconds>,v1=<hex>`,
  expired: 'the signature is too old (or from the future): a replay, or a clock that is off',
  mismatch: 'no signature matches this body under the secret',
};

/**
 * A webhook receiver: a standard Fetch handler (`(request) => Promise<Response>`) that
 * Hono, Cloudflare Workers, Deno, Bun and Next route handlers take as is, and Node's
 * `http` or Express through {@link toNodeListener}. For each delivery it:
 *
 * - answers 405 to anything but POST, 413 to a body over `maxBodyBytes`;
 * - with a `secret`, checks the `ADIS-Webhook-Signature` header over the raw body, and
 *   answers 401 when it is missing, forged or older than `toleranceSeconds`;
 * - parses the body ({@link parseWebhook}) and answers 400 when it is malformed;
 * - runs the functions of `on` for each event, in order, skipping events whose
 *   idempotency key the `seen` store holds, and remembering each key once its event's
 *   functions have succeeded;
 * - answers 200 once all have run, or 500 as soon as one throws: the sender retries,
 *   and the retry runs that event (and the ones after it) again.
 *
 * Answers are small JSON documents (`{ "received": 3, "handled": 2, "duplicates": 1 }`,
 * `{ "error": "WEBHOOK_PAYLOAD", "message": "…" }`).
 *
 * @example
 * ```ts
 * import { webhookHandler } from 'adis-sdk/webhooks';
 *
 * const handler = webhookHandler({
 *   secret: process.env.WEBHOOK_SECRET,
 *   on: {
 *     signature(event) { console.log('signed:', event.person?.given_name, event.record.comments); },
 *     donation(event) { console.log('gave:', event.person?.given_name, event.record.amount); },
 *   },
 * });
 * export default { fetch: handler }; // Cloudflare Workers; Bun.serve({ fetch: handler }); Deno.serve(handler)
 * ```
 */
export function webhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES;
  const secrets =
    options.secret === undefined
      ? []
      : typeof options.secret === 'string'
        ? [options.secret]
        : [...options.secret];
  const seen = options.seen === false ? undefined : (options.seen ?? memorySeenStore());
  const now = options.now ?? Date.now;
  const onError =
    options.onError ??
    ((error: unknown, event: WebhookEvent) =>
      console.error(`webhook handler for ${event.name} (element ${event.index}) threw`, error));
  const on = options.on as Readonly<Record<string, ((event: WebhookEvent) => unknown) | undefined>>;

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') {
      await request.body?.cancel().catch(() => undefined);
      return json(
        405,
        { error: 'METHOD_NOT_ALLOWED', message: 'webhooks are POSTed' },
        { allow: 'POST' },
      );
    }
    const bytes = await readBoundedBody(request, maxBodyBytes);
    if (bytes === undefined) {
      return json(413, {
        error: 'BODY_TOO_LARGE',
        message: `the body is over ${maxBodyBytes} bytes`,
        maxBodyBytes,
      });
    }
    const text = new TextDecoder().decode(bytes);
    if (secrets.length > 0) {
      const check = await checkAny(
        request.headers.get(WEBHOOK_SIGNATURE_HEADER),
        text,
        secrets,
        Math.floor(now() / 1000),
        options.toleranceSeconds,
      );
      if (check !== 'ok') {
        return json(401, {
          error: 'WEBHOOK_SIGNATURE',
          reason: check,
          message: SIGNATURE_REFUSALS[check],
        });
      }
    }
    let events: WebhookEvent[];
    try {
      events = parseWebhook(text, { validate: options.validate });
    } catch (error) {
      if (!isWebhookPayloadError(error)) throw error;
      return json(400, {
        error: error.code,
        problem: error.problem,
        ...(error.index === undefined ? {} : { index: error.index }),
        message: error.message,
      });
    }
    let handled = 0;
    let duplicates = 0;
    for (const event of events) {
      const key = event.idempotencyKey;
      try {
        if (key !== undefined && seen !== undefined && (await seen.has(key))) {
          duplicates += 1;
          continue;
        }
        await on[event.type]?.(event);
        await on.event?.(event);
        if (key !== undefined && seen !== undefined) await seen.add(key);
      } catch (error) {
        onError(error, event);
        return json(500, {
          error: 'HANDLER_FAILED',
          message: `the handler of element ${event.index} (${event.name}) failed; send it again`,
          index: event.index,
        });
      }
      handled += 1;
    }
    return json(200, { received: events.length, handled, duplicates });
  };
  return Object.assign(handle, { maxBodyBytes });
}

/**
 * `adis-sdk/webhooks`: receive the events a server POSTs (Action Network's webhooks, the
 * reference server's signed deliveries). {@link parseWebhook} reads a delivery into typed
 * events; {@link webhookHandler} is a whole receiver (signature check, dedupe by
 * idempotency key, the right status for the sender's retries) as a standard Fetch
 * handler, with {@link toNodeListener} for Node's `http` and Express. Light: no zod, ky
 * or navigator at run time; validation of records is opt-in, with kinds from
 * `adis-sdk/schema`. The guide: docs/webhooks.md.
 *
 * @example
 * ```ts
 * import { webhookHandler } from 'adis-sdk/webhooks';
 *
 * export const POST = webhookHandler({
 *   secret: process.env.ADIS_WEBHOOK_SECRET,
 *   on: { signature: (event) => console.log(event.person?.email_addresses, event.links.petition) },
 * });
 * ```
 *
 * @packageDocumentation
 * @module adis-sdk/webhooks
 */
// Each import names its file (never a folder's index): errors/index.ts loads zod.
export { AdisError, type AdisErrorCode } from '../errors/adis-error.js';
export { isWebhookPayloadError } from '../errors/type-guards.js';
export {
  WebhookPayloadError,
  type WebhookPayloadErrorInit,
  type WebhookPayloadProblem,
} from '../errors/webhook-payload-error.js';
export {
  checkWebhookSignature,
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  signWebhookBody,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookSignatureCheck,
} from '../wire/webhook-signature.js';
export { DEFAULT_WEBHOOK_MAX_BODY_BYTES } from './bounded-body.js';
export type {
  KnownWebhookEvent,
  UnknownWebhookEvent,
  WebhookEvent,
  WebhookEventBase,
  WebhookEventType,
  WebhookGenericRecord,
  WebhookLinks,
  WebhookRecordMembers,
  WebhookRecords,
} from './event.js';
export { WEBHOOK_EVENT_TYPES } from './event.js';
export {
  type NodeWebhookListener,
  type NodeWebhookRequest,
  type NodeWebhookResponse,
  toNodeListener,
} from './node-listener.js';
export {
  type ParseWebhookOptions,
  parseWebhook,
  type WebhookRecordValidator,
  type WebhookValidators,
} from './parse-webhook.js';
export {
  DEFAULT_SEEN_KEYS,
  DEFAULT_SEEN_TTL_MS,
  type MemorySeenStoreOptions,
  memorySeenStore,
  type SeenStore,
} from './seen-store.js';
export {
  type WebhookEventHandlers,
  type WebhookHandler,
  type WebhookHandlerOptions,
  webhookHandler,
} from './webhook-handler.js';

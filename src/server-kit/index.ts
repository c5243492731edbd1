/**
 * `adis-sdk/server-kit`: what a server needs of the SDK and a client does not. The
 * reference server (`adis-server`) is built on it, and so can another implementation:
 * the strict helper bodies a server accepts (formats checked, vocabularies closed), the
 * rules across a record's members, the wire facts both sides must agree on (the key
 * header's name, the background processing parameter's, how a collection's relation is
 * spelt, the webhook signature), and the declarations of Action Network's own kinds,
 * which a server standing in for Action Network serves.
 *
 * A client never needs this entry: `adis-sdk` and `adis-sdk/schema` have what it
 * sends and reads. Everything here is pure (zod and the Web Crypto API at most), and
 * runs wherever the SDK runs.
 *
 * @example
 * ```ts
 * import { strictHelperBodies } from 'adis-sdk/server-kit';
 *
 * const bodies = strictHelperBodies();
 * async function recordSignature(request: Request): Promise<Response> {
 *   const result = bodies.recordSignature.safeParse(await request.json());
 *   if (!result.success) return new Response(JSON.stringify(result.error.issues), { status: 400 });
 *   return new Response(null, { status: 201 });
 * }
 * ```
 *
 * @packageDocumentation
 * @module adis-sdk/server-kit
 */
// Each import names its file, as the other light entries do: a server bundles only what
// it uses.
export {
  ACTION_NETWORK_KINDS,
  campaignKind,
  customFieldKind,
  EMBED_RELATION,
  embedKind,
  eventCampaignKind,
  uniqueIdListKind,
} from '../presets/action-network/index.js';
export { isServerMode } from '../schema/fields.js';
export { extendedHelperBodies, strictHelperBodies } from '../schema/helper-bodies.js';
export { type EventRuleInput, eventRuleIssues } from '../schema/kinds/event.js';
export { type QuestionRuleInput, questionRuleIssues } from '../schema/kinds/question.js';
export { DEFAULT_API_KEY_HEADER } from '../wire/api-key-header.js';
export { DEFAULT_BACKGROUND_PARAMETER } from '../wire/background-parameter.js';
export { collectionRelation } from '../wire/collection-relation.js';
export { httpUrlOrUndefined, isHttpUrl } from '../wire/http-url.js';
export { isJsonObject } from '../wire/json-object.js';
export {
  checkWebhookSignature,
  signWebhookBody,
  WEBHOOK_SIGNATURE_HEADER,
} from '../wire/webhook-signature.js';

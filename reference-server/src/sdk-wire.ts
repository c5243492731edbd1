/**
 * The SDK's wire facts (`src/wire/` of adis-sdk): what a JSON object is, which URLs are
 * http(s), the key header's default name. The server and the SDK agree on them by
 * sharing them. They are not part of `adis-sdk/schema`, so they are read from the SDK's
 * source by path, as `presets/action-network/declarations.ts` reads the preset's kinds:
 * tsup bundles them into the server like the schema layer. They import nothing.
 */
export { DEFAULT_API_KEY_HEADER } from '../../src/wire/api-key-header.js';
export { collectionRelation } from '../../src/wire/collection-relation.js';
export { httpUrlOrUndefined, isHttpUrl } from '../../src/wire/http-url.js';
export { isJsonObject } from '../../src/wire/json-object.js';
export {
  checkWebhookSignature,
  signWebhookBody,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/wire/webhook-signature.js';

import { ACTION_NETWORK_KINDS } from './action-network/index.js';
import type { ServerPreset } from './server-preset.js';

/**
 * Action Network's OSDI API (`https://actionnetwork.org/api/v2/`): the key goes in
 * `OSDI-API-Token`, relations are named `osdi:…`, and the server allows 4 requests a
 * second per key, answering 429 beyond that. It documents no `Idempotency-Key`, so POSTs
 * (creates, helper calls) are sent without one, and retried after a 429 only (which
 * applied nothing), never after a 5xx, a timeout or a reset. Its own kinds
 * (`ACTION_NETWORK_KINDS`: event campaigns, campaigns, unique ID lists, custom fields,
 * embeds) come with it, so that the client has `client.eventCampaigns`,
 * `client.campaigns`, `client.uniqueIdLists` and `metadata.customFields()`.
 *
 * Why 3.5 requests a second and not 4: the client spaces the moments it sends, but the
 * server counts the moments requests arrive, and the time in between varies. Measured
 * against a server that refuses a fifth request within any second, on one machine: the
 * first request of a new connection arrives about 10 ms later than the ones after it,
 * and a busy event loop adds up to 40 ms more; over the internet a new TLS connection
 * adds round trips on top. At 4 a second the fifth request leaves exactly 1,000 ms after
 * the first, so any such difference puts five arrivals in one second: a 429 and a
 * wait. At 3.5 a second five requests span 4 × 285.7 = 1,143 ms, which absorbs 143 ms of
 * difference, for 12.5 % fewer requests a second. A 429 that still comes is waited out
 * as the server asks (`Retry-After`) and retried, for reads and writes alike.
 *
 * @example
 * ```ts
 * import { actionNetwork, connect } from 'adis-sdk';
 *
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...actionNetwork,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * console.log(client.version); // '1.0', from the entry point's osdi_version
 * for await (const person of client.people.items({ limit: 10 })) console.log(person.data.given_name);
 * for await (const campaign of client.eventCampaigns) console.log(campaign.data.title);
 * ```
 */
export const actionNetwork = {
  apiKeyHeader: 'OSDI-API-Token',
  curiePrefix: 'osdi',
  rateLimit: 3.5,
  // Its own collections and documents beside the specification's (client.eventCampaigns…).
  kinds: ACTION_NETWORK_KINDS,
  // No backgroundParameter: the SDK's default, background_request, is Action Network's own
  // spelling (docs/v2/, "Background Processing and Queueing"), answered 200 OK {}.
  // Action Network documents no Idempotency-Key: never 'honoured', so a POST it would not
  // recognise when sent again is not retried after a lost answer (a signature recorded
  // twice). No key is sent at all, as before keys existed.
  idempotencyKeys: false,
} as const satisfies ServerPreset;

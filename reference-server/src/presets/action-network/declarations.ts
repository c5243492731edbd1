/**
 * The SDK's declarations of Action Network's own kinds (`adis-sdk`'s
 * `src/presets/action-network/`), which the server's kinds under the preset are built
 * from, so that the client and the server agree on their members and relations.
 *
 * They are not part of `adis-sdk/schema` (the specification's kinds), so they are read
 * from the SDK's source by path, as `adis-sdk/schema` is (see tsconfig.json's `paths`):
 * tsup bundles them into the server like the schema layer.
 */
export {
  ACTION_NETWORK_KINDS,
  campaignKind,
  customFieldKind,
  EMBED_RELATION,
  embedKind,
  eventCampaignKind,
  uniqueIdListKind,
} from '../../../../src/presets/action-network/index.js';

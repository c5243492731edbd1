import type { ResourceKind } from '../domain/kinds.js';
import type { ServingPreset } from './serving-preset.js';

/** The relation (without curie) and path below the record of a record's embed codes. */
export const EMBED_PATH = 'embed';

/**
 * The kind with a link from each record to its embed codes (`<record URL>/embed`, as
 * `Urls.rel('embed')` names it: Action Network's `action_network:embed`), when the
 * preset serves embeds for it; the same object otherwise. The link is a record helper
 * link without a helper definition: it renders like one, and the embed route answers it.
 *
 * @example
 * ```ts
 * import { petitionKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, serveKind } from 'adis-server';
 * import { withEmbedLinks } from './embed-links.js';
 *
 * withEmbedLinks(serveKind(petitionKind), ACTION_NETWORK_PRESET).helpers?.some((h) => h.rel === 'embed'); // true
 * ```
 */
export function withEmbedLinks(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  const embeds = preset.embeds;
  if (!embeds?.kinds.includes(kind.plural)) return kind;
  return {
    ...kind,
    helpers: [
      ...(kind.helpers ?? []),
      { rel: EMBED_PATH, path: EMBED_PATH, title: embeds.title, anonymous: false },
    ],
  };
}

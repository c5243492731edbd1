/**
 * Action Network's API v2 as its public documentation describes it
 * (`actionnetwork.org/docs/v2/…`), as a preset of the reference server: `--preset
 * action-network`. Where the documentation is silent, the choice made is written in
 * `docs/servers-in-the-wild.md` ("The reference server as Action Network").
 */
import { ACTION_NETWORK_BACKGROUND } from './action-network/background.js';
import { CUSTOM_FIELDS_METADATA } from './action-network/custom-fields.js';
import { ACTION_NETWORK_EMBEDS } from './action-network/embed.js';
import {
  ACTION_NETWORK_KIND_CHANGES,
  ACTION_NETWORK_SERVER_KINDS,
} from './action-network/kinds.js';
import { seedActionNetwork } from './action-network/seed.js';
import { ACTION_NETWORK_SIGNUP_STATUSES } from './action-network/signup-statuses.js';
import type { ServingPreset } from './serving-preset.js';

/**
 * The Action Network preset: entry point at `/api/v2/`, relations under `osdi` beside
 * the `action_network` curie, key in `OSDI-API-Token`, 4 calls a second per key, pages
 * of 25 (`page`/`per_page`), people and list item pages without totals, identifiers
 * `action_network:<id>`, records at their nested addresses too (actions, taggings and
 * items at theirs only: their self links), native ids of what actions link to
 * (`action_network:person_id`, …), lists and items read only, DELETE answered with a
 * notice, POST to people as the upsert, background processing of some but not
 * every write, money as decimal strings, date-times in UTC to the second, Action
 * Network's own collections and its vocabulary.
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_PRESET, createApp, openStorage } from 'adis-server';
 * const app = createApp({ storage: openStorage(':memory:'), preset: ACTION_NETWORK_PRESET });
 * ```
 */
export const ACTION_NETWORK_PRESET: ServingPreset = {
  name: 'action-network',
  apiPrefix: '/api/v2',
  apiKeyHeader: 'OSDI-API-Token',
  curiePrefix: 'osdi',
  extraCuries: ['action_network'],
  keyRateLimit: 4,
  maxPageSize: 25,
  specVersion: '1.1.1',
  motd: 'Welcome to the Action Network OSDI API v2 Entry Point! (ADIS reference server, action-network preset)',
  vendorName: 'Action Network',
  productName: 'Action Network',
  maxPageSizeMember: 'max_page_size',
  relationNames: {
    event_campaigns: 'action_network:event_campaigns',
    campaigns: 'action_network:campaigns',
    unique_id_lists: 'action_network:unique_id_lists',
    custom_fields: 'action_network:custom_fields',
    embed: 'action_network:embed',
    event_campaign: 'action_network:event_campaign',
  },
  namespace: 'action_network',
  collectionsWithoutTotals: ['people', 'items'],
  nestedAddresses: true,
  recordsUnderParents: {
    signature: 'petition',
    attendance: 'event',
    submission: 'form',
    donation: 'fundraising_page',
    outreach: 'advocacy_campaign',
    tagging: 'tag',
    item: 'list',
  },
  nativeIdMembers: {
    prefix: 'action_network',
    relations: [
      'person',
      'petition',
      'event',
      'form',
      'fundraising_page',
      'advocacy_campaign',
      'tag',
      'list',
    ],
  },
  readOnlyKinds: ['lists', 'items'],
  deleteNotice: 'This {kind} was successfully deleted.',
  personSignupPath: 'people',
  recordHelpersAtSubCollections: true,
  // Only what docs/v2/ lists under "Background Processing and Queueing", answered 200 {}.
  background: ACTION_NETWORK_BACKGROUND,
  vocabulary: 'extended',
  signupStatuses: ACTION_NETWORK_SIGNUP_STATUSES,
  money: 'decimal-string',
  dateTimes: 'utc-seconds',
  kinds: ACTION_NETWORK_SERVER_KINDS,
  metadata: [CUSTOM_FIELDS_METADATA],
  kindChanges: ACTION_NETWORK_KIND_CHANGES,
  embeds: ACTION_NETWORK_EMBEDS,
  seed: seedActionNetwork,
  // Action Network has no signup payload of its own: new subscribers come as its catch-all.
  webhookTypeKeys: { signup: 'action_network:action' },
};

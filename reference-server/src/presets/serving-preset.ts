/**
 * A server preset: what makes the reference server answer as a real server documents
 * itself, as data layered on the same core (the routes, storage and domain rules are
 * the plain server's; the preset only sets what they read). A preset for another real
 * server is one more constant of this type (see `action-network.ts`).
 */
import type { DateTimeStyle } from '../domain/date-times.js';
import type { SignupStatuses } from '../domain/helpers/signup-statuses.js';
import type { KindRegistry, ResourceKind } from '../domain/kinds.js';
import type { Vocabulary } from '../domain/vocabulary.js';
import type { Storage, StoredRecord, Tenant } from '../storage/storage.js';
import type { BackgroundProcessing } from './background-processing.js';

export type { DateTimeStyle, Vocabulary };

/** A metadata document a preset adds beside the canvass lists (`custom_fields`). */
export interface PresetMetadataList {
  /** Path segment below the metadata root and relation name (`custom_fields`). */
  name: string;
  /** The relation as the metadata root writes it (`action_network:custom_fields`). */
  rel: string;
  title: string;
  /** The document's members for a tenant (without `_links`). */
  fields(source: PresetMetadataSource): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** What a preset's metadata document is built from: the caller's tenant and its records. */
export interface PresetMetadataSource {
  tenant: Tenant;
  /** The server's storage, to read the tenant's records (its people's custom fields). */
  storage: Storage;
  /** The `origin_system` of the document: the server's product name. */
  originSystem: string;
}

/**
 * Embed codes a preset serves at `<record URL>/embed` (Action Network's
 * `action_network:embed`), linked from each record of the kinds named.
 */
export interface PresetEmbeds {
  /** Plural names of the kinds whose records have embed codes (`petitions`, `events`, …). */
  kinds: readonly string[];
  /** Title of the records' link to their embed codes. */
  title: string;
  /**
   * The embed document's members (without `_links`) for a record of `kind` (its
   * singular name); `root` is the origin hrefs are built on.
   */
  document(kind: string, record: StoredRecord, root: string): Record<string, unknown>;
}

/** What a preset's demo data is written with. */
export interface PresetSeedOptions {
  /** Tenant to add the records to (its people and activity are seeded first). */
  tenant: string;
  /** PRNG seed. */
  seed: number;
  /** The preset's kinds (`defaultRegistry(preset)`). */
  registry: KindRegistry;
}

/**
 * Demo data of a preset's own collections, written after the demo people and activity;
 * answers the records written, by kind.
 */
export type PresetSeed = (
  storage: Storage,
  options: PresetSeedOptions,
) => Promise<Record<string, number>>;

/**
 * How the server serves: the specification's way (`SPECIFICATION_PRESET`) or as a real
 * server documents itself (`ACTION_NETWORK_PRESET`), given to `createApp({ preset })`
 * and chosen on the command line by `--preset`. Everything a preset sets; options a
 * caller also gives `createApp` (or the command line) win over the preset's.
 *
 * Not the SDK's `ServerPreset`: that one is a client's `connect` options for a server
 * in the wild; this one is the server's own behaviour. The two Action Network presets
 * agree because both are written from Action Network's documentation.
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_PRESET, createApp, openStorage } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * // Action Network's way, but without its limit of 4 calls a second per key.
 * const app = createApp({ storage, preset: ACTION_NETWORK_PRESET, keyRateLimit: false });
 * ```
 */
export interface ServingPreset {
  /** Name on the command line: `--preset action-network`. */
  name: string;
  /** Path of the entry point and prefix of every API path (`/api/v2`). */
  apiPrefix: string;
  /** Header carrying the API key (`OSDI-API-Token`). */
  apiKeyHeader: string;
  /** Curie prefix of every relation written (`osdi`). */
  curiePrefix: string;
  /** Further curie names with the same href (`action_network`). */
  extraCuries: readonly string[];
  /** Calls allowed per key in any rolling second; `false`: no limit. */
  keyRateLimit: number | false;
  /** Records a page, by default and at most. */
  maxPageSize: number;
  /** The entry point's version member (`osdi_version`: `1.1.1`). */
  specVersion: string;
  motd: string;
  vendorName: string;
  productName: string;
  /** The entry point's member giving the largest page (`max_pagesize`; Action Network's `max_page_size`). */
  maxPageSizeMember: string;
  /**
   * Relations written under another curie than the prefix, by name: Action Network's
   * own collections are `action_network:event_campaigns`, not `osdi:event_campaigns`.
   */
  relationNames: Readonly<Record<string, string>>;
  /** Namespace of the identifiers of tenants created under the preset (`action_network`). */
  namespace: string;
  /**
   * Plural names of the collections whose pages carry no `total_records`/`total_pages`.
   * Without a count, their pages that hold records link a `next` page, the last one
   * included: a client learns the end from a page without records (Action Network).
   */
  collectionsWithoutTotals: readonly string[];
  /** Whether a record is also served at its nested address (`petitions/{p}/signatures/{id}`). */
  nestedAddresses: boolean;
  /**
   * Kinds whose records live under a parent, by singular name: the parent's singular
   * name (`signature: 'petition'`, `tagging: 'tag'`). Such a record's own address (its
   * `self`, the `Location` of its create, its link in pages) is its nested one under
   * that parent (`petitions/{p}/signatures/{id}`), as Action Network documents it; the
   * flat address keeps working. Empty: every record's own address is `<plural>/<id>`.
   */
  recordsUnderParents: Readonly<Record<string, string>>;
  /**
   * Members naming the records a record links to by their ids, stored when it is
   * written (Action Network's `action_network:person_id`, `action_network:petition_id`):
   * `<prefix>:<relation>_id` for each relation named that the record has. Read-only:
   * what a client sends in them is ignored. `null`: none.
   */
  nativeIdMembers: { prefix: string; relations: readonly string[] } | null;
  /** Plural names of the kinds clients may only read (POST, PUT and DELETE answer 405). */
  readOnlyKinds: readonly string[];
  /**
   * The answer to a successful DELETE: `null`, 204 without a body (the specification);
   * else 200 with `{ "notice": … }`, this text with `{kind}` replaced by the kind in
   * words (Action Network: `This {kind} was successfully deleted.`).
   */
  deleteNotice: string | null;
  /**
   * Where the person signup helper lives, below the API prefix. `people` makes a POST
   * to the people collection the upsert (Action Network), and the helper link points there.
   */
  personSignupPath: string;
  /**
   * Whether a record helper lives at its sub-collection (`petitions/{id}/signatures`
   * takes the record signature helper's body: a POST with a `person` member is the
   * helper, one without creates the record), as on Action Network; else at its own
   * path (`petitions/{id}/record_signature_helper`).
   */
  recordHelpersAtSubCollections: boolean;
  /**
   * Which calls are processed in the background when they ask
   * (`?background_request=true`, or the older `background_processing`), and the status
   * of the immediate `{}`: every helper call, answered 202 (the specification), or the
   * operations Action Network documents, answered 200. Other calls ignore the parameter.
   */
  background: BackgroundProcessing;
  /** How written members and values are validated. */
  vocabulary: Vocabulary;
  /**
   * The statuses helpers give the email addresses and phone numbers of the people they
   * create or update (Action Network: new emails subscribed, new phones unsubscribed,
   * a stored status changed only by `subscribed` or `unsubscribed`); `null`: merged as
   * sent (the specification).
   */
  signupStatuses: SignupStatuses | null;
  /** Money as written by the server: JSON numbers, or decimal strings (`"25.00"`). */
  money: 'number' | 'decimal-string';
  /**
   * Date-times as written by the server, in records, webhook payloads, the webhook API
   * and metadata: `as-stored` (the server's own as `toISOString` gives them, with
   * milliseconds; a client's as sent), or `utc-seconds` (`2013-01-01T00:00:00Z`, as
   * Action Network writes them). Stored the same either way, so filters and orders stay
   * exact to the millisecond (see `domain/date-times.ts`). Absent: `as-stored`.
   */
  dateTimes?: DateTimeStyle;
  /** Kinds served beside the specification's (Action Network's event campaigns, …). */
  kinds: readonly ResourceKind[];
  /** Metadata documents beside the canvass lists. */
  metadata: readonly PresetMetadataList[];
  /**
   * Changes to the specification's kinds under the preset, by singular name (an
   * event's link to its event campaign, an attendance counting towards the campaign's
   * RSVPs). Kinds not named are served as the specification's.
   */
  kindChanges: Readonly<Record<string, (kind: ResourceKind) => ResourceKind>>;
  /** Embed codes below records (`<record URL>/embed`); `null`: none. */
  embeds: PresetEmbeds | null;
  /** Demo data of its own collections (`--seed` on a new database, the testing kit's `seed`); null: none. */
  seed: PresetSeed | null;
  /**
   * The closure key of a webhook event's type where it is not `<curiePrefix>:<type>`,
   * by type: Action Network sends signups as `action_network:action`, its catch-all.
   * Absent or empty: every type under the curie prefix (`std:signature`).
   */
  webhookTypeKeys?: Readonly<Record<string, string>>;
}

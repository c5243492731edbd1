/**
 * The ADIS reference server as a library: build the app, open storage, seed demo
 * people and activity, serve over HTTP.
 *
 * @example
 * ```ts
 * import { createApp, openStorage, startServer } from 'adis-server';
 * const storage = openStorage(':memory:');
 * await storage.tenants.putApiKey('secret', 'demo', 'write');
 * const running = await startServer({ app: createApp({ storage }), port: 0 });
 * ```
 */
export {
  ApiError,
  apiError,
  ErrorCode,
  type ErrorDescription,
  errorBody,
  nonAtomicErrorBody,
  type ResourceStatus,
  type StdError,
} from './domain/errors.js';
export {
  type HelperLink,
  KindRegistry,
  type ResourceKind,
  type SubCollection,
} from './domain/kinds.js';
export {
  type PagePlan,
  type PageRequest,
  parsePageRequest,
  planPage,
  totalPages,
} from './domain/paging.js';
export { type Person, type PersonInput, parsePerson, personKind } from './domain/person.js';
export { personSignup, type SignupResult } from './domain/person-signup.js';
export { type CollectionPage, RecordService } from './domain/records/index.js';
export { type AppOptions, createApp, defaultRegistry, entryPointPath } from './http/app.js';
export type { AppEnv } from './http/env.js';
export {
  DEFAULT_IDEMPOTENCY_WAIT_MS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_HONOURED_HEADER,
  IDEMPOTENCY_RETENTION_MS,
  IDEMPOTENT_REPLAYED_HEADER,
  type IdempotencyOptions,
} from './http/idempotency.js';
export {
  ACTION_NETWORK_PRESET,
  type PresetMetadataList,
  SERVER_PRESETS,
  type ServerPreset,
  SPECIFICATION_PRESET,
  type Vocabulary,
} from './presets/index.js';
export { demoPerson, prng, type SeedOptions, seedPeople } from './seed.js';
export {
  ACTIVITY_KINDS,
  type ActivityCounts,
  type ActivitySeedOptions,
  describeActivity,
  seedActivity,
} from './seed-activity.js';
export { type RunningServer, type StartServerOptions, startServer } from './server.js';
export { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from './server-timeouts.js';
export {
  openPostgresStorage,
  PostgresStorage,
  type PostgresStorageOptions,
} from './storage/postgres.js';
export {
  hashToken,
  MIGRATIONS,
  openStorage,
  SqliteEngine,
  SqliteStorage,
  type SqliteStorageOptions,
} from './storage/sqlite.js';
export type {
  Access,
  ApiKeyInfo,
  IdempotencyKeyRef,
  IdempotentAnswer,
  JsonObject,
  LookupKey,
  LookupOptions,
  PageQuery,
  ParentRef,
  ReadOptions,
  RecordWrite,
  Storage,
  StorageEngineName,
  StoredRecord,
  Tenant,
  UnitOptions,
} from './storage/storage.js';
export { CommitError, StorageUnavailableError } from './storage/storage.js';
export type { Backoff } from './webhooks/backoff.js';
export {
  DEFAULT_RETRY_WINDOW_MS,
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryOptions,
} from './webhooks/delivery-worker.js';

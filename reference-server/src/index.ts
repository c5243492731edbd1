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
  type HelperRule,
  type KindLookup,
  type ServerRules,
  serveKind,
} from './domain/define-kind.js';
export {
  ApiError,
  apiError,
  ErrorCode,
  type ErrorDescription,
  errorBody,
  nonAtomicErrorBody,
  type ResourceStatus,
  type StdErrorBody,
} from './domain/errors.js';
export type {
  KeylessOpenings,
  OpenableKind,
  OpenNames,
} from './domain/helpers/keyless-openings.js';
export {
  type HelperLink,
  KindRegistry,
  type ResourceKind,
  type SubCollection,
} from './domain/kinds.js';
export {
  type SignUpPersonTarget,
  type SignupResult,
  signUpPerson,
} from './domain/person-signup.js';
export { DEFAULT_WEBHOOK_SUBSCRIPTION_LIMIT } from './domain/webhook-subscription-limit.js';
export { type AppOptions, createApp, defaultRegistry, entryPointPath } from './http/app.js';
export type { AppConfig, AppEnv } from './http/env.js';
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
  type DateTimeStyle,
  type PresetMetadataList,
  SERVING_PRESETS,
  type ServingPreset,
  SPECIFICATION_PRESET,
  type Vocabulary,
} from './presets/index.js';
export { demoPerson, type SeedOptions, seedPeople } from './seed.js';
export { type ActivityCounts, type ActivitySeedOptions, seedActivity } from './seed-activity.js';
export { type RunningServer, type StartServerOptions, startServer } from './server.js';
export { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from './server-timeouts.js';
export {
  openPostgresStorage,
  PostgresStorage,
  type PostgresStorageOptions,
} from './storage/postgres.js';
export { openStorage, SqliteStorage, type SqliteStorageOptions } from './storage/sqlite.js';
// The storage contract whole: a new engine implements `Storage` and its sub-stores.
export type {
  Access,
  ApiKeyInfo,
  ChildRef,
  CollectionScope,
  Contribution,
  DateFilter,
  IdempotencyKeyRef,
  IdempotencyStore,
  IdempotentAnswer,
  JsonObject,
  KeyFilter,
  LookupKey,
  LookupOptions,
  PageQuery,
  ParentRef,
  ReadOptions,
  RecordFilter,
  RecordStore,
  RecordWrite,
  Storage,
  StorageEngineName,
  StoredRecord,
  Tenant,
  TenantStore,
  UnitOptions,
} from './storage/storage.js';
export {
  CommitError,
  DuplicateIdentifierError,
  StorageUnavailableError,
} from './storage/storage.js';
export type {
  DeliveryAttempt,
  DeliveryOutcome,
  NewWebhookEvent,
  NewWebhookSubscription,
  SubscriptionSource,
  WebhookEvent,
  WebhookStore,
  WebhookSubscription,
} from './storage/webhook-store.js';
export type { Backoff } from './webhooks/backoff.js';
export {
  DEFAULT_WEBHOOK_CONCURRENCY,
  type DeliveryConcurrency,
} from './webhooks/delivery-concurrency.js';
export {
  DEFAULT_RETRY_WINDOW_MS,
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryOptions,
} from './webhooks/delivery-worker.js';

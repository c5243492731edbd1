/**
 * adis-sdk: a TypeScript client for the Advocacy Data Interchange Service.
 *
 * Start with {@link connect}: it reads the API entry point and returns a client whose
 * collections page with `for await` and whose resources follow their links. Every
 * address comes from the server's `_links`; the SDK builds none. The resource kinds
 * (`personKind`, …) are declared as data in `adis-sdk/schema`, which this entry
 * re-exports; {@link connectWith} takes only the kinds a bundle needs.
 *
 * @packageDocumentation
 * @module adis-sdk
 */
// The public surface is listed name by name (never `export *` of a folder): a name here
// is a semver promise, recorded in api/adis-sdk.api.md (npm run check:api). Internals
// (link resolution, the navigator's context, the mapped types' parts) stay in their
// modules; see docs/architecture.md, "Public API".
export {
  AdisError,
  type AdisErrorCode,
  type AdisErrorUnion,
  type CurieProblem,
  decodeStdError,
  type ErrorDescription,
  ErrorDescriptionSchema,
  errorDescriptions,
  formatPath,
  HTTPError,
  type HTTPErrorInit,
  InvalidIdempotencyKeyError,
  InvalidLinkError,
  type InvalidLinkErrorInit,
  isAdisError,
  isHTTPError,
  isInvalidIdempotencyKeyError,
  isInvalidLinkError,
  isLinkNotFoundError,
  isNetworkError,
  isRateLimitError,
  isRedirectError,
  isResponseFormatError,
  isResponseTooLargeError,
  isSchemaValidationError,
  isTimeoutError,
  isUnknownKindError,
  LinkNotFoundError,
  NetworkError,
  RateLimitError,
  type RateLimitErrorInit,
  RedirectError,
  type RedirectFailure,
  type RequestType,
  RequestTypeSchema,
  type ResourceStatus,
  ResourceStatusSchema,
  ResponseFormatError,
  type ResponseFormatErrorInit,
  ResponseStatusError,
  ResponseTooLargeError,
  type ResponseTooLargeErrorInit,
  type SchemaValidationContext,
  SchemaValidationError,
  type StdError,
  StdErrorSchema,
  TimeoutError,
  type TimeoutPhase,
  UNKNOWN_ERROR_CODE,
  UnknownKindError,
  type ValidationIssue,
  type ZodErrorLike,
} from './errors/index.js';
export { Curies, HalDocument, type HalLink, Link, type TemplateVariables } from './hal/index.js';
export { type CallHelperOptions, callHelper, type HelperCallOptions } from './helpers/call.js';
export { helperHref } from './helpers/href.js';
export type { QueuedCall } from './helpers/queue-store.js';
export {
  personSignup,
  recordAttendance,
  recordCanvass,
  recordDonation,
  recordOutreach,
  recordSignature,
  recordSubmission,
} from './helpers/record.js';
export {
  type AcceptedHelperResult,
  findMember,
  type HelperResult,
  helperFailures,
  isPartialSuccess,
  type ProcessedHelperResult,
} from './helpers/result.js';
export {
  createSignupQueue,
  type IndexedDBFactory,
  type QueueEvent,
  type QueueFailureReason,
  type QueueLocks,
  type QueueSubmitOutcome,
  type SignupQueue,
  type SignupQueueOptions,
} from './helpers/signup-queue.js';
// The transport's public surface; origins, the rate limiter and redirect handling are
// internals of createTransport and stay out of the package's API.
export { IDEMPOTENCY_KEY_HONOURED_HEADER } from './http/honoured-keys.js';
export { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from './http/idempotency-key.js';
export {
  DEFAULT_BACKOFF_LIMIT,
  DEFAULT_MAX_RETRY_AFTER,
  DEFAULT_RETRY_AFTER_STATUS_CODES,
  DEFAULT_RETRY_LIMIT,
  DEFAULT_RETRY_STATUS_CODES,
  KEYED_POST_RETRY_STATUS_CODES,
} from './http/retry-policy.js';
export {
  type AttemptEvent,
  createTransport,
  DEFAULT_API_KEY_HEADER,
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUT,
  type HttpMethod,
  type HttpRequest,
  type HttpResponse,
  type ResponseEvent,
  type RetryEvent,
  type RetryOptions,
  type Transport,
  type TransportHooks,
  type TransportOptions,
} from './http/transport.js';
export {
  BaseClient,
  type Client,
  type ClientOptions,
  type CollectionKinds,
  connect,
  connectWith,
} from './navigator/client.js';
export { Collection, type Page, type PagingOptions } from './navigator/collection.js';
export type { CallOptions } from './navigator/context.js';
export {
  Filter,
  type FilterCondition,
  FilterField,
  type FilterFieldName,
  type FilterOperator,
  type FilterValue,
  field,
  type KnownFilterField,
  modifiedSince,
} from './navigator/filter.js';
export type { HelperOptions, NoticeHelperOptions } from './navigator/helper-call.js';
export type { UntypedData } from './navigator/kind.js';
export {
  type CanvassContactType,
  CanvassContactTypeSchema,
  type CanvassContactTypes,
  CanvassContactTypesSchema,
  type CanvassInputType,
  CanvassInputTypeSchema,
  type CanvassInputTypes,
  CanvassInputTypesSchema,
  type CanvassResponseCode,
  CanvassResponseCodeSchema,
  type CanvassResponseCodes,
  CanvassResponseCodesSchema,
  Metadata,
  type MetadataRoot,
  MetadataRootSchema,
  type ResponseCodesOptions,
} from './navigator/metadata.js';
export { type FollowOptions, isResourceOf, Resource } from './navigator/resource.js';
export type * from './navigator/resources.js';
export type {
  AnyOfTarget,
  Bodies,
  BodyInput,
  Camel,
  CollectionOf,
  Collections,
  DataOf,
  DerivedResource,
  HelperMethod,
  HelperNotice,
  InputOf,
  RelationMethod,
  ResourceOf,
  Target,
  TargetCollection,
} from './navigator/typed.js';
export {
  type AcceptedWrite,
  type BackgroundWriteResult,
  type DeleteOptions,
  linkTo,
  type ProcessedWrite,
  type WriteOptions,
} from './navigator/write.js';
export {
  ACTION_NETWORK_KINDS,
  actionNetwork,
  type Campaign,
  type CampaignInput,
  type CustomField,
  type CustomFieldInput,
  campaignKind,
  customFieldKind,
  EMBED_RELATION,
  type Embed,
  type EmbedInput,
  type EventCampaign,
  type EventCampaignInput,
  embedKind,
  eventCampaignKind,
  presetNamed,
  SERVER_PRESETS,
  type ServerPreset,
  type UniqueIdList,
  type UniqueIdListInput,
  uniqueIdListKind,
} from './presets/index.js';
export * from './schema/index.js';

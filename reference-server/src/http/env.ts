/**
 * Types shared by the HTTP layer: the Hono environment and the resolved app config.
 */
import type { OpenNames } from '../domain/helpers/keyless-openings.js';
import type { KindRegistry } from '../domain/kinds.js';
import type { RecordService } from '../domain/records/index.js';
import type { ServingPreset } from '../presets/serving-preset.js';
import type { ApiKeyInfo, Storage } from '../storage/storage.js';
import type { DeliveryConcurrency } from '../webhooks/delivery-concurrency.js';
import type { Urls } from './links.js';

/** Settings every route reads, with defaults applied. */
export interface AppConfig {
  /**
   * The preset the server answers as (the specification's unless one is given), with
   * the caller's own options applied over it: the header, prefix, rate and page size
   * below are its values.
   */
  preset: ServingPreset;
  /** The API path prefix (`/api/v1`; a preset's `/api/v2`). */
  apiPrefix: string;
  storage: Storage;
  records: RecordService;
  registry: KindRegistry;
  apiKeyHeader: string;
  /** The curie prefix of every relation the server writes (`std`, or `osdi`, …). */
  curiePrefix: string;
  publicUrl: string | undefined;
  maxPageSize: number;
  maxBodyBytes: number;
  /**
   * Webhook subscriptions a tenant may make through the API at most
   * (`AppOptions.webhookSubscriptionLimit`).
   */
  webhookSubscriptionLimit: number;
  /**
   * Webhook POSTs in flight at most, server-wide, and one tenant's share of them, for
   * the delivery worker of this app (`AppOptions.webhookConcurrency`,
   * `AppOptions.webhookTenantConcurrency`).
   */
  webhookConcurrency: DeliveryConcurrency;
  motd: string;
  vendorName: string;
  productName: string;
  /** The specification version, given as the entry point's `<prefix>_version`. */
  specVersion: string;
  logError: (message: string) => void;
  /** Where access log lines go; undefined: no access log. */
  accessLog: ((line: string) => void) | undefined;
  /**
   * Whether webhook subscriptions made through the API may name loopback, private and
   * link-local addresses (`AppOptions.webhooksAllowPrivate`).
   */
  webhooksAllowPrivate: boolean;
  /** The tags and lists open to helper calls without a key (`AppOptions.keylessOpen`). */
  keylessOpen: OpenNames;
  /** When accepted background work starts (`AppOptions.scheduleBackground`). */
  scheduleBackground: (start: () => void) => void;
}

/** Hono environment: per-request variables set by the middleware. */
export interface AppEnv {
  Variables: {
    /** The caller's key and tenant (set by the auth middleware). */
    auth: ApiKeyInfo;
    /**
     * True for a call without an API key to a helper the spec opens to anonymous
     * callers (record signature, outreach, attendance, donation, canvass). `auth` is
     * not set then: the helper finds the tenant from the record in its URL.
     */
    anonymous: boolean;
    /**
     * This request's id: the client's `X-Request-Id` when it is sane, else a new one.
     * Sent back as `X-Request-Id`, logged, and the `reference_code` of a 500.
     */
    requestId: string;
    /** Absolute URL builder for this request (origin or the configured public URL). */
    urls: Urls;
    /**
     * The request body as `limitBody` read it (within the size limit, possibly empty);
     * unset for GET and HEAD, and in-process for a request without a body.
     * `readJsonObject` reads it from here.
     */
    body: Uint8Array;
  };
}

/**
 * Everything the command line asks for, checked before the server takes its port: a
 * mistake found here costs no database, no seed and no key.
 */
import { resolve } from 'node:path';
import type { DatabaseLocation } from '../database-location.js';
import type { KeylessOpenings } from '../domain/helpers/keyless-openings.js';
import { DEFAULT_WEBHOOK_SUBSCRIPTION_LIMIT } from '../domain/webhook-subscription-limit.js';
import type { ServingPreset } from '../presets/index.js';
import type { ServerTimeouts } from '../server-timeouts.js';
import { DEFAULT_WEBHOOK_CONCURRENCY } from '../webhooks/delivery-concurrency.js';
import type { ServerArguments } from './arguments.js';
import { databaseLocation } from './default-database.js';
import {
  corsOriginsOption,
  curiePrefixOption,
  keyHeaderOption,
  keyRateOption,
  publicUrlOption,
} from './http-options.js';
import { keylessOpenOption } from './keyless-options.js';
import { type LoadedKeysFile, readKeysFile, tenantNamespaces } from './keys-file.js';
import { integerOption, positiveIntegerOption, webhookRetryHoursOption } from './number-options.js';
import { presetOption } from './preset-option.js';
import { timeoutsOption } from './timeout-options.js';
import { UsageError } from './usage-error.js';
import { type LoadedWebhooksFile, readWebhooksFile } from './webhooks-file.js';

/** The server as the command line asks for it, checked (the flags in `--help`). */
export interface ServerSettings {
  port: number;
  host: string;
  keys: LoadedKeysFile | undefined;
  removeDemoKey: boolean;
  webhooks: LoadedWebhooksFile | undefined;
  location: DatabaseLocation;
  poolSize: number;
  publicUrl: string | undefined;
  corsOrigins: string[] | '*';
  trustProxy: boolean;
  /** The tags and lists helper calls without a key may apply (`--keyless-tag`, `--keyless-list`). */
  keylessOpen: KeylessOpenings;
  messageSendRate: number;
  apiKeyHeader: string | undefined;
  curiePrefix: string | undefined;
  webhookRetryHours: number;
  /** Webhook subscriptions a tenant may make through the API (0: none). */
  webhookSubscriptionLimit: number;
  /** Webhook POSTs in flight at most, server-wide (each tenant half of them at most). */
  webhookConcurrency: number;
  timeouts: ServerTimeouts;
  /** Calls per key a second, from 1; undefined without the flag (no limit). */
  keyRate: number | undefined;
  preset: ServingPreset;
  /** `--preset` was given (the start-up line then names it). */
  presetGiven: boolean;
  /** `--seed` as given: its default depends on the database being new, known once open. */
  seed: string | undefined;
  quiet: boolean;
  webhooksAllowPrivate: boolean;
}

/** Where relative paths and the default database are found. */
export interface SettingsPlace {
  /** The server's package folder (`reference-server/`, or where npm installed it). */
  serverRoot: string;
  /** The folder the user ran the command in: relative paths start there. */
  userDir: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The flags checked one by one, the keys and webhooks files read and checked among them;
 * the first mistake is a {@link UsageError}. The order is fixed (properties are computed
 * as written), so a command line with two mistakes always reports the same one.
 */
export function serverSettings(values: ServerArguments, place: SettingsPlace): ServerSettings {
  const { serverRoot, userDir, env } = place;
  const port = integerOption('port', values.port, 8000, 65535);
  const host = values.host ?? '127.0.0.1';
  const keys = values.keys === undefined ? undefined : loadKeysFile(values.keys, userDir);
  if (values['remove-demo-key'] && keys === undefined) {
    throw new UsageError(
      '--remove-demo-key needs --keys <file>: without it the server would make a demo key again',
    );
  }
  const webhooks =
    values.webhooks === undefined
      ? undefined
      : { path: values.webhooks, file: readWebhooksFile(resolve(userDir, values.webhooks)) };
  return {
    port,
    host,
    keys,
    removeDemoKey: values['remove-demo-key'] ?? false,
    webhooks,
    location: databaseLocation(values.db, env, serverRoot, userDir),
    poolSize: positiveIntegerOption('pool-size', values['pool-size'], 10, 1000),
    publicUrl: publicUrlOption(values['public-url']),
    corsOrigins: corsOriginsOption(values['cors-origin']),
    trustProxy: values['trust-proxy'] ?? false,
    keylessOpen: keylessOpenOption(values['keyless-tag'], values['keyless-list']),
    messageSendRate: positiveIntegerOption(
      'message-send-rate',
      values['message-send-rate'],
      50,
      1_000_000,
    ),
    apiKeyHeader: keyHeaderOption(values['key-header']),
    curiePrefix: curiePrefixOption(values['curie-prefix']),
    webhookRetryHours: webhookRetryHoursOption(values['webhook-retry-hours']),
    webhookSubscriptionLimit: integerOption(
      'webhook-subscription-limit',
      values['webhook-subscription-limit'],
      DEFAULT_WEBHOOK_SUBSCRIPTION_LIMIT,
      1_000_000,
    ),
    // At least 1: with no slot no webhook would ever be delivered.
    webhookConcurrency: positiveIntegerOption(
      'webhook-concurrency',
      values['webhook-concurrency'],
      DEFAULT_WEBHOOK_CONCURRENCY,
      10_000,
    ),
    timeouts: timeoutsOption(values),
    keyRate: keyRateOption(values['key-rate']),
    preset: presetOption(values.preset),
    presetGiven: values.preset !== undefined,
    seed: values.seed,
    quiet: values.quiet ?? false,
    webhooksAllowPrivate: values['webhooks-allow-private'] ?? false,
  };
}

/** The keys file `--keys` names, read and checked, with its tenants' namespaces. */
function loadKeysFile(path: string, userDir: string): LoadedKeysFile {
  const file = readKeysFile(resolve(userDir, path));
  return { path, file, namespaces: tenantNamespaces(file) };
}

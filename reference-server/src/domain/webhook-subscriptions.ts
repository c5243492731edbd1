/**
 * What a webhook subscription is made of, wherever it comes from (the API's POST, the
 * operator's `--webhooks` file): the event types it can ask for, its URL and secret
 * rules, and how the ids and secrets the server makes are made.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';
import { ALL_KINDS } from './catalog.js';

/**
 * The event types a subscription's `triggers` may name, as the deliveries key them
 * (`std:signature`, …; see `storage/webhook-store.ts`).
 */
export const WEBHOOK_EVENT_TYPES: readonly string[] = Object.freeze(
  // Read from the kinds (`ResourceKind.event`), where which writes make events is declared.
  ALL_KINDS.flatMap((kind) => (kind.event ? [kind.event.type] : [])),
);

/** The trigger that takes every event type. */
export const ALL_EVENT_TYPES = '*';

/** Shortest secret accepted: an HMAC key anyone could guess would sign nothing. */
export const MIN_SECRET_LENGTH = 16;

/** Longest URL accepted (what common servers and proxies take in a request line). */
const MAX_URL_LENGTH = 2048;

const KNOWN_TRIGGERS = `${WEBHOOK_EVENT_TYPES.join(', ')}, or ${ALL_EVENT_TYPES} for all`;

/**
 * A subscription's `url`: an absolute http or https URL (whether the server may call it
 * is `refusedAddress`'s question, asked where the URL comes from the API).
 *
 * @example
 * ```ts
 * import { WebhookUrlSchema } from './webhook-subscriptions.js';
 *
 * WebhookUrlSchema.safeParse('ftp://example.org/').success; // false
 * ```
 */
export const WebhookUrlSchema = z
  .string()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: 'must be an absolute http or https URL',
  });

/**
 * A subscription's `secret`: at least {@link MIN_SECRET_LENGTH} visible ASCII characters.
 *
 * @example
 * ```ts
 * import { WebhookSecretSchema } from './webhook-subscriptions.js';
 *
 * WebhookSecretSchema.safeParse('short').success; // false
 * ```
 */
export const WebhookSecretSchema = z
  .string()
  .min(MIN_SECRET_LENGTH, `must have at least ${MIN_SECRET_LENGTH} characters`)
  .max(256, 'must be at most 256 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters (no spaces)');

/**
 * A subscription's `triggers`: event types from {@link WEBHOOK_EVENT_TYPES}, or `*`.
 * Unknown ones are refused with the known ones listed; the output has no duplicates, and
 * is `['*']` when `*` is among them.
 *
 * @example
 * ```ts
 * import { WebhookTriggersSchema } from './webhook-subscriptions.js';
 *
 * WebhookTriggersSchema.parse(['signature', 'signature']); // ['signature']
 * WebhookTriggersSchema.parse(['*', 'donation']); // ['*']
 * ```
 */
export const WebhookTriggersSchema = z
  .array(
    z.string().refine((value) => value === ALL_EVENT_TYPES || WEBHOOK_EVENT_TYPES.includes(value), {
      error: (issue) =>
        `unknown event type ${JSON.stringify(issue.input)}; known: ${KNOWN_TRIGGERS}`,
    }),
  )
  .min(1, `list at least one event type (${KNOWN_TRIGGERS})`)
  .transform((triggers) =>
    triggers.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : [...new Set(triggers)],
  );

/**
 * A new signing secret: `whsec_` and 32 random bytes in base64url.
 */
export function newWebhookSecret(random: (size: number) => Buffer = randomBytes): string {
  return `whsec_${random(32).toString('base64url')}`;
}

/**
 * A secret as shown after its creation: its last four characters only, so that an
 * operator can tell two apart and a read key learns nothing that signs.
 */
export function maskedSecret(secret: string): string {
  return `…${secret.slice(-4)}`;
}

/**
 * A subscription's URL as shown after its creation: credentials in it (`user:pass@`,
 * which some receivers take as their basic auth) masked like a secret; the rest as is.
 *
 * @example
 * ```ts
 * import { maskedUrl } from './webhook-subscriptions.js';
 *
 * maskedUrl('https://crm:hunter22@hooks.example.org/adis'); // 'https://…@hooks.example.org/adis'
 * ```
 */
export function maskedUrl(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return url;
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, '$1…@');
}

/**
 * The id of a subscription from the `--webhooks` file: a UUID (version 5 layout) hashed
 * from its tenant and URL, so that a restart with the same file keeps each
 * subscription, and with it its place in the outbox.
 */
export function fileSubscriptionId(tenant: string, url: string): string {
  const hash = createHash('sha1')
    .update('adis-webhooks-file\0')
    .update(tenant)
    .update('\0')
    .update(url)
    .digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

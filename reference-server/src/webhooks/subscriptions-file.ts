/**
 * The operator's webhook subscriptions file (`--webhooks <file>`):
 * `{ "webhooks": [{ "tenant": "a", "url": "…", "secret": "…", "triggers": ["*"] }] }`.
 *
 * The operator chooses these URLs, so any http(s) URL is taken (no address check: a
 * receiver on the same machine or network is the usual case). Each subscription's id
 * is derived from its tenant and URL, so a restart with the same file keeps its
 * subscriptions, and with them their place in the outbox and their delivery log.
 */
import * as z from 'zod';
import { parseConfigFile } from '../config-file.js';
import {
  fileSubscriptionId,
  WebhookSecretSchema,
  WebhookTriggersSchema,
  WebhookUrlSchema,
} from '../domain/webhook-subscriptions.js';
import type { NewWebhookSubscription } from '../storage/webhook-store.js';

const WebhooksFileSchema = z
  .strictObject({
    webhooks: z.array(
      z.strictObject({
        tenant: z.string().min(1, 'name the tenant'),
        url: WebhookUrlSchema,
        secret: WebhookSecretSchema,
        triggers: WebhookTriggersSchema.optional(),
      }),
    ),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    file.webhooks.forEach((entry, index) => {
      const key = JSON.stringify([entry.tenant, entry.url]);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else {
        ctx.addIssue({
          code: 'custom',
          path: ['webhooks', index, 'url'],
          message: `tenant ${entry.tenant} already subscribes ${entry.url} at webhooks.${first}; list each URL once per tenant`,
        });
      }
    });
  });

/**
 * A `--webhooks` file as read: each entry's triggers defaulted to `['*']`.
 */
export interface WebhooksFile {
  webhooks: { tenant: string; url: string; secret: string; triggers: string[] }[];
}

/**
 * Reads the text of a `--webhooks` file. Throws an `Error` whose message names the file
 * and lists every problem, one per line with its path (`webhooks.0.triggers.1: unknown
 * event type "petition"; known: …`).
 *
 * @example
 * ```ts
 * import { parseWebhooksFile } from './subscriptions-file.js';
 *
 * parseWebhooksFile('{"webhooks":[{"tenant":"acme","url":"http://127.0.0.1:9000/hook","secret":"whsec_0123456789abcdef"}]}', 'webhooks.json');
 * // { webhooks: [{ tenant: 'acme', url: 'http://127.0.0.1:9000/hook', secret: 'whsec_0123456789abcdef', triggers: ['*'] }] }
 * ```
 */
export function parseWebhooksFile(text: string, path: string): WebhooksFile {
  const parsed = parseConfigFile(text, path, 'webhooks', WebhooksFileSchema);
  return {
    webhooks: parsed.webhooks.map((entry) => ({
      ...entry,
      triggers: entry.triggers ?? ['*'],
    })),
  };
}

/**
 * The subscriptions a `--webhooks` file makes, for `storage.webhooks.replaceFileSubscriptions`:
 * ids derived from tenant and URL, tenants by id (`tenantIdOf`: the caller ensures them
 * first, since storage answers asynchronously).
 */
export function fileSubscriptions(
  file: WebhooksFile,
  tenantIdOf: (tenant: string) => number,
  nowMs: number,
): NewWebhookSubscription[] {
  return file.webhooks.map((entry) => ({
    id: fileSubscriptionId(entry.tenant, entry.url),
    tenantId: tenantIdOf(entry.tenant),
    url: entry.url,
    secret: entry.secret,
    triggers: entry.triggers,
    source: 'file',
    createdMs: nowMs,
  }));
}

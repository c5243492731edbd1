/**
 * `--webhooks <file>`: the operator's webhook subscriptions, in JSON. Authoritative for
 * the subscriptions it manages, as the keys file is for keys.
 */
import type { Storage } from '../storage/storage.js';
import {
  fileSubscriptions,
  parseWebhooksFile,
  type WebhooksFile,
} from '../webhooks/subscriptions-file.js';
import { count } from './count.js';
import { readOperatorFile } from './read-operator-file.js';

/**
 * The webhooks file at `path`, checked; a usage error naming every problem otherwise.
 */
export function readWebhooksFile(path: string): WebhooksFile {
  return readOperatorFile(path, 'webhooks', (text) => parseWebhooksFile(text, path));
}

/** A webhooks file as the command line loaded it. */
export interface LoadedWebhooksFile {
  /** The path as given, for the start-up line. */
  path: string;
  file: WebhooksFile;
}

/**
 * Writes the subscriptions of a webhooks file into the database, in one transaction,
 * creating the tenants they name: those removed from the file stop; those kept (same
 * tenant and URL) keep their place in the outbox, so a restart loses no delivery.
 */
export async function installWebhooksFile(
  storage: Storage,
  webhooks: LoadedWebhooksFile,
): Promise<void> {
  const { file } = webhooks;
  await storage.transaction(async () => {
    const tenantIds = new Map<string, number>();
    for (const { tenant } of file.webhooks) {
      tenantIds.set(tenant, (await storage.tenants.ensure(tenant)).id);
    }
    await storage.webhooks.replaceFileSubscriptions(
      fileSubscriptions(file, (tenant) => tenantIds.get(tenant) ?? 0, Date.now()),
    );
  });
  console.log(
    `Webhooks: ${count(file.webhooks.length, 'subscription')} loaded from ${webhooks.path}`,
  );
}

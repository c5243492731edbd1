/**
 * What a start writes into the database before it serves: the operator's files, the
 * demo data, the demo key.
 */
import { describeDatabase } from '../open-database.js';
import type { Storage } from '../storage/storage.js';
import { demoKey } from './demo-key.js';
import { installKeysFile } from './keys-file.js';
import { seedCountOption, seedDemo } from './seed-demo.js';
import type { ServerSettings } from './server-settings.js';
import { installWebhooksFile } from './webhooks-file.js';

/**
 * Loads the keys file and the webhooks file, seeds demo data (`--seed`, checked here
 * since its default depends on the database being new), prints which database is in
 * use, and makes or names the demo key, in that order. The demo key comes last, once
 * nothing else can fail: a start that fails leaves no key behind in a database other
 * instances share.
 */
export async function prepareDatabase(storage: Storage, settings: ServerSettings): Promise<void> {
  const people = seedCountOption(settings.seed, storage.created);
  if (settings.keys) await installKeysFile(storage, settings.keys);
  if (settings.webhooks) await installWebhooksFile(storage, settings.webhooks);
  if (people > 0) await seedDemo(storage, { people, preset: settings.preset });
  console.log(`Database: ${describeDatabase(settings.location)}`);
  await demoKey(storage, { keysFile: settings.keys !== undefined, remove: settings.removeDemoKey });
}

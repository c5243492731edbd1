/**
 * `--keys <file>`: the operator's API keys, in JSON. The file is authoritative for the
 * keys it manages: loading it replaces the keys an earlier start loaded from a file.
 */
import * as z from 'zod';
import { parseConfigFile } from '../config-file.js';
import type { Storage } from '../storage/storage.js';
import { count } from './count.js';
import { readOperatorFile } from './read-operator-file.js';
import { UsageError } from './usage-error.js';

const KeysFileSchema = z.strictObject({
  keys: z
    .array(
      z.strictObject({
        token: z.string().min(8, 'token must have at least 8 characters'),
        tenant: z.string().min(1),
        access: z.enum(['read', 'write']),
        namespace: z
          .string()
          .regex(/^[A-Za-z0-9_.-]+$/, 'namespace may hold letters, digits, _ . -')
          .optional(),
      }),
    )
    .min(1, 'list at least one key'),
});

/** A keys file, checked: `{"keys":[{"token":"…","tenant":"…","access":"read"|"write"}]}`. */
export type KeysFile = z.output<typeof KeysFileSchema>;

/**
 * The keys file at `path`, checked; a usage error naming every problem otherwise.
 */
export function readKeysFile(path: string): KeysFile {
  return readOperatorFile(path, 'keys', (text) =>
    parseConfigFile(text, path, 'keys', KeysFileSchema),
  );
}

/**
 * The namespace of each tenant in a keys file: the one any of its keys names (it may
 * stand on any of them), and an error when two keys of one tenant name different ones.
 *
 * @example
 * ```ts
 * import { tenantNamespaces } from './keys-file.js';
 *
 * tenantNamespaces({ keys: [{ token: 'acme-read-1', tenant: 'acme', access: 'read', namespace: 'acme' }] });
 * // Map { 'acme' => 'acme' }
 * ```
 */
export function tenantNamespaces(file: KeysFile): Map<string, string | undefined> {
  const namespaces = new Map<string, string | undefined>();
  for (const key of file.keys) {
    const known = namespaces.get(key.tenant);
    if (key.namespace !== undefined && known !== undefined && known !== key.namespace) {
      throw new UsageError(
        `keys file: tenant ${key.tenant} is given two namespaces, ${known} and ${key.namespace}`,
      );
    }
    namespaces.set(key.tenant, known ?? key.namespace);
  }
  return namespaces;
}

/** A keys file as the command line loaded it. */
export interface LoadedKeysFile {
  /** The path as given, for the start-up line. */
  path: string;
  file: KeysFile;
  /** {@link tenantNamespaces} of the file, checked before the start. */
  namespaces: Map<string, string | undefined>;
}

/**
 * Writes the keys of a keys file into the database, in one transaction: the keys an
 * earlier file loaded are removed first (keys removed from the file stop working), and
 * its tenants are created with their namespaces. A tenant that exists keeps its
 * namespace (records already carry it), and a line says so.
 */
export async function installKeysFile(storage: Storage, keys: LoadedKeysFile): Promise<void> {
  await storage.transaction(async () => {
    await storage.tenants.removeApiKeys('keys-file');
    for (const [tenant, namespace] of keys.namespaces) {
      const kept = (await storage.tenants.ensure(tenant, namespace)).namespace;
      if (namespace !== undefined && kept !== namespace) {
        console.log(
          `Tenant ${tenant} keeps namespace ${kept}, set when it was created; the keys file's ${namespace} is not applied`,
        );
      }
    }
    for (const key of keys.file.keys) {
      await storage.tenants.putApiKey(key.token, key.tenant, key.access, 'keys-file');
    }
  });
  console.log(`API keys: ${count(keys.file.keys.length, 'key')} loaded from ${keys.path}`);
}

/**
 * SQLite storages a test file opens, closed after each test, and the temporary folders
 * it made, removed then too. For the tests of SQLite itself (its files, its SQL, its
 * migrations); the generic storage tests run on every engine (storage-engines.ts).
 */
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { openStorage, type SqliteStorage } from '../src/storage/sqlite.js';

/**
 * Registers the clean-up (call it at the top of a test file) and answers where to put
 * what needs it, and `memory()`, a fresh in-memory storage closed after the test.
 *
 * @example
 * ```ts
 * const { memory, opened, dirs } = storageFixture();
 * const storage = memory();
 * await storage.tenants.ensure('acme');
 * ```
 */
export function storageFixture(): {
  memory(): SqliteStorage;
  opened: { close(): unknown }[];
  dirs: string[];
} {
  const opened: { close(): unknown }[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    memory() {
      const storage = openStorage(':memory:');
      opened.push(storage);
      return storage;
    },
    opened,
    dirs,
  };
}

/**
 * Storages a test file opens, closed after each test, and the temporary folders it
 * made, removed then too.
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
 * ```
 */
export function storageFixture(): {
  memory(): SqliteStorage;
  opened: SqliteStorage[];
  dirs: string[];
} {
  const opened: SqliteStorage[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const storage of opened.splice(0)) storage.close();
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

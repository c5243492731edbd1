/**
 * Storages a test file opens, closed after each test, and the temporary folders it
 * made, removed then too: the asynchronous `SqliteStorage` the server uses, or the
 * synchronous `SqliteEngine` behind it, whose answers the storage tests pin (PostgreSQL's
 * are pinned against the same answers in test/postgres/storage-records.test.ts).
 */
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { openStorage, SqliteEngine, type SqliteStorage } from '../src/storage/sqlite.js';

/**
 * Registers the clean-up (call it at the top of a test file) and answers where to put
 * what needs it, `memory()`, a fresh in-memory storage, and `engine()`, a fresh
 * in-memory engine, each closed after the test.
 *
 * @example
 * ```ts
 * const { memory, engine, opened, dirs } = storageFixture();
 * const storage = memory();
 * ```
 */
export function storageFixture(): {
  memory(): SqliteStorage;
  engine(): SqliteEngine;
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
    engine() {
      const engine = new SqliteEngine(':memory:');
      opened.push(engine);
      return engine;
    },
    opened,
    dirs,
  };
}

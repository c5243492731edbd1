import type { AppOptions, RunningServer, Storage } from '../../reference-server/src/index.js';
import { createTestServer } from '../../reference-server/src/testing.js';
import { TEST_ENGINE, testStorage } from '../../reference-server/test/engine.js';

/**
 * A reference server for one test file: two tenants, three keys, on in-memory SQLite (a
 * PostgreSQL schema under `ADIS_TEST_ENGINE=postgres`).
 */
export interface TestServer {
  /** Fetch that calls the app in-process (no sockets). */
  fetch: typeof globalThis.fetch;
  /** Entry point URL for in-process calls. */
  entryPoint: string;
  keys: { write: string; read: string; otherTenant: string };
  /**
   * The server's storage, for seeding more data (`seedActivity`) or checking what it
   * holds: await `ready()` first.
   */
  storage?: Storage;
  /** Resolves once the server's keys and seed are written. */
  ready(): Promise<void>;
  /** Starts the same app over real HTTP on a free loopback port. */
  listen(): Promise<RunningServer>;
  close(): Promise<void>;
}

/**
 * Builds a reference server with `people` demo people in the `demo` tenant and an
 * empty `other` tenant; `options` are passed on to `createApp`. A thin layer over the
 * published testing kit (`adis-server/testing`), so the SDK's own tests exercise it too.
 * Like the kit, the anonymous rate limit is off unless `options` set one.
 *
 * @example
 * ```ts
 * const server = testServer(250);
 * const client = await connect(server.entryPoint, { apiKey: server.keys.write, fetch: server.fetch });
 * ```
 */
export function testServer(
  people = 0,
  options: Partial<Omit<AppOptions, 'storage'>> = {},
): TestServer & { storage: Storage } {
  const kit = createTestServer({
    seed: people > 0 ? { people } : false,
    app: options,
    // With ADIS_TEST_ENGINE=postgres (npm run test:e2e:postgres), a PostgreSQL schema.
    ...(TEST_ENGINE === 'postgres'
      ? { database: ({ defaultNamespace }) => testStorage(defaultNamespace).storage }
      : {}),
  });
  return {
    fetch: kit.fetch,
    entryPoint: kit.entryPoint,
    keys: { write: kit.keys.write, read: kit.keys.read, otherTenant: kit.keys.other },
    get storage() {
      return kit.storage;
    },
    ready: () => kit.ready(),
    listen: () => kit.listen(),
    close: () => kit.close(),
  };
}

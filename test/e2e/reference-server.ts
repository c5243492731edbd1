import {
  type AppOptions,
  createApp,
  openStorage,
  type RunningServer,
  type Storage,
  seedPeople,
  startServer,
} from '../../reference-server/src/index.js';

/** A reference server for one test file: in-memory SQLite, two tenants, three keys. */
export interface TestServer {
  /** Fetch that calls the app in-process (no sockets). */
  fetch: typeof globalThis.fetch;
  /** Entry point URL for in-process calls. */
  entryPoint: string;
  keys: { write: string; read: string; otherTenant: string };
  /** The server's storage, for seeding more data (`seedActivity`) or checking what it holds. */
  storage?: Storage;
  /** Starts the same app over real HTTP on a free loopback port. */
  listen(): Promise<RunningServer>;
  close(): Promise<void>;
}

/**
 * Builds a reference server with `people` demo people in the `demo` tenant and an
 * empty `other` tenant; `options` are passed on to `createApp`.
 */
export function testServer(
  people = 0,
  options: Partial<Omit<AppOptions, 'storage'>> = {},
): TestServer & { storage: Storage } {
  const storage = openStorage(':memory:');
  const keys = { write: 'write-key', read: 'read-key', otherTenant: 'other-key' };
  storage.putApiKey(keys.write, 'demo', 'write');
  storage.putApiKey(keys.read, 'demo', 'read');
  storage.putApiKey(keys.otherTenant, 'other', 'write');
  if (people > 0) seedPeople(storage, { tenant: 'demo', count: people });
  const app = createApp({ storage, logError: () => undefined, ...options });
  const running: RunningServer[] = [];
  return {
    fetch: async (input, init) => app.fetch(new Request(input, init)),
    entryPoint: 'http://adis.test/api/v1/',
    keys,
    storage,
    async listen() {
      const server = await startServer({ app, port: 0, host: '127.0.0.1' });
      running.push(server);
      return server;
    },
    async close() {
      await Promise.all(running.map((server) => server.close()));
      storage.close();
    },
  };
}

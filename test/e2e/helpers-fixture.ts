/**
 * Setup for the end-to-end tests of the helpers: a reference server whose anonymous
 * rate limit is off (in-process calls all come from one client address, and these tests
 * make more anonymous calls than one burst), a keyed client, a read-only one, and the
 * options that send the light entry's calls to the same server.
 */
import type { AppOptions, Storage } from '../../reference-server/src/index.js';
import { type Client, connect, type HelperCallOptions } from '../../src/index.js';
import { type TestServer, testServer } from './reference-server.js';

/** A server for helper tests, and what talks to it. */
export interface HelperFixture {
  server: TestServer;
  /** Tenant `demo`, write key. */
  client: Client;
  /** Tenant `demo`, read-only key. */
  reader: Client;
  /** Options of the light entry's functions for a keyed call. */
  keyed: HelperCallOptions;
  /** Options of the light entry's functions for an anonymous call (no key, as a page). */
  anonymous: HelperCallOptions;
}

/**
 * Like `testServer()` of reference-server.ts, with the anonymous rate limit off unless
 * `options` set it, and any other app options.
 *
 * @example
 * ```ts
 * const server = helperTestServer({ messageSendRate: 1 });
 * ```
 */
export function helperTestServer(
  options: Partial<Omit<AppOptions, 'storage'>> = {},
): TestServer & { storage: Storage } {
  return testServer(0, { anonymousRateLimit: false, ...options });
}

/**
 * Starts a helper test server and connects its clients.
 *
 * @example
 * ```ts
 * let f: HelperFixture;
 * beforeAll(async () => { f = await startHelperFixture(); });
 * afterAll(() => f.server.close());
 * ```
 */
export async function startHelperFixture(
  options: Partial<Omit<AppOptions, 'storage'>> = {},
): Promise<HelperFixture> {
  const server = helperTestServer(options);
  const client = await connect(server.entryPoint, {
    apiKey: server.keys.write,
    fetch: server.fetch,
  });
  const reader = await connect(server.entryPoint, {
    apiKey: server.keys.read,
    fetch: server.fetch,
  });
  return {
    server,
    client,
    reader,
    keyed: { apiKey: server.keys.write, fetch: server.fetch },
    anonymous: { fetch: server.fetch },
  };
}

/** A unique email address, so tests in one server do not match each other's people. */
export function uniqueEmail(name: string): string {
  return `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.org`;
}

/**
 * A testing kit: the reference server itself, in-process, for the tests of code that
 * talks to an ADIS server.
 *
 * Why the real app rather than hand-written mocks: mocks answer what their author
 * believed the specification says; this answers what a compliant server does (paging,
 * validation, errors, tenants, helpers), so a test that passes here passes against a
 * server. Why msw: it intercepts `globalThis.fetch`, so the code under test runs
 * unchanged, with no custom fetch and no port; the handlers hand each request straight
 * to the app's web-standard `fetch`. Why in-memory SQLite: a fresh database costs
 * milliseconds, so every test can start from the same known data with `reset()`.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createTestServer } from 'adis-server/testing';
 *
 * const kit = createTestServer({ seed: { people: 20 } });
 * const server = setupServer(...kit.handlers);
 * server.listen();
 * const res = await fetch(kit.entryPoint, { headers: { 'STD-API-Token': kit.keys.read } });
 * ```
 *
 * @module
 */
import { Hono } from 'hono';
import { type HttpHandler, http } from 'msw';
import { type AppOptions, createApp, defaultRegistry } from './http/app.js';
import type { AppEnv } from './http/env.js';
import { SPECIFICATION_PRESET } from './presets/specification.js';

// The presets a kit takes under `app.preset`, importable from 'adis-server/testing'.
export {
  ACTION_NETWORK_PRESET,
  type ServingPreset,
  SPECIFICATION_PRESET,
} from './presets/index.js';

import { seedPeople } from './seed.js';
import { seedActivity } from './seed-activity.js';
import { type RunningServer, startServer } from './server.js';
import { closeStorageWhenIdle, SHUTDOWN_GRACE_MS } from './shutdown.js';
import { openStorage } from './storage/sqlite.js';
import type { Access, Storage } from './storage/storage.js';
import { kitWebhooks, type TestWebhooks } from './webhooks/kit-webhooks.js';

export type {
  TestWebhookDeliverOptions,
  TestWebhookDelivery,
  TestWebhookHandler,
  TestWebhookSubscribeOptions,
  TestWebhookSubscription,
  TestWebhooks,
} from './webhooks/kit-webhooks.js';

/**
 * An API key the test server accepts.
 */
export interface TestKey {
  /** What the client sends in the key header. */
  token: string;
  /** Tenant the key belongs to; created when missing. */
  tenant: string;
  /** `read` allows GET only; `write` allows every method. */
  access: Access;
}

/**
 * The keys of a test server created without `keys`: two tenants, so that tests can
 * check isolation, and a read-only key, so that they can check refused writes.
 *
 * @example
 * ```ts
 * import { createTestServer } from 'adis-server/testing';
 *
 * const kit = createTestServer();
 * kit.keys.write; // tenant 'demo', write
 * kit.keys.read; // tenant 'demo', read only
 * kit.keys.other; // tenant 'other', write
 * ```
 */
export interface DefaultKeys {
  readonly write: string;
  readonly read: string;
  readonly other: string;
}

/**
 * Demo data loaded into every fresh database (at creation and at each `reset()`).
 */
export interface TestSeed {
  /** Demo people to create. Default 60 (as many as the activity involves). */
  people?: number;
  /**
   * Also create organizing activity (petitions with signatures, events with
   * attendances, donations, tags…) for the first 60 people, and the preset's own demo
   * data (Action Network's event campaigns, campaigns, custom fields…). Default false.
   */
  activity?: boolean;
  /** PRNG seed: the same number gives the same names, emails and activity. Default 1. */
  seed?: number;
  /** Tenant that receives the data. Default `demo`. */
  tenant?: string;
  /**
   * The moment the activity is dated around (events after it, actions before it).
   * Default: when the test server was created, so resets repeat the same dates; give
   * a fixed date for identical documents across test runs.
   */
  now?: Date;
}

/**
 * Options of {@link createTestServer}.
 *
 * @example
 * ```ts
 * import type { TestServerOptions } from 'adis-server/testing';
 *
 * const options: TestServerOptions = {
 *   origin: 'https://crm.example.org',
 *   seed: { people: 250 },
 *   app: { maxPageSize: 25 },
 * };
 * ```
 */
export interface TestServerOptions {
  /**
   * Absolute http(s) origin the handlers answer for. The entry point is
   * `${origin}/api/v1/`. Default `http://adis.test` (the `.test` top-level domain is
   * reserved, so no real host is ever shadowed).
   */
  origin?: string;
  /** Demo data of each fresh database; `false` (the default) leaves it empty. */
  seed?: false | TestSeed;
  /** API keys. Default: {@link DefaultKeys}. */
  keys?: readonly TestKey[];
  /**
   * Options of `createApp`. Differences from its defaults: `anonymousRateLimit` is
   * `false` (in-process calls have no client address, so they would all share one
   * bucket and a test's anonymous calls would start failing with 429 after ten), and
   * `logError` discards reports (the 500 response already carries the reference).
   * `{ preset: ACTION_NETWORK_PRESET }` makes the kit answer as Action Network
   * documents its API (`/api/v2/`, `OSDI-API-Token`, `osdi:` relations, 4 calls a
   * second per key, its addresses, vocabulary and collections), for code written for
   * it; tenants then get its namespace (`action_network:<id>`).
   */
  app?: Omit<AppOptions, 'storage'>;
  /**
   * Makes the database of the server and of each `reset()`, given the namespace of the
   * tenants it creates. Default: a new in-memory SQLite database. Give a function to run
   * the same tests on another engine (the SDK's own tests make a PostgreSQL schema).
   */
  database?: (options: { defaultNamespace: string }) => Storage;
}

/**
 * A reference server running in-process for tests. `Keys` is {@link DefaultKeys}, or
 * the list given as the `keys` option.
 *
 * @example
 * ```ts
 * import { createTestServer } from 'adis-server/testing';
 *
 * const kit = createTestServer();
 * const res = await kit.fetch(kit.entryPoint, { headers: { 'STD-API-Token': kit.keys.write } });
 * await kit.close();
 * ```
 */
export interface TestServer<Keys = DefaultKeys> {
  /** The origin the handlers answer for, without a trailing slash. */
  readonly origin: string;
  /** `${origin}/api/v1/` (a preset's path, `/api/v2/` for Action Network's): where a client connects. */
  readonly entryPoint: string;
  /** The default keys, or the `keys` option as given. */
  readonly keys: Keys;
  /**
   * msw handlers that send every request to `${origin}/…` to the app, whatever the
   * method; other origins are left to other handlers.
   */
  readonly handlers: readonly HttpHandler[];
  /** Calls the app directly, whatever the URL's origin: no msw, no socket. */
  readonly fetch: typeof globalThis.fetch;
  /**
   * The current database; a new one after each `reset()`. Its keys and seed are written
   * as the server is made: requests wait for them, code that uses `storage` directly
   * awaits {@link TestServer.ready} first.
   */
  readonly storage: Storage;
  /**
   * Resolves once the current database has its keys and seed (rejects if writing them
   * failed). Requests wait for it by themselves.
   *
   * @example
   * ```ts
   * import { seedActivity } from 'adis-server';
   * import { createTestServer } from 'adis-server/testing';
   *
   * const kit = createTestServer({ seed: { people: 20 } });
   * await kit.ready();
   * await seedActivity(kit.storage, { tenant: 'demo' });
   * ```
   */
  ready(): Promise<void>;
  /**
   * The token of a key of `tenant` with `access`.
   *
   * @throws {Error} when no such key was configured.
   */
  key(tenant: string, access: Access): string;
  /**
   * Replaces the database with a fresh one holding the same keys and the same seed
   * data. Handlers, `fetch` and listening servers serve the new one from then on.
   */
  reset(): void;
  /** Serves the same app over real HTTP on a free loopback port (closed by `close()`). */
  listen(): Promise<RunningServer>;
  /**
   * The server's webhooks: subscribe a Fetch handler (called directly, no network),
   * then `deliver()` sends what the writes since made, exactly as the server's worker
   * would (Action Network's array, signed, batched, in order); every delivery is kept in
   * `deliveries`. `reset()` forgets them, with the subscriptions.
   *
   * @example
   * ```ts
   * import { webhookHandler } from 'adis-sdk/webhooks';
   * import { createTestServer } from 'adis-server/testing';
   * import { expect } from 'vitest';
   * // The code under test, which writes to the server at `entryPoint`.
   * declare function signPetition(entryPoint: string, comments: string): Promise<void>;
   *
   * const kit = createTestServer();
   * const comments: string[] = [];
   * await kit.webhooks.subscribe({
   *   secret: 'whsec_test',
   *   handler: webhookHandler({
   *     secret: 'whsec_test',
   *     on: { signature: (event) => void comments.push(event.record.comments ?? '') },
   *   }),
   * });
   * await signPetition(kit.entryPoint, 'Count me in'); // the code under test, writing to the kit's server
   * await kit.webhooks.deliver();
   * expect(comments).toEqual(['Count me in']);
   * expect(kit.webhooks.deliveries[0]?.status).toBe(200);
   * ```
   */
  readonly webhooks: TestWebhooks;
  /** Stops listening servers and closes the database; later calls reject. */
  close(): Promise<void>;
}

const DEFAULT_ORIGIN = 'http://adis.test';
const DEFAULT_PEOPLE = 60;
const DEFAULT_KEYS: DefaultKeys = Object.freeze({
  write: 'demo-write-key',
  read: 'demo-read-key',
  other: 'other-write-key',
});
const DEFAULT_KEY_LIST: readonly TestKey[] = [
  { token: DEFAULT_KEYS.write, tenant: 'demo', access: 'write' },
  { token: DEFAULT_KEYS.read, tenant: 'demo', access: 'read' },
  { token: DEFAULT_KEYS.other, tenant: 'other', access: 'write' },
];

/** A seed with every default filled in. */
type ResolvedSeed = Required<TestSeed>;

/** The database and the app bound to it; both are replaced together by `reset()`. */
interface Backend {
  storage: Storage;
  app: Hono<AppEnv>;
  /** Resolves once the keys and the seed are written: requests wait for it. */
  ready: Promise<void>;
}

/**
 * Creates a reference server for tests: in-memory database, keys, optional demo data.
 * Checks the options here, so that a mistake fails at setup with its reason instead of
 * as a puzzling 401 or 404 in some test.
 *
 * @throws {TypeError} on an origin that is not an absolute http(s) origin, a key with
 *   an empty or non-printable token, a duplicate token, an empty tenant or an unknown
 *   access, or a seed that is not a whole number.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { afterAll, afterEach, beforeAll } from 'vitest';
 * import { createTestServer } from 'adis-server/testing';
 *
 * const kit = createTestServer({ seed: { people: 30 } });
 * const server = setupServer(...kit.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * afterEach(() => kit.reset());
 * afterAll(async () => { server.close(); await kit.close(); });
 * ```
 */
export function createTestServer(
  options?: TestServerOptions & { keys?: undefined },
): TestServer<DefaultKeys>;
export function createTestServer(
  options: TestServerOptions & { keys: readonly TestKey[] },
): TestServer<readonly TestKey[]>;
export function createTestServer(
  options?: TestServerOptions,
): TestServer<DefaultKeys | readonly TestKey[]>;
export function createTestServer(
  options: TestServerOptions = {},
): TestServer<DefaultKeys | readonly TestKey[]> {
  const origin = checkOrigin(options.origin ?? DEFAULT_ORIGIN);
  const keyList = options.keys === undefined ? DEFAULT_KEY_LIST : checkKeys(options.keys);
  const seed = resolveSeed(options.seed ?? false);
  const preset = options.app?.preset ?? SPECIFICATION_PRESET;
  const appOptions: Omit<AppOptions, 'storage'> = {
    anonymousRateLimit: false,
    logError: () => undefined,
    ...options.app,
  };
  const fresh = (): Backend => {
    // Tenants get the preset's namespace: identifiers `action_network:<id>` under Action Network's.
    const defaultNamespace = preset.namespace;
    const storage = options.database
      ? options.database({ defaultNamespace })
      : openStorage(':memory:', { defaultNamespace });
    const write = async () => {
      await storage.transaction(async () => {
        for (const key of keyList)
          await storage.tenants.putApiKey(key.token, key.tenant, key.access);
      });
      if (seed) {
        await seedPeople(storage, { tenant: seed.tenant, count: seed.people, seed: seed.seed });
        if (seed.activity) {
          const registry = defaultRegistry(preset);
          await seedActivity(storage, {
            tenant: seed.tenant,
            seed: seed.seed,
            now: seed.now,
            registry,
          });
          await preset.seed?.(storage, { tenant: seed.tenant, seed: seed.seed, registry });
        }
      }
    };
    const ready = write();
    // Its failure is every request's answer (dispatch awaits it), never unhandled.
    ready.catch(() => undefined);
    return { storage, app: createApp({ ...appOptions, storage }), ready };
  };

  // Mutable on purpose: handlers, fetch and listening servers look it up per request,
  // so after reset() they all reach the new database without being rebuilt.
  let backend: Backend | undefined = fresh();
  const running: RunningServer[] = [];
  const current = (): Backend => {
    if (!backend) throw new Error(`the ADIS test server for ${origin} is closed`);
    return backend;
  };
  // `env` carries @hono/node-server's bindings under listen(): the app reads the
  // client's address from them.
  const dispatch = async (request: Request, env?: unknown): Promise<Response> => {
    const { app, ready } = current();
    await ready;
    return app.fetch(request, env);
  };
  const overHttp = new Hono<AppEnv>().all('*', (c) => dispatch(c.req.raw, c.env));
  const webhooks = kitWebhooks({
    origin,
    defaultTenant: keyList[0]?.tenant ?? 'demo',
    backend: current,
  });

  return {
    origin,
    entryPoint: `${origin}${preset.apiPrefix}/`,
    keys: options.keys === undefined ? DEFAULT_KEYS : keyList,
    handlers: [http.all(`${origin}/*`, ({ request }) => dispatch(request))],
    fetch: async (input, init) => dispatch(new Request(input, init)),
    get storage() {
      return current().storage;
    },
    ready: () => current().ready,
    webhooks,
    key(tenant, access) {
      const found = keyList.find((key) => key.tenant === tenant && key.access === access);
      if (!found) throw new Error(`no ${access} key of tenant '${tenant}' was configured`);
      return found.token;
    },
    reset() {
      const previous = current();
      webhooks.reset();
      backend = fresh();
      // Work accepted in the background finishes on the old database first.
      void closeStorageWhenIdle(previous.storage);
    },
    async listen() {
      await current().ready;
      const server = await startServer({ app: overHttp, port: 0, host: '127.0.0.1' });
      running.push(server);
      // The app served is the kit's dispatcher, which knows no preset: the entry point is
      // the preset's (`/api/v2/` under Action Network's), not the default path.
      return { ...server, entryPoint: `${server.url}${preset.apiPrefix}/` };
    },
    async close() {
      if (!backend) return;
      const closing = backend;
      backend = undefined;
      // A server the test closed itself would make close() reject.
      const listening = running.splice(0).filter((server) => server.server.listening);
      try {
        await Promise.all(listening.map((server) => server.close()));
        await webhooks.close(SHUTDOWN_GRACE_MS);
      } finally {
        // Work accepted in the background is done before the database closes.
        await closeStorageWhenIdle(closing.storage);
      }
    },
  };
}

function checkOrigin(origin: string): string {
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const bare = url && url.pathname === '/' && url.search === '' && url.hash === '';
  if (!url || !/^https?:$/.test(url.protocol) || !bare || url.username || url.password) {
    throw new TypeError(
      `origin must be an absolute http(s) origin such as 'http://adis.test' (no path, query or credentials), got ${JSON.stringify(origin)}`,
    );
  }
  return url.origin;
}

function checkKeys(keys: readonly TestKey[]): readonly TestKey[] {
  const tokens = new Set<string>();
  for (const [index, key] of keys.entries()) {
    const where = `keys[${index}]`;
    // Printable ASCII without spaces: HTTP trims header values and fetch refuses
    // control characters, so any other token could never be sent as written.
    if (typeof key.token !== 'string' || !/^[\x21-\x7e]+$/.test(key.token)) {
      throw new TypeError(`${where}.token must be non-empty printable ASCII without spaces`);
    }
    if (tokens.has(key.token)) {
      // The storage would keep only the last one, silently moving it to another tenant.
      throw new TypeError(`${where}.token ${JSON.stringify(key.token)} is listed twice`);
    }
    tokens.add(key.token);
    if (typeof key.tenant !== 'string' || key.tenant.trim() === '') {
      throw new TypeError(`${where}.tenant must be a non-empty string`);
    }
    if (key.access !== 'read' && key.access !== 'write') {
      throw new TypeError(
        `${where}.access must be 'read' or 'write', got ${JSON.stringify(key.access)}`,
      );
    }
  }
  return Object.freeze(keys.map((key) => Object.freeze({ ...key })));
}

function resolveSeed(seed: false | TestSeed): ResolvedSeed | undefined {
  if (seed === false) return undefined;
  const people = seed.people ?? DEFAULT_PEOPLE;
  if (!Number.isSafeInteger(people) || people < 0) {
    throw new TypeError(`seed.people must be a whole number from 0, got ${people}`);
  }
  const number = seed.seed ?? 1;
  if (!Number.isSafeInteger(number)) {
    throw new TypeError(`seed.seed must be a whole number, got ${number}`);
  }
  const tenant = seed.tenant ?? 'demo';
  if (tenant.trim() === '') throw new TypeError('seed.tenant must be a non-empty string');
  const now = seed.now ?? new Date();
  if (Number.isNaN(now.getTime())) throw new TypeError('seed.now must be a valid date');
  return { people, activity: seed.activity ?? false, seed: number, tenant, now };
}

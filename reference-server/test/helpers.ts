import {
  createApp,
  type ErrorDescription,
  openStorage,
  type SqliteStorage,
  type Storage,
} from '../src/index.js';
import type { ServingPreset } from '../src/presets/serving-preset.js';
import { settleAfterTest, testStorage } from './engine.js';

export const WRITE = 'write-key-000000';
export const READ = 'read-key-0000000';
export const OTHER = 'other-tenant-key';
export const ORIGIN = 'http://adis.test';

export interface Call {
  body?: unknown;
  raw?: string;
  key?: string | null;
  headers?: Record<string, string>;
}

export interface Harness<S extends Storage = Storage> {
  storage: S;
  app: ReturnType<typeof createApp>;
  /** Resolves once the test keys are stored; `call` and `json` wait for it. */
  ready: Promise<void>;
  call(method: string, path: string, options?: Call): Promise<Response>;
  json(
    method: string,
    path: string,
    options?: Call,
  ): Promise<{ status: number; body: Json; res: Response }>;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read deep JSON freely
export type Json = any;

/**
 * The server in-process on a new, empty storage (SQLite in memory, or PostgreSQL with
 * `ADIS_TEST_ENGINE=postgres`: see engine.ts), with the three test keys.
 */
export function harness(options: Partial<Parameters<typeof createApp>[0]> = {}): Harness {
  const { storage, ready } = testStorage();
  const app = createApp({ storage, logError: () => {}, ...options });
  return harnessOf(storage, ready, app, 'STD-API-Token');
}

/** {@link harness} on SQLite whatever the run's engine: for tests that look into the file. */
export function sqliteHarness(
  options: Partial<Parameters<typeof createApp>[0]> = {},
): Harness<SqliteStorage> {
  const storage = openStorage(':memory:');
  const app = createApp({ storage, logError: () => {}, ...options });
  return harnessOf(storage, Promise.resolve(), app, 'STD-API-Token');
}

/**
 * A harness of the server under `preset`: tenants in its namespace, calls carrying the
 * key in its header (`key: null` leaves it out), paths as the caller writes them
 * (`/api/v2/people`). The preset's key rate is off unless `options` sets it.
 */
export function presetHarness(
  preset: ServingPreset,
  options: Partial<Parameters<typeof createApp>[0]> = {},
): Harness {
  const { storage, ready } = testStorage(preset.namespace);
  const app = createApp({ storage, logError: () => {}, preset, keyRateLimit: false, ...options });
  return harnessOf(storage, ready, app, options.apiKeyHeader ?? preset.apiKeyHeader);
}

/** Stores the three keys the tests use: write and read for acme, write for other. */
async function putKeys(storage: Storage, opened: Promise<void>): Promise<void> {
  await opened;
  await storage.tenants.putApiKey(WRITE, 'acme', 'write');
  await storage.tenants.putApiKey(READ, 'acme', 'read');
  await storage.tenants.putApiKey(OTHER, 'other', 'write');
}

/**
 * Calls to `app` with the key (WRITE unless told otherwise) in `header`. The keys are
 * written now and awaited by every call, so the harness is ready to use when returned.
 */
function harnessOf<S extends Storage>(
  storage: S,
  opened: Promise<void>,
  app: Harness['app'],
  header: string,
): Harness<S> {
  const ready = putKeys(storage, opened);
  // Its failure is every call's answer (they await it), never an unhandled rejection.
  ready.catch(() => undefined);
  settleAfterTest(ready);
  const call = async (method: string, path: string, opts: Call = {}) => {
    await ready;
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== null) headers[header] = opts.key ?? WRITE;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const url = path.startsWith('http') ? path : `${ORIGIN}${path}`;
    return app.fetch(new Request(url, { method, headers, body }));
  };
  return {
    storage,
    app,
    ready,
    call,
    async json(method, path, opts) {
      const res = await call(method, path, opts);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
    },
  };
}

export function errorOf(body: Json): ErrorDescription[] {
  return body['std:error'].resource_status[0].error_descriptions;
}

/**
 * The reference server with its Action Network preset, in-process, called the way
 * integrations written for Action Network call it: URLs built by hand from the layout
 * its documentation gives (`/api/v2/petitions/{id}/signatures/{id}`), the id being the
 * identifier `action_network:<id>` of an earlier answer without its prefix, and the key
 * in `OSDI-API-Token`.
 */
import { expect } from 'vitest';
import {
  type AppOptions,
  createApp,
  defaultRegistry,
  seedActivity,
  seedPeople,
} from '../../src/index.js';
import { ACTION_NETWORK_PRESET } from '../../src/presets/index.js';
import type { Storage } from '../../src/storage/storage.js';
import { settleAfterTest, testStorage } from '../engine.js';
import type { Json } from '../helpers.js';

export type { Json } from '../helpers.js';

export const ORIGIN = 'https://an.test';
/** Root of every documented URL: `https://actionnetwork.org/api/v2` there. */
export const API = `${ORIGIN}/api/v2`;
export const WRITE_KEY = 'an-write-key-0001';
export const READ_KEY = 'an-read-key-00001';
export const OTHER_GROUP_KEY = 'an-other-group-01';
/** The tenant (an Action Network group) the write and read keys belong to. */
export const GROUP = 'alder-neighbors';

/** What a call answered: status, parsed body (undefined when empty) and the response. */
export interface Answer {
  status: number;
  body: Json;
  res: Response;
}

export interface CallOptions {
  /** The key sent in OSDI-API-Token; `null` sends none. Default: the write key. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface ActionNetworkServer {
  /**
   * The server's database: `backgroundIdle(an.storage)` (src/http/background.ts) waits
   * for the work of calls accepted with `?background_request=true`.
   */
  storage: Storage;
  /** Calls `method` on `path` (below `/api/v2/`, or an absolute URL) with a JSON body. */
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<Answer>;
  get(path: string, options?: CallOptions): Promise<Answer>;
  post(path: string, body: unknown, options?: CallOptions): Promise<Answer>;
  put(path: string, body: unknown, options?: CallOptions): Promise<Answer>;
  delete(path: string, options?: CallOptions): Promise<Answer>;
}

export interface ServerOptions {
  /** Demo people and their organizing activity (lists with items among it). Default: none. */
  seedPeople?: number;
  /** Overrides of the preset (the key rate is off unless a test turns it on). */
  app?: Partial<Omit<AppOptions, 'storage' | 'preset'>>;
}

/**
 * A fresh server with Action Network's preset: a group with a write key and a read key,
 * and another group with its own key. The preset's 4 calls a second per key is off
 * unless `options.app.keyRateLimit` sets it, so that tests can make many calls.
 *
 * @example
 * ```ts
 * const an = actionNetworkServer();
 * const { body } = await an.post('petitions', { title: 'Keep the branch open' });
 * await an.get(`petitions/${nativeId(body)}`);
 * ```
 */
export function actionNetworkServer(options: ServerOptions = {}): ActionNetworkServer {
  // SQLite in memory, or PostgreSQL with ADIS_TEST_ENGINE=postgres (../engine.ts).
  const { storage, ready: opened } = testStorage(ACTION_NETWORK_PRESET.namespace);
  // Written now, awaited by every call: the server is ready to use when returned.
  const ready = (async () => {
    await opened;
    await storage.tenants.putApiKey(WRITE_KEY, GROUP, 'write');
    await storage.tenants.putApiKey(READ_KEY, GROUP, 'read');
    await storage.tenants.putApiKey(OTHER_GROUP_KEY, 'river-friends', 'write');
    if (options.seedPeople) {
      await seedPeople(storage, { tenant: GROUP, count: options.seedPeople, seed: 21 });
      // Written with the preset's kinds, as the server's own seeding does: its derived
      // members (native ids) are stored, and lists and items are written though read only.
      await seedActivity(storage, {
        tenant: GROUP,
        seed: 21,
        people: options.seedPeople,
        registry: defaultRegistry(ACTION_NETWORK_PRESET),
      });
    }
  })();
  // Its failure is every call's answer (they await it), never an unhandled rejection.
  ready.catch(() => undefined);
  settleAfterTest(ready);
  const app = createApp({
    storage,
    preset: ACTION_NETWORK_PRESET,
    keyRateLimit: false,
    anonymousRateLimit: false,
    logError: () => undefined,
    ...options.app,
  });
  const call = async (method: string, path: string, body?: unknown, opts: CallOptions = {}) => {
    await ready;
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== null) headers['OSDI-API-Token'] = opts.key ?? WRITE_KEY;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const url = path.startsWith('http') ? path : `${API}/${path}`;
    const res = await app.fetch(
      new Request(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    let parsed: Json;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, res };
  };
  return {
    storage,
    call,
    get: (path, opts) => call('GET', path, undefined, opts),
    post: (path, body, opts) => call('POST', path, body, opts),
    put: (path, body, opts) => call('PUT', path, body, opts),
    delete: (path, opts) => call('DELETE', path, undefined, opts),
  };
}

/**
 * The id to build a URL with: the identifier `action_network:<id>` without its prefix,
 * as Action Network's documentation says to address a record.
 *
 * @example
 * ```ts
 * nativeId({ identifiers: ['crm:7', 'action_network:9f1c'] }); // '9f1c'
 * ```
 */
export function nativeId(record: Json): string {
  const found = (record?.identifiers ?? []).find(
    (identifier: unknown) =>
      typeof identifier === 'string' && identifier.startsWith('action_network:'),
  );
  expect(
    found,
    `no action_network: identifier in ${JSON.stringify(record)?.slice(0, 300)}`,
  ).toEqual(expect.any(String));
  return (found as string).slice('action_network:'.length);
}

/**
 * Checks a write's answer: Action Network's samples answer 200 OK with the record; a
 * 201 Created is accepted too (integrations check for a 2xx).
 *
 * @example
 * ```ts
 * const petition = written(await an.post('petitions', { title: 'Keep the branch open' }));
 * ```
 */
export function written(answer: Answer): Json {
  expect([200, 201], JSON.stringify(answer.body)?.slice(0, 600)).toContain(answer.status);
  return answer.body;
}

/**
 * Checks a read's answer is 200 and gives its body.
 *
 * @example
 * ```ts
 * const petition = read(await an.get(`petitions/${id}`));
 * ```
 */
export function read(answer: Answer): Json {
  expect(answer.status, JSON.stringify(answer.body)?.slice(0, 600)).toBe(200);
  return answer.body;
}

/**
 * The documented shape of every record: identifiers with its `action_network:<id>`,
 * created and modified dates, its `self` link at `path` (below `/api/v2/`), and the two
 * curies `osdi` and `action_network` with the same href.
 *
 * @example
 * ```ts
 * expectRecord(signature, `petitions/${petitionId}/signatures/${nativeId(signature)}`);
 * ```
 */
export function expectRecord(record: Json, path: string): void {
  const id = nativeId(record);
  expect(path).toContain(id);
  expect(record.created_date).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/));
  expect(record.modified_date).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/));
  expect(record._links?.self?.href).toBe(`${API}/${path}`);
  expectCuries(record);
}

/**
 * The curies Action Network writes on each top-level document: `osdi` and
 * `action_network`, templated, with the same href.
 *
 * @example
 * ```ts
 * expectCuries(read(await an.get('')));
 * ```
 */
export function expectCuries(document: Json): void {
  const curies: Json[] = document._links?.curies ?? [];
  expect(curies.map((curie) => curie.name).sort()).toEqual(['action_network', 'osdi']);
  for (const curie of curies) expect(curie.templated).toBe(true);
  expect(curies[0]?.href).toBe(curies[1]?.href);
}

/**
 * The documented shape of a collection page: `per_page`, `page`, the records embedded
 * under `rel` and linked under it as an array, a `self` link; totals only where
 * Action Network gives them (never on people and items; `'either'` where its
 * documentation does not say).
 *
 * @example
 * ```ts
 * const page = expectPage(read(await an.get('petitions')), 'osdi:petitions', { totals: true });
 * ```
 */
export function expectPage(
  page: Json,
  rel: string,
  options: { totals: boolean | 'either' },
): Json[] {
  expect(page.per_page).toEqual(expect.any(Number));
  expect(page.page).toEqual(expect.any(Number));
  if (options.totals === 'either') {
    // The documentation does not say for this collection.
  } else if (options.totals) {
    expect(page.total_records).toEqual(expect.any(Number));
    expect(page.total_pages).toEqual(expect.any(Number));
  } else {
    expect(page).not.toHaveProperty('total_records');
    expect(page).not.toHaveProperty('total_pages');
  }
  expect(page._links?.self?.href).toEqual(expect.stringContaining(API));
  expectCuries(page);
  const records: Json[] = page._embedded?.[rel] ?? [];
  expect(Array.isArray(page._embedded?.[rel]), `no _embedded['${rel}']`).toBe(true);
  const linked: Json[] = page._links?.[rel] ?? [];
  expect(linked.map((link) => link.href)).toEqual(records.map((record) => record._links.self.href));
  return records;
}

/** A person hash as the helpers take it, with invented data. */
export function personHash(given: string, family: string, email: string): Json {
  return {
    given_name: given,
    family_name: family,
    email_addresses: [{ address: email }],
    postal_addresses: [{ postal_code: '97211', country: 'US' }],
  };
}

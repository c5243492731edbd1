/**
 * adis-server as a package to build on: everything here is reached through the public
 * entries alone (`../src/index.js`, which is `adis-server`, and the SDK's `adis-sdk/schema`
 * and `adis-sdk/server-kit`), as a user of the package reaches it. The surface itself is
 * recorded in api/adis-server.api.md (npm run check:api); this file checks that what is
 * there is enough to serve a kind of one's own and to sign people up in process, and that
 * the internals left it.
 */
import { defineKind, optional } from 'adis-sdk/schema';
import { DEFAULT_API_KEY_HEADER } from 'adis-sdk/server-kit';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import * as adisServer from '../src/index.js';
import {
  createApp,
  defaultRegistry,
  entryPointPath,
  openStorage,
  type SqliteStorage,
  serveKind,
  signUpPerson,
} from '../src/index.js';

const ORIGIN = 'http://library.test';
const KEY = 'library-key';

/** A kind the specification does not have, declared as any user would declare one. */
const surveyKind = defineKind({
  singular: 'survey',
  plural: 'surveys',
  description: 'A survey people answer',
  shape: () => ({ title: optional(z.string()), question_count: optional(z.number()) }),
});

const opened: SqliteStorage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

async function keyedStorage(): Promise<SqliteStorage> {
  const storage = openStorage(':memory:');
  opened.push(storage);
  await storage.tenants.putApiKey(KEY, 'demo', 'write');
  return storage;
}

/** One JSON call through `app.fetch`, keyed. */
async function call(
  app: ReturnType<typeof createApp>,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await app.fetch(
    new Request(new URL(url, ORIGIN), {
      method,
      headers: { [DEFAULT_API_KEY_HEADER]: KEY, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The href of `rel` in a document's `_links`, failing loudly when it is missing. */
function hrefOf(document: Record<string, unknown>, rel: string): string {
  const links = document._links as Record<string, { href?: string }> | undefined;
  const href = links?.[rel]?.href;
  if (typeof href !== 'string') throw new Error(`no ${rel} link in ${JSON.stringify(document)}`);
  return href;
}

describe('adis-server, from its public entry', () => {
  it('serves a kind of one’s own: serveKind over a defineKind declaration, in a registry', async () => {
    const storage = await keyedStorage();
    const registry = defaultRegistry().register(
      serveKind(surveyKind, { requiredOnCreate: ['title'] }),
    );
    const app = createApp({ storage, registry });
    const entry = await call(app, 'GET', entryPointPath(app));
    expect(entry.status).toBe(200);
    const surveys = hrefOf(entry.json, 'std:surveys');

    const refused = await call(app, 'POST', surveys, { question_count: 3 });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json)).toContain('title');

    const created = await call(app, 'POST', surveys, { title: 'Transit', question_count: 3 });
    expect(created.status).toBe(201);
    const read = await call(app, 'GET', hrefOf(created.json, 'self'));
    expect(read.json).toMatchObject({ title: 'Transit', question_count: 3 });
    const page = await call(app, 'GET', surveys);
    expect(page.json.total_records).toBe(1);
  });

  it('signs a person up in process (signUpPerson), and the app serves her', async () => {
    const storage = await keyedStorage();
    const registry = defaultRegistry();
    const tenant = await storage.tenants.ensure('demo');
    const body = {
      person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
    };
    const first = await signUpPerson({ storage, registry, tenant }, body);
    const again = await signUpPerson({ storage, registry, tenant }, body);
    expect([first.created, again.created]).toEqual([true, false]);
    expect(again.record.id).toBe(first.record.id);

    const app = createApp({ storage, registry });
    const people = hrefOf((await call(app, 'GET', entryPointPath(app))).json, 'std:people');
    const page = await call(app, 'GET', people);
    expect(page.json.total_records).toBe(1);
  });

  it('refuses an unknown vocabulary value in process as over HTTP (strict by default)', async () => {
    const storage = await keyedStorage();
    const tenant = await storage.tenants.ensure('demo');
    const body = {
      person: { email_addresses: [{ address: 'bo@example.org', status: 'previous bounce' }] },
    };
    await expect(
      signUpPerson({ storage, registry: defaultRegistry(), tenant }, body),
    ).rejects.toMatchObject({ status: 400 });
    const extended = await signUpPerson(
      { storage, registry: defaultRegistry(), tenant, vocabulary: 'extended' },
      body,
    );
    expect(extended.created).toBe(true);
  });

  it('exports no internals: paging plans, the record service, migrations, hashing, the PRNG', () => {
    const names = Object.keys(adisServer);
    for (const internal of [
      'planPage',
      'parsePageRequest',
      'totalPages',
      'RecordService',
      'MIGRATIONS',
      'SqliteEngine',
      'hashToken',
      'prng',
      'personKind',
      'parsePerson',
      'describeActivity',
    ]) {
      expect(names).not.toContain(internal);
    }
    // The names that mean another thing in the SDK are the server's own.
    expect(names).toEqual(expect.arrayContaining(['SERVING_PRESETS', 'signUpPerson']));
    expect(names).not.toContain('SERVER_PRESETS');
    expect(names).not.toContain('personSignup');
  });
});

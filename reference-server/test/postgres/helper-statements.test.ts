/**
 * The statements a record signature helper call sends to PostgreSQL (issue 48: at most
 * 8, the bare signup app's count): counted as the driver is asked to send them, on a
 * server whose connection has run the call's statements once already. The tag an
 * `add_tags` names comes with its look-up, locked as a read of it locks it
 * (`LookupOptions.read`), and is not read again.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.js';
import { openPostgresStorage, type PostgresStorage } from '../../src/storage/postgres.js';
import type { Json } from '../helpers.js';
import { type FreshDatabase, freshDatabase } from './database.js';

const KEY = 'statements-write-key';
let db: FreshDatabase;
let storage: PostgresStorage;
let app: ReturnType<typeof createApp>;
/** The SQL texts the storage's connections were asked to run, in order. */
const sent: string[] = [];

beforeAll(async () => {
  db = await freshDatabase('helper_statements');
  storage = await openPostgresStorage(db.url, { poolSize: 1 });
  await storage.tenants.putApiKey(KEY, 'acme', 'write');
  app = createApp({ storage, logError: () => {}, anonymousRateLimit: false });
  // Every client the pool hands out, once (the one migrations used comes back).
  const spied = new WeakSet<pg.PoolClient>();
  storage.connection.pool.on('acquire', (client) => {
    if (spied.has(client)) return;
    spied.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const [first] = args;
      sent.push(typeof first === 'string' ? first : String((first as pg.QueryConfig).text));
      return query(...args);
    };
  });
});
afterAll(async () => {
  await storage?.close();
  await db?.drop();
});

async function post(path: string, body: unknown) {
  const url = path.startsWith('http') ? path : `http://adis.test/api/v1/${path}`;
  const res = await app.fetch(
    new Request(url, {
      method: 'POST',
      headers: { 'STD-API-Token': KEY, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, body: (await res.json()) as Json };
}

describe('a record signature helper call on PostgreSQL', () => {
  it('sends 7 statements for a new person with add_tags, and the tag is linked', async () => {
    const petition = (await post('petitions', { title: 'Statements' })).body;
    await post('tags', { name: 'Counted' });
    const href = petition._links['std:record_signature_helper'].href as string;
    const sign = (n: number) =>
      post(href, {
        person: { email_addresses: [{ address: `signer${n}@example.org` }] },
        add_tags: ['Counted'],
      });
    // The first call prepares the statements on the one connection.
    expect((await sign(0)).status).toBe(201);
    const from = sent.length;
    const second = await sign(1);
    expect(second.status).toBe(201);
    // Reads that a cache renews at most once a second are not a call's: the API key's
    // look-up and which tenants have webhooks, which a slow run reaches again.
    const statements = sent
      .slice(from)
      .filter((text) => !/\bFROM (api_keys|webhook_subscriptions)\b/.test(text));
    // The petition, BEGIN, the email's lock, the person's key, the tag's key with its
    // record, the flush, COMMIT.
    expect(statements, statements.join('\n---\n')).toHaveLength(7);
    expect(statements.filter((s) => /FOR SHARE/.test(s))).toHaveLength(1);
    expect(statements.find((s) => /FOR SHARE/.test(s))).toMatch(
      /FROM record_keys k JOIN records r/,
    );
    // Linked as before: the person is tagged, and both signatures count.
    const person = second.body._embedded?.['osdi:person'] ?? second.body._embedded?.['std:person'];
    const self = (person?._links?.self?.href ?? second.body._links?.['std:person']?.href) as string;
    expect(self).toBeTypeOf('string');
    const taggings = await app.fetch(
      new Request(`${self}/taggings`, { headers: { 'STD-API-Token': KEY } }),
    );
    const page = (await taggings.json()) as Json;
    expect(page.total_records).toBe(1);
    const read = await app.fetch(
      new Request(petition._links.self.href, { headers: { 'STD-API-Token': KEY } }),
    );
    expect(((await read.json()) as Json).total_signatures).toBe(2);
  });
});

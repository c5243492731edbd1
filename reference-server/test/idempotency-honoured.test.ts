/**
 * How the server tells clients that it honours Idempotency-Key (the specification
 * defines no such header, so a client must not assume it): `Idempotency-Key-Honoured:
 * true` on every answer past authentication and the limits, the entry point's included,
 * and the key of a keyed POST echoed on its answer, replays and the 409 of a repeat in
 * progress included.
 */
import { describe, expect, it } from 'vitest';
import {
  createApp,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_HONOURED_HEADER,
  SqliteStorage,
} from '../src/index.js';
import { harness, ORIGIN, sqliteHarness, WRITE } from './helpers.js';
import { create, helperOf, person } from './helpers-setup.js';

const ANA = JSON.stringify(person('Ana', 'ana@example.org'));
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe(`${IDEMPOTENCY_KEY_HONOURED_HEADER}: true`, () => {
  it('is on the entry point, a page, a record and a refusal of the route', async () => {
    const h = harness();
    const created = await create(h, 'people', person('Ana'));
    for (const path of [
      '/api/v1/',
      '/api/v1/people',
      created._links.self.href,
      '/api/v1/people/none',
    ]) {
      const res = await h.call('GET', path);
      expect(res.headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER), path).toBe('true');
    }
  });

  it('is on POSTs with and without a key, and on a 400 of the route', async () => {
    const h = harness();
    const plain = await h.call('POST', '/api/v1/people', { raw: ANA, headers: JSON_TYPE });
    expect(plain.status).toBe(201);
    expect(plain.headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER)).toBe('true');
    expect(plain.headers.get(IDEMPOTENCY_KEY_HEADER)).toBeNull();
    const bad = await h.call('POST', '/api/v1/people', {
      body: { gendr: 'x' },
      headers: { [IDEMPOTENCY_KEY_HEADER]: 'bad-body' },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER)).toBe('true');
    expect(bad.headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('bad-body');
  });

  it('is not on refusals before the middleware (a wrong key): they say nothing of the server', async () => {
    const h = harness();
    const res = await h.call('GET', '/api/v1/', { key: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER)).toBeNull();
  });
});

describe('the key of a keyed POST, echoed', () => {
  it('on the first answer and on its replay, which stores no header of its own', async () => {
    const h = sqliteHarness();
    const headers = { ...JSON_TYPE, [IDEMPOTENCY_KEY_HEADER]: 'echo-1' };
    const first = await h.call('POST', '/api/v1/people', { raw: ANA, headers });
    const again = await h.call('POST', '/api/v1/people', { raw: ANA, headers });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    for (const res of [first, again]) {
      expect(res.headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('echo-1');
      expect(res.headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER)).toBe('true');
    }
    // The echo is added to each answer as it goes out, not stored with the answer.
    const row = h.storage.database
      .prepare("SELECT headers FROM idempotent_answers WHERE key = 'echo-1'")
      .get() as { headers: string } | undefined;
    expect(row?.headers).toContain('location');
    expect(row?.headers.toLowerCase()).not.toContain('idempotency-key');
  });

  it('on a helper call from a page (no API key)', async () => {
    const h = harness({ anonymousRateLimit: false });
    const petition = await create(h, 'petitions', { title: 'Echo' });
    const res = await h.call('POST', helperOf(petition, 'record_signature_helper'), {
      key: null,
      body: { person: person('Bo') },
      headers: { [IDEMPOTENCY_KEY_HEADER]: 'page-key' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('page-key');
  });

  it('on the 409 of a repeat that arrives while the first is still running', async () => {
    let syncing: (() => void) | undefined;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first POST's wait for durability (which keeps its key taken) lasts until the
    // test releases it, however slow the machine; later waits are not held.
    class HeldDisk extends SqliteStorage {
      override async durable(mark?: number): Promise<void> {
        const held = syncing;
        syncing = undefined;
        if (held) {
          held();
          await released;
        }
        return super.durable(mark);
      }
    }
    const storage = new HeldDisk(':memory:', { groupCommit: true });
    await storage.tenants.putApiKey(WRITE, 'acme', 'write');
    await storage.flush();
    const app = createApp({ storage, logError: () => {}, idempotency: { waitMs: 10 } });
    const post = () =>
      app.fetch(
        new Request(`${ORIGIN}/api/v1/people`, {
          method: 'POST',
          headers: { ...JSON_TYPE, 'STD-API-Token': WRITE, [IDEMPOTENCY_KEY_HEADER]: 'busy' },
          body: ANA,
        }),
      );
    const firstSyncing = new Promise<void>((resolve) => {
      syncing = resolve;
    });
    const first = post();
    // The first holds its key until its (held) commit is durable: repeat it meanwhile.
    await firstSyncing;
    const busy = await post();
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.headers.get(IDEMPOTENCY_KEY_HEADER)).toBe('busy');
    expect(busy.headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER)).toBe('true');
    release();
    expect((await first).status).toBe(201);
    await storage.close();
  });
});

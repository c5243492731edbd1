/**
 * Idempotency-Key on POSTs: a repeat gets the first answer byte for byte and writes
 * nothing; another request with the key is refused; keys are per tenant (and apart for
 * calls without an API key); a repeat during the first waits, within a bound; answers
 * expire after 24 hours, survive a restart, and commit with the writes they answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, openStorage, SqliteStorage } from '../src/index.js';
import {
  errorOf,
  type Harness,
  harness,
  type Json,
  ORIGIN,
  OTHER,
  sqliteHarness,
  WRITE,
} from './helpers.js';
import { create, helperOf, person } from './helpers-setup.js';

const DAY = 24 * 60 * 60 * 1000;
const dirs: string[] = [];
const opened: SqliteStorage[] = [];
/** Commits a test held (see HeldDisk): released before the storages close. */
const releases: (() => void)[] = [];

afterEach(async () => {
  for (const release of releases.splice(0)) release();
  for (const storage of opened.splice(0)) await storage.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One answer, read whole: what a replay must reproduce byte for byte. */
interface Answer {
  status: number;
  text: string;
  location: string | null;
  contentType: string | null;
  replayed: string | null;
  body: Json;
}

async function read(res: Response): Promise<Answer> {
  const text = await res.text();
  return {
    status: res.status,
    text,
    location: res.headers.get('location'),
    contentType: res.headers.get('content-type'),
    replayed: res.headers.get('idempotent-replayed'),
    body: text ? JSON.parse(text) : undefined,
  };
}

/** A POST with a raw body (so that its bytes are exactly these) and an Idempotency-Key. */
async function post(
  h: Pick<Harness, 'call'>,
  path: string,
  body: string,
  idempotencyKey: string | undefined,
  apiKey: string | null = WRITE,
): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  return read(await h.call('POST', path, { raw: body, key: apiKey, headers }));
}

async function total(h: Harness, path: string, key = WRITE): Promise<number> {
  return (await h.json('GET', path, { key })).body.total_records;
}

/** The fields a replay must repeat exactly (the replay marker aside). */
function same(answer: Answer) {
  const { replayed: _replayed, ...rest } = answer;
  return rest;
}

function answersStored(storage: SqliteStorage): number {
  return (
    storage.database.prepare('SELECT count(*) AS n FROM idempotent_answers').get() as { n: number }
  ).n;
}

const ANA = JSON.stringify(person('Ana', 'ana@example.org'));

/** A server on `storage` (closed after the test), called in-process with the write key. */
async function serve(storage: SqliteStorage, idempotency?: { waitMs?: number }) {
  opened.push(storage);
  await storage.tenants.putApiKey(WRITE, 'acme', 'write');
  await storage.flush();
  const app = createApp({ storage, logError: () => {}, ...(idempotency ? { idempotency } : {}) });
  const call: Harness['call'] = async (method, path, options = {}) =>
    app.fetch(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers: { 'STD-API-Token': WRITE, ...options.headers },
        body: options.raw,
      }),
    );
  return { storage, call };
}

describe('Idempotency-Key: replays', () => {
  it('a repeated create answers the first answer byte for byte and writes nothing', async () => {
    const h = sqliteHarness();
    const first = await post(h, '/api/v1/people', ANA, 'create-ana-1');
    expect(first.status).toBe(201);
    expect(first.location).toBe(first.body._links.self.href);
    expect(first.replayed).toBeNull();
    const commits = h.storage.commits;
    const again = await post(h, '/api/v1/people', ANA, 'create-ana-1');
    expect(same(again)).toEqual(same(first));
    expect(again.replayed).toBe('true');
    expect(h.storage.commits).toBe(commits);
    expect(await total(h, '/api/v1/people')).toBe(1);
  });

  it('a repeated helper call answers the first answer and adds no signature, person or total', async () => {
    const h = harness({ anonymousRateLimit: false });
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    const body = JSON.stringify({ comments: 'Keep it green', person: person('Bo', 'bo@x.org') });
    const first = await post(h, href, body, 'sign-bo');
    expect(first.status).toBe(201);
    const again = await post(h, href, body, 'sign-bo');
    expect(same(again)).toEqual(same(first));
    expect(again.replayed).toBe('true');
    expect(await total(h, '/api/v1/signatures')).toBe(1);
    expect(await total(h, '/api/v1/people')).toBe(1);
    expect((await h.json('GET', petition._links.self.href)).body.total_signatures).toBe(1);
  });

  it('calls without an API key are replayed too, apart from the tenant’s keyed calls', async () => {
    const h = harness({ anonymousRateLimit: false });
    const petition = await create(h, 'petitions', { title: 'P' });
    const href = helperOf(petition, 'record_signature_helper');
    const body = JSON.stringify({ person: person('Cy', 'cy@x.org') });
    const first = await post(h, href, body, 'page-key', null);
    expect(first).toMatchObject({ status: 200, body: {} });
    const again = await post(h, href, body, 'page-key', null);
    expect(same(again)).toEqual(same(first));
    expect(again.replayed).toBe('true');
    expect(await total(h, '/api/v1/signatures')).toBe(1);
    // The same key with an API key is another namespace: it runs, and answers as keyed
    // calls do (the signature, not `{}`).
    const keyed = await post(h, href, body, 'page-key');
    expect(keyed.replayed).toBeNull();
    expect(keyed.status).toBeLessThan(300);
    expect(keyed.body._links.self.href).toContain('/signatures/');
  });

  it('stores 4xx answers of the route, including a non-atomic 400 that wrote its person', async () => {
    const h = harness();
    const invalid = JSON.stringify({ given_name: 7 });
    const first = await post(h, '/api/v1/people', invalid, 'bad-person');
    expect(first.status).toBe(400);
    const again = await post(h, '/api/v1/people', invalid, 'bad-person');
    expect(same(again)).toEqual(same(first));
    expect(again.replayed).toBe('true');

    const petition = await create(h, 'petitions', { title: 'P' });
    const href = helperOf(petition, 'record_signature_helper');
    const partly = JSON.stringify({ person: person('Di', 'di@x.org'), add_tags: ['no-such-tag'] });
    const part = await post(h, href, partly, 'partly');
    expect(part.status).toBe(400);
    expect(part.body['std:error'].request_type).toBe('non-atomic');
    const repeat = await post(h, href, partly, 'partly');
    expect(same(repeat)).toEqual(same(part));
    expect(await total(h, '/api/v1/people')).toBe(1);
    expect(await total(h, '/api/v1/signatures')).toBe(1);
  });

  it('without the header, POSTs are not deduplicated', async () => {
    const h = sqliteHarness();
    expect((await post(h, '/api/v1/people', ANA, undefined)).status).toBe(201);
    expect((await post(h, '/api/v1/people', ANA, undefined)).status).toBe(201);
    expect(await total(h, '/api/v1/people')).toBe(2);
    expect(answersStored(h.storage)).toBe(0);
  });
});

describe('Idempotency-Key: refusals and scope', () => {
  it('the same key for another body, path or query: 422 IDEMPOTENCY_KEY_REUSED, nothing written', async () => {
    const h = harness();
    expect((await post(h, '/api/v1/people', ANA, 'k1')).status).toBe(201);
    const others = [
      post(h, '/api/v1/people', JSON.stringify(person('Eve')), 'k1'),
      // The same JSON in other bytes is another request: bodies are compared as sent.
      post(h, '/api/v1/people', `${ANA} `, 'k1'),
      post(h, '/api/v1/people?x=1', ANA, 'k1'),
      post(h, '/api/v1/petitions', JSON.stringify({ title: 'T' }), 'k1'),
    ];
    for (const answer of await Promise.all(others)) {
      expect(answer.status).toBe(422);
      expect(errorOf(answer.body)[0]?.error_code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(errorOf(answer.body)[0]?.description).toContain('Idempotency-Key');
    }
    expect(await total(h, '/api/v1/people')).toBe(1);
    expect(await total(h, '/api/v1/petitions')).toBe(0);
  });

  it('keys are per tenant: two tenants may use the same key', async () => {
    const h = harness();
    const acme = await post(h, '/api/v1/people', ANA, 'shared-key');
    const other = await post(h, '/api/v1/people', ANA, 'shared-key', OTHER);
    expect([acme.status, other.status]).toEqual([201, 201]);
    expect(other.replayed).toBeNull();
    expect(other.location).not.toBe(acme.location);
    expect(await total(h, '/api/v1/people')).toBe(1);
    expect(await total(h, '/api/v1/people', OTHER)).toBe(1);
    // And each tenant's repeat is its own first answer.
    expect((await post(h, '/api/v1/people', ANA, 'shared-key', OTHER)).location).toBe(
      other.location,
    );
  });

  it('refuses a key that is not 1 to 255 visible ASCII characters with 400 INVALID_HEADER', async () => {
    const h = harness();
    for (const bad of ['', 'two words', 'x'.repeat(256), 'caf\u00e9']) {
      const answer = await post(h, '/api/v1/people', ANA, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(errorOf(answer.body)[0]?.error_code).toBe('INVALID_HEADER');
      expect(errorOf(answer.body)[0]?.description).toContain('Idempotency-Key');
    }
    expect(await total(h, '/api/v1/people')).toBe(0);
    const longest = await post(h, '/api/v1/people', ANA, `${'~'.repeat(254)}!`);
    expect(longest.status).toBe(201);
  });

  it('does not store 5xx: a repeat after a server error runs again', async () => {
    const h = harness();
    const insert = h.storage.records.insert;
    h.storage.records.insert = async () => {
      h.storage.records.insert = insert;
      throw new Error('the disk is on fire');
    };
    expect((await post(h, '/api/v1/people', ANA, 'retry-me')).status).toBe(500);
    const retried = await post(h, '/api/v1/people', ANA, 'retry-me');
    expect(retried.status).toBe(201);
    expect(retried.replayed).toBeNull();
    expect((await post(h, '/api/v1/people', ANA, 'retry-me')).replayed).toBe('true');
    expect(await total(h, '/api/v1/people')).toBe(1);
  });

  it('does not store refusals before the route: a 401 then a keyed repeat runs', async () => {
    const h = harness();
    expect((await post(h, '/api/v1/people', ANA, 'after-401', 'wrong-key')).status).toBe(401);
    expect((await post(h, '/api/v1/people', ANA, 'after-401')).status).toBe(201);
  });

  it('lets browser pages send the key and read the replay marker (CORS)', async () => {
    const h = harness();
    const preflight = await h.call('OPTIONS', '/api/v1/people', {
      key: null,
      headers: {
        Origin: 'https://page.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,idempotency-key',
      },
    });
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
    const res = await h.call('POST', '/api/v1/people', {
      raw: ANA,
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'cors' },
    });
    expect(res.headers.get('access-control-expose-headers')).toContain('Idempotent-Replayed');
  });
});

/**
 * A slow disk the test controls: after `hold()`, the next wait for durability (a keyed
 * POST's, which keeps its key taken until it ends) lasts until the test releases it. So
 * "the first is still running" holds for as long as the test needs, however loaded the
 * machine. Later waits (the repeats' own) are not held.
 */
class HeldDisk extends SqliteStorage {
  private gate?: { syncing: () => void; released: Promise<void> };

  constructor() {
    super(':memory:', { groupCommit: true });
  }

  /** Holds the next wait; `syncing` resolves once it has begun, `release` ends it. */
  hold(): { syncing: Promise<void>; release: () => void } {
    let syncing = () => {};
    let release = () => {};
    const waiting = new Promise<void>((resolve) => {
      syncing = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.gate = { syncing, released };
    return { syncing: waiting, release };
  }

  override async durable(mark?: number): Promise<void> {
    const gate = this.gate;
    this.gate = undefined;
    if (gate) {
      gate.syncing();
      await gate.released;
    }
    return super.durable(mark);
  }
}

/**
 * A server whose repeats wait `waitMs`, with a first keyed POST under `key` started and
 * held before its commit (so its key is taken); `release()` lets it finish.
 */
async function heldFirst(waitMs: number, key: string) {
  const disk = new HeldDisk();
  const s = await serve(disk, { waitMs });
  const { syncing, release } = disk.hold();
  const first = post(s, '/api/v1/people', ANA, key);
  // Released after the test in any case, so that closing the storage does not wait on it.
  releases.push(release);
  await syncing;
  return { s, first, release };
}

describe('Idempotency-Key: concurrent repeats', () => {
  it('two identical requests at once: one write, the second gets the same answer', async () => {
    const { call } = await serve(openStorage(':memory:', { groupCommit: true }));
    const [a, b] = await Promise.all([
      post({ call }, '/api/v1/people', ANA, 'twins'),
      post({ call }, '/api/v1/people', ANA, 'twins'),
    ]);
    expect(a.status).toBe(201);
    expect(same(b)).toEqual(same(a));
    expect([a.replayed, b.replayed]).toEqual([null, 'true']);
    const people = await call('GET', '/api/v1/people');
    expect(((await people.json()) as Json).total_records).toBe(1);
  });

  it('a repeat waits for the first up to waitMs, then gets 409 IDEMPOTENCY_KEY_IN_PROGRESS', async () => {
    // The first is still running (its commit held): a repeat waits 20 ms, no more.
    const { s, first, release } = await heldFirst(20, 'slow');
    const busy = await post(s, '/api/v1/people', ANA, 'slow');
    expect(busy.status).toBe(409);
    expect(errorOf(busy.body)[0]?.error_code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    // Another request with the key is refused at once, running or not.
    const other = await post(s, '/api/v1/people', JSON.stringify(person('Zed')), 'slow');
    expect(other.status).toBe(422);
    release();
    const done = await first;
    expect(done.status).toBe(201);
    const later = await post(s, '/api/v1/people', ANA, 'slow');
    expect(same(later)).toEqual(same(done));
  });

  it('within the bound, the repeat gets the first answer once it is durable', async () => {
    // A bound no stall reaches: the repeat can only end by the first's release.
    const { s, first, release } = await heldFirst(50_000, 'patient');
    let answered = false;
    const repeating = post(s, '/api/v1/people', ANA, 'patient').then((answer) => {
      answered = true;
      return answer;
    });
    for (let turn = 0; turn < 10; turn++) await new Promise((done) => setImmediate(done));
    // Waiting for the first, which is held: no answer yet.
    expect(answered).toBe(false);
    release();
    const repeat = await repeating;
    const done = await first;
    expect(repeat.status).toBe(201);
    expect(same(repeat)).toEqual(same(done));
    expect(repeat.replayed).toBe('true');
    expect(await s.storage.records.count({ tenantId: 1, kind: 'person' })).toBe(1);
  });

  it('Retry-After on the 409', async () => {
    const { s, first, release } = await heldFirst(0, 'now');
    const res = await s.call('POST', '/api/v1/people', {
      raw: ANA,
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'now' },
    });
    expect(res.status).toBe(409);
    expect(res.headers.get('retry-after')).toBe('1');
    release();
    await first;
  });
});

describe('Idempotency-Key: retention, restart, atomicity', () => {
  it('answers expire after 24 hours: an older key counts as new, and old rows go', async () => {
    let now = Date.UTC(2026, 0, 1);
    const h = sqliteHarness({ idempotency: { now: () => now } });
    const first = await post(h, '/api/v1/people', ANA, 'daily');
    now += DAY - 1;
    expect((await post(h, '/api/v1/people', ANA, 'daily')).replayed).toBe('true');
    now += 2;
    const anew = await post(h, '/api/v1/people', ANA, 'daily');
    expect(anew.status).toBe(201);
    expect(anew.replayed).toBeNull();
    expect(anew.location).not.toBe(first.location);
    expect(await total(h, '/api/v1/people')).toBe(2);
    expect((await post(h, '/api/v1/people', ANA, 'daily')).location).toBe(anew.location);
    // Each save removes a few expired answers: old keys do not pile up.
    await post(h, '/api/v1/people', ANA, 'old-1');
    await post(h, '/api/v1/people', ANA, 'old-2');
    expect(answersStored(h.storage)).toBe(3);
    now += DAY + 1;
    await post(h, '/api/v1/people', ANA, 'new-1');
    await post(h, '/api/v1/people', ANA, 'new-2');
    expect(answersStored(h.storage)).toBe(2);
  });

  it('stored answers survive a restart of the server on its file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adis-idempotency-'));
    dirs.push(dir);
    const path = join(dir, 'test.db');
    const before = await serve(openStorage(path, { groupCommit: true }));
    const first = await post(before, '/api/v1/people', ANA, 'durable');
    await before.storage.close();
    const after = await serve(openStorage(path, { groupCommit: true }));
    const again = await post(after, '/api/v1/people', ANA, 'durable');
    expect(same(again)).toEqual(same(first));
    expect(again.replayed).toBe('true');
    expect(await after.storage.records.count({ tenantId: 1, kind: 'person' })).toBe(1);
  });

  it('the answer commits in the same commit as the writes, with or without group commit', async () => {
    for (const groupCommit of [false, true]) {
      const { storage, call } = await serve(openStorage(':memory:', { groupCommit }));
      const before = storage.commits;
      expect((await post({ call }, '/api/v1/people', ANA, 'one-commit')).status).toBe(201);
      expect(storage.commits - before, `groupCommit ${groupCommit}`).toBe(1);
      expect(answersStored(storage)).toBe(1);
    }
  });

  it('a failed commit loses the answer with the writes: the repeat runs again', async () => {
    const { storage, call } = await serve(openStorage(':memory:', { groupCommit: true }));
    const pending = post({ call }, '/api/v1/people', ANA, 'lost');
    // A unit in the same batch whose COMMIT fails (a foreign key checked at COMMIT).
    await storage.transaction(() => {
      storage.database.pragma('defer_foreign_keys = ON');
      storage.database
        .prepare('INSERT INTO identifiers (tenant_id, kind, identifier, seq) VALUES (?, ?, ?, ?)')
        .run(1, 'nothing', 'dangling', 999_999_999);
    });
    expect((await pending).status).toBe(500);
    expect(answersStored(storage)).toBe(0);
    const retried = await post({ call }, '/api/v1/people', ANA, 'lost');
    expect(retried.status).toBe(201);
    expect(retried.replayed).toBeNull();
    expect(await storage.records.count({ tenantId: 1, kind: 'person' })).toBe(1);
  });
});

describe('Storage.unit', () => {
  const write = (tenantId: number, n: number) => ({
    tenantId,
    kind: 'person',
    id: `00000000-0000-4000-8000-00000000000${n}`,
    doc: { given_name: `P${n}` },
    created_date: '2026-01-01T00:00:00.000Z',
    modified_date: '2026-01-01T00:00:00.000Z',
    identifiers: [`adis:${n}`],
  });
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('without group commit: writes inside nested units commit together when the outer ends', async () => {
    const storage = openStorage(':memory:');
    opened.push(storage);
    const tenant = await storage.tenants.ensure('acme');
    const before = storage.commits;
    let durable = false;
    await storage.unit(async () => {
      await storage.unit(async () => {
        const mark = storage.commitMark();
        await storage.records.insert(write(tenant.id, 1));
        await storage.records.insert(write(tenant.id, 2));
        void storage.durable(mark).then(() => (durable = true));
      });
      await turn();
      expect([storage.commits - before, durable]).toEqual([0, false]);
    });
    expect(storage.commits - before).toBe(1);
    await turn();
    expect(durable).toBe(true);
    // Outside any unit a write commits at once.
    await storage.records.insert(write(tenant.id, 3));
    expect(storage.commits - before).toBe(2);
  });

  it('with group commit: the batch waits past its turn for the unit to end', async () => {
    const storage = openStorage(':memory:', { groupCommit: true });
    opened.push(storage);
    const tenant = await storage.tenants.ensure('acme');
    await storage.flush();
    const before = storage.commits;
    await storage.unit(async () => {
      await storage.records.insert(write(tenant.id, 1));
      await turn();
      await turn();
      expect(storage.commits - before).toBe(0);
      await storage.records.insert(write(tenant.id, 2));
    });
    await storage.durable();
    expect(storage.commits - before).toBe(1);
  });
});

import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { backgroundIdle } from '../src/http/background.js';
import {
  ACTION_NETWORK_PRESET,
  createTestServer,
  type TestKey,
  type TestServer,
  type TestServerOptions,
} from '../src/testing.js';
import { type BackgroundGate, backgroundGate } from './background-gate.js';

const KEY_HEADER = 'STD-API-Token';

/** The server's answer to an HTTP call, read as JSON when it has a body. */
interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read deep JSON freely
  body: any;
}

type Fetch = typeof globalThis.fetch;

async function call(
  fetch: Fetch,
  url: string,
  key: string | undefined,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== undefined) headers[KEY_HEADER] = key;
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** total_records of a collection, read with `key` through the kit's in-process fetch. */
async function total(kit: TestServer<unknown>, collection: string, key: string): Promise<number> {
  const answer = await call(kit.fetch, `${kit.entryPoint}${collection}`, key);
  expect(answer.status).toBe(200);
  return answer.body.total_records as number;
}

/** given and family names of the first page of people. */
async function names(kit: TestServer): Promise<string[]> {
  const answer = await call(kit.fetch, `${kit.entryPoint}people?per_page=50`, kit.keys.read);
  return answer.body._embedded['std:people'].map(
    (person: { given_name: string; family_name: string }) =>
      `${person.given_name} ${person.family_name}`,
  );
}

const opened: TestServer<unknown>[] = [];
/** A kit closed after the test. */
function kitFor(options?: TestServerOptions & { keys?: undefined }): TestServer {
  const kit = createTestServer(options);
  opened.push(kit);
  return kit;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((kit) => kit.close()));
});

describe('data', () => {
  it('starts empty by default', async () => {
    const kit = kitFor();
    expect(await total(kit, 'people', kit.keys.write)).toBe(0);
    expect(await total(kit, 'petitions', kit.keys.write)).toBe(0);
  });

  it('seeds people, and activity when asked', async () => {
    const people = kitFor({ seed: { people: 12 } });
    expect(await total(people, 'people', people.keys.read)).toBe(12);
    expect(await total(people, 'petitions', people.keys.read)).toBe(0);

    const active = kitFor({ seed: { people: 12, activity: true } });
    expect(await total(active, 'people', active.keys.read)).toBe(12);
    expect(await total(active, 'petitions', active.keys.read)).toBe(3);
    expect(await total(active, 'signatures', active.keys.read)).toBeGreaterThan(0);
  });

  it('seeds 60 people when the seed gives no number', async () => {
    const kit = kitFor({ seed: {} });
    expect(await total(kit, 'people', kit.keys.read)).toBe(60);
  });

  it('gives the same people for the same seed number, other people for another', async () => {
    const first = await names(kitFor({ seed: { people: 20, seed: 7 } }));
    const again = await names(kitFor({ seed: { people: 20, seed: 7 } }));
    const other = await names(kitFor({ seed: { people: 20, seed: 8 } }));
    expect(first).toHaveLength(20);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('seeds the tenant the seed names', async () => {
    const kit = kitFor({ seed: { people: 4, tenant: 'other' } });
    expect(await total(kit, 'people', kit.keys.other)).toBe(4);
    expect(await total(kit, 'people', kit.keys.write)).toBe(0);
  });
});

describe('keys and tenants', () => {
  it('keeps the two default tenants apart', async () => {
    const kit = kitFor();
    const created = await call(kit.fetch, `${kit.entryPoint}people`, kit.keys.write, {
      method: 'POST',
      body: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
    });
    expect(created.status).toBe(201);
    expect(await total(kit, 'people', kit.keys.read)).toBe(1);
    expect(await total(kit, 'people', kit.keys.other)).toBe(0);
    const href = created.body._links.self.href as string;
    expect((await call(kit.fetch, href, kit.keys.other)).status).toBe(404);
  });

  it('refuses writes with the read key (403) and calls with an unknown key (401)', async () => {
    const kit = kitFor();
    const write = await call(kit.fetch, `${kit.entryPoint}people`, kit.keys.read, {
      method: 'POST',
      body: { given_name: 'Bo' },
    });
    expect(write.status).toBe(403);
    expect((await call(kit.fetch, kit.entryPoint, 'not-a-configured-key')).status).toBe(401);
    expect((await call(kit.fetch, kit.entryPoint, undefined)).status).toBe(401);
    expect(await total(kit, 'people', kit.keys.write)).toBe(0);
  });

  it('accepts custom keys, returns them as given, and looks them up', async () => {
    const keys: TestKey[] = [
      { token: 'acme-writer', tenant: 'acme', access: 'write' },
      { token: 'acme-reader', tenant: 'acme', access: 'read' },
    ];
    const kit = createTestServer({ keys });
    opened.push(kit);
    expect(kit.keys).toEqual(keys);
    expect(kit.key('acme', 'read')).toBe('acme-reader');
    expect(kit.key('acme', 'write')).toBe('acme-writer');
    expect(() => kit.key('demo', 'write')).toThrow("no write key of tenant 'demo'");
    expect(await total(kit, 'people', 'acme-reader')).toBe(0);
    expect((await call(kit.fetch, kit.entryPoint, 'demo-write-key')).status).toBe(401);
  });

  it('takes options whose keys are not known until run time', () => {
    const options: TestServerOptions = {
      keys: [{ token: 'acme-writer', tenant: 'acme', access: 'write' }],
    };
    const kit = createTestServer(options);
    opened.push(kit);
    expect(kit.key('acme', 'write')).toBe('acme-writer');
  });

  it('looks up the default keys too', () => {
    const kit = kitFor();
    expect(kit.key('demo', 'write')).toBe(kit.keys.write);
    expect(kit.key('demo', 'read')).toBe(kit.keys.read);
    expect(kit.key('other', 'write')).toBe(kit.keys.other);
  });
});

describe('reset', () => {
  it('drops what a test wrote and restores the seed data, keys included', async () => {
    const kit = kitFor({ seed: { people: 5, seed: 3 } });
    const before = await names(kit);
    const storage = kit.storage;
    await call(kit.fetch, `${kit.entryPoint}people`, kit.keys.write, {
      method: 'POST',
      body: { given_name: 'Temporary' },
    });
    await call(kit.fetch, `${kit.entryPoint}tags`, kit.keys.other, {
      method: 'POST',
      body: { name: 'temporary' },
    });
    expect(await total(kit, 'people', kit.keys.read)).toBe(6);
    expect(await total(kit, 'tags', kit.keys.other)).toBe(1);

    kit.reset();

    expect(kit.storage).not.toBe(storage);
    expect(await total(kit, 'people', kit.keys.read)).toBe(5);
    expect(await total(kit, 'tags', kit.keys.other)).toBe(0);
    expect(await names(kit)).toEqual(before);
  });

  it('empties an unseeded server', async () => {
    const kit = kitFor();
    await call(kit.fetch, `${kit.entryPoint}tags`, kit.keys.write, {
      method: 'POST',
      body: { name: 'temporary' },
    });
    kit.reset();
    expect(await total(kit, 'tags', kit.keys.write)).toBe(0);
  });
});

describe('msw handlers', () => {
  const kit = createTestServer({ origin: 'https://crm.example.org/', seed: { people: 3 } });
  const elsewhere = http.all('*', () => new HttpResponse('not the kit', { status: 599 }));
  const server = setupServer(...kit.handlers, elsewhere);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => kit.reset());
  afterAll(async () => {
    server.close();
    await kit.close();
  });

  it('normalizes the origin and derives the entry point from it', () => {
    expect(kit.origin).toBe('https://crm.example.org');
    expect(kit.entryPoint).toBe('https://crm.example.org/api/v1/');
  });

  it('serve the kit origin through the global fetch, with links on that origin', async () => {
    const entry = await call(fetch, kit.entryPoint, kit.keys.read);
    expect(entry.status).toBe(200);
    expect(entry.body._links['std:people'].href).toBe('https://crm.example.org/api/v1/people');
    const people = await call(fetch, `${kit.entryPoint}people`, kit.keys.read);
    expect(people.body.total_records).toBe(3);
  });

  it('serve every method', async () => {
    const created = await call(fetch, `${kit.entryPoint}tags`, kit.keys.write, {
      method: 'POST',
      body: { name: 'via-msw' },
    });
    expect(created.status).toBe(201);
    const href = created.body._links.self.href as string;
    const updated = await call(fetch, href, kit.keys.write, {
      method: 'PUT',
      body: { name: 'renamed' },
    });
    expect(updated.body.name).toBe('renamed');
    expect((await call(fetch, href, kit.keys.write, { method: 'DELETE' })).status).toBe(204);
  });

  it('leave other origins, and the same host over another scheme, to other handlers', async () => {
    for (const url of [
      'http://adis.test/api/v1/',
      'http://crm.example.org/api/v1/',
      'https://crm.example.org:8443/api/v1/',
    ]) {
      const res = await fetch(url, { headers: { [KEY_HEADER]: kit.keys.read } });
      expect(res.status, url).toBe(599);
      expect(await res.text()).toBe('not the kit');
    }
  });

  it('serve the new database after a reset', async () => {
    await call(fetch, `${kit.entryPoint}tags`, kit.keys.write, {
      method: 'POST',
      body: { name: 'before-reset' },
    });
    kit.reset();
    const tags = await call(fetch, `${kit.entryPoint}tags`, kit.keys.write);
    expect(tags.body.total_records).toBe(0);
  });
});

describe('app options', () => {
  it('pass on to the app', async () => {
    const kit = kitFor({ app: { maxPageSize: 10, motd: 'Testing' } });
    const entry = await call(kit.fetch, kit.entryPoint, kit.keys.read);
    expect(entry.body).toMatchObject({ max_pagesize: 10, motd: 'Testing' });
  });

  // A helper call without a key to a petition that does not exist: 404, unless limited.
  const anonymousCall = (kit: TestServer) =>
    call(kit.fetch, `${kit.entryPoint}petitions/missing/record_signature_helper`, undefined, {
      method: 'POST',
      body: {},
    });

  it('leave the anonymous rate limit off by default, and on when asked', async () => {
    const open = kitFor();
    for (let n = 0; n < 15; n++) expect((await anonymousCall(open)).status).toBe(404);

    const limited = kitFor({ app: { anonymousRateLimit: { calls: 1, perSeconds: 60, burst: 1 } } });
    expect((await anonymousCall(limited)).status).toBe(404);
    expect((await anonymousCall(limited)).status).toBe(429);
  });
});

describe('listen', () => {
  it("gives a preset's entry point: /api/v2/ under Action Network's", async () => {
    const kit = createTestServer({ app: { preset: ACTION_NETWORK_PRESET } });
    try {
      const running = await kit.listen();
      expect(running.entryPoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/$/);
      const answer = await fetch(running.entryPoint, {
        headers: { 'OSDI-API-Token': kit.keys.read },
      });
      expect(answer.status).toBe(200);
    } finally {
      await kit.close();
    }
  });

  it('serves the same app over loopback HTTP, after resets too, until close', async () => {
    const kit = createTestServer({ seed: { people: 2 } });
    const running = await kit.listen();
    expect(running.entryPoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/$/);
    expect(running.port).toBeGreaterThan(0);
    const people = await call(fetch, `${running.entryPoint}people`, kit.keys.read);
    expect(people.body.total_records).toBe(2);
    expect(people.body._links.self.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/people/);

    await call(fetch, `${running.entryPoint}people`, kit.keys.write, {
      method: 'POST',
      body: { given_name: 'Cy' },
    });
    kit.reset();
    const after = await call(fetch, `${running.entryPoint}people`, kit.keys.read);
    expect(after.body.total_records).toBe(2);

    await kit.close();
    expect(running.server.listening).toBe(false);
    await expect(fetch(running.entryPoint)).rejects.toThrow();
  });

  it('closes cleanly when the test already closed its server', async () => {
    const kit = createTestServer();
    const running = await kit.listen();
    await running.close();
    await expect(kit.close()).resolves.toBeUndefined();
  });
});

describe('work accepted with background_request', () => {
  /**
   * A kit that keeps its error reports, with one background signature accepted and held
   * at `gate`: still to do when the test closes or resets the kit.
   */
  async function accepted(): Promise<{
    kit: TestServer;
    logs: string[];
    petition: string;
    gate: BackgroundGate;
  }> {
    const logs: string[] = [];
    const gate = backgroundGate();
    const kit = createTestServer({
      app: { logError: (message) => logs.push(message), scheduleBackground: gate.schedule },
    });
    const petition = await call(kit.fetch, `${kit.entryPoint}petitions`, kit.keys.write, {
      method: 'POST',
      body: { title: 'Save Elm Park' },
    });
    const helper = petition.body._links['std:record_signature_helper'].href;
    const answer = await kit.fetch(`${helper}?background_request=true`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [KEY_HEADER]: kit.keys.write },
      body: JSON.stringify({ person: { email_addresses: [{ address: 'ana@example.org' }] } }),
    });
    expect(answer.status).toBe(202);
    await gate.holding(1);
    return { kit, logs, petition: petition.body._links.self.href, gate };
  }

  it('is done before close() closes the database', async () => {
    const { kit, logs, gate } = await accepted();
    const storage = kit.storage;
    const closing = kit.close();
    gate.open();
    await closing;
    // Once all accepted work is over: work that met a closed database was reported.
    await backgroundIdle(storage);
    expect(logs).toEqual([]);
  });

  it('is done on the old database after a reset', async () => {
    const { kit, logs, petition, gate } = await accepted();
    const old = kit.storage;
    kit.reset();
    gate.open();
    // The old database stays open until the signature is written, then closes.
    await backgroundIdle(old);
    expect(logs).toEqual([]);
    expect((await call(kit.fetch, petition, kit.keys.read)).status).toBe(404);
    await kit.close();
  });
});

describe('after close', () => {
  it('rejects calls, resets and listens with a clear error', async () => {
    const kit = createTestServer();
    await kit.close();
    await expect(kit.fetch(kit.entryPoint)).rejects.toThrow(
      'the ADIS test server for http://adis.test is closed',
    );
    expect(() => kit.reset()).toThrow('is closed');
    expect(() => kit.storage).toThrow('is closed');
    await expect(kit.listen()).rejects.toThrow('is closed');
    await expect(kit.close()).resolves.toBeUndefined();
  });

  it('answers msw requests with a 500 naming the cause instead of hanging', async () => {
    const kit = createTestServer();
    const server = setupServer(...kit.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    // msw also prints the handler's error; keep the test output for real failures.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await kit.close();
      const res = await fetch(kit.entryPoint, { headers: { [KEY_HEADER]: kit.keys.read } });
      expect(res.status).toBe(500);
      expect(await res.text()).toContain('is closed');
      expect(printed).toHaveBeenCalled();
    } finally {
      printed.mockRestore();
      server.close();
    }
  });
});

describe('options validation', () => {
  it.each([
    ['a relative URL', '/api'],
    ['a host without scheme', 'adis.test'],
    ['another scheme', 'ftp://adis.test'],
    ['a path', 'http://adis.test/api/v1/'],
    ['a query', 'http://adis.test/?x=1'],
    ['credentials', 'http://user:pw@adis.test'],
  ])('rejects an origin with %s', (_, origin) => {
    expect(() => createTestServer({ origin })).toThrow(/origin must be an absolute http\(s\)/);
  });

  it.each([
    ['an empty token', [{ token: '', tenant: 'a', access: 'write' }], /keys\[0\]\.token/],
    ['a token with a space', [{ token: 'my key', tenant: 'a', access: 'write' }], /keys\[0\]/],
    [
      'a duplicate token',
      [
        { token: 'same-token', tenant: 'a', access: 'write' },
        { token: 'same-token', tenant: 'b', access: 'read' },
      ],
      /keys\[1\]\.token "same-token" is listed twice/,
    ],
    [
      'an empty tenant',
      [{ token: 'key-token', tenant: ' ', access: 'write' }],
      /keys\[0\]\.tenant/,
    ],
    [
      'an unknown access',
      [{ token: 'key-token', tenant: 'a', access: 'admin' }],
      /keys\[0\]\.access must be 'read' or 'write', got "admin"/,
    ],
  ])('rejects keys with %s', (_, keys, message) => {
    // The cast is the point: plain JavaScript callers get the same checks.
    expect(() => createTestServer({ keys: keys as TestKey[] })).toThrow(message);
  });

  it.each([
    [{ people: -1 }, /seed\.people/],
    [{ people: 1.5 }, /seed\.people/],
    [{ seed: Number.NaN }, /seed\.seed/],
    [{ tenant: '' }, /seed\.tenant/],
    [{ now: new Date('not a date') }, /seed\.now/],
  ])('rejects the seed %o', (seed, message) => {
    expect(() => createTestServer({ seed })).toThrow(message);
  });

  it('reports bad app options from createApp at creation', () => {
    expect(() => createTestServer({ app: { messageSendRate: 0 } })).toThrow(/messageSendRate/);
  });
});

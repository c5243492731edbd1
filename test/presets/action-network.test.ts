/**
 * The Action Network preset against a server shaped like Action Network's: the key in
 * `OSDI-API-Token`, `osdi:` relations beside a vendor curie, `osdi_version`, and pages of
 * 25. Timing is read from fake timers, never from the machine's speed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACTION_NETWORK_KINDS,
  actionNetwork,
  connect,
  isHTTPError,
  presetNamed,
  SERVER_PRESETS,
  type ServerPreset,
} from '../../src/index.js';

const BASE = 'https://actionnetwork.example/api/v2';
const KEY = 'an-key';
const PAGE = 25;
const curies = [
  // Action Network declares its own curie beside osdi, with the same href.
  { name: 'action_network', href: 'https://actionnetwork.example/docs/v2/{rel}', templated: true },
  { name: 'osdi', href: 'https://actionnetwork.example/docs/v2/{rel}', templated: true },
];

interface Sent {
  url: string;
  at: number;
  headers: Headers;
}

/** A fetch that answers like the server, recording what reached it and when. */
function actionNetworkLike(pages: number) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push({ url: request.url, at: Date.now(), headers: request.headers });
    if (request.headers.get('osdi-api-token') !== KEY) {
      return Response.json({ error: 'API Key invalid or not present' }, { status: 401 });
    }
    const url = new URL(request.url);
    if (request.method === 'POST') {
      return Response.json({ error: 'try again later' }, { status: 503 });
    }
    if (url.pathname === '/api/v2/') {
      return Response.json({
        motd: 'Welcome to the Action Network OSDI API v2 Entry Point!',
        osdi_version: '1.0',
        max_pagesize: PAGE,
        vendor_name: 'Action Network',
        _links: {
          curies,
          self: { href: `${BASE}/` },
          'osdi:people': { href: `${BASE}/people` },
          'osdi:petitions': { href: `${BASE}/petitions` },
          'action_network:event_campaigns': { href: `${BASE}/event_campaigns` },
        },
      });
    }
    const page = Number(url.searchParams.get('page') ?? '1');
    const people = Array.from({ length: PAGE }, (_, i) => {
      const id = (page - 1) * PAGE + i;
      return {
        given_name: `Person ${id}`,
        _links: { self: { href: `${BASE}/people/${id}` } },
      };
    });
    return Response.json({
      total_pages: pages,
      per_page: PAGE,
      page,
      _links: {
        curies,
        self: { href: `${BASE}/people?page=${page}` },
        ...(page < pages ? { next: { href: `${BASE}/people?page=${page + 1}` } } : {}),
        'osdi:people': people.map((p) => p._links.self),
      },
      _embedded: { 'osdi:people': people },
    });
  };
  return { fetch, sent };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the Action Network preset', () => {
  it('sends the key as OSDI-API-Token, finds osdi: relations and reads osdi_version', async () => {
    const server = actionNetworkLike(2);
    const client = await connect(`${BASE}/`, {
      ...actionNetwork,
      apiKey: KEY,
      fetch: server.fetch,
    });
    expect(client.version).toBe('1.0');
    expect(client.curies.relationId('std:people')).toBe(
      'https://actionnetwork.example/docs/v2/people',
    );
    const people = await client.people.toArray();
    expect(people).toHaveLength(2 * PAGE);
    expect(people[0]?.data.given_name).toBe('Person 0');
    for (const request of server.sent) {
      expect(request.headers.get('OSDI-API-Token')).toBe(KEY);
      expect(request.headers.has('STD-API-Token')).toBe(false);
    }
  });

  it('is what the server needs: without it the key goes in STD-API-Token and is refused', async () => {
    const server = actionNetworkLike(1);
    const refused = await connect(`${BASE}/`, { apiKey: KEY, fetch: server.fetch }).catch(
      (error: unknown) => error,
    );
    expect(isHTTPError(refused) && refused.status).toBe(401);
    expect(server.sent[0]?.headers.get('STD-API-Token')).toBe(KEY);
  });

  it('spaces request starts so that no second holds 4, with 143 ms to spare', async () => {
    vi.useFakeTimers();
    const server = actionNetworkLike(12);
    const walk = (async () => {
      const client = await connect(`${BASE}/`, {
        ...actionNetwork,
        apiKey: KEY,
        fetch: server.fetch,
      });
      let records = 0;
      for await (const page of client.people.pages({ readAhead: true })) {
        records += page.items.length;
      }
      return records;
    })();
    let done = false;
    void walk.finally(() => {
      done = true;
    });
    while (!done) await vi.advanceTimersByTimeAsync(50);
    expect(await walk).toBe(12 * PAGE);

    const starts = server.sent.map((request) => request.at);
    expect(starts).toHaveLength(13); // the entry point and 12 pages, none refused or retried
    // Any five starts in a row span 4 / 3.5 s: a fifth request arrives more than a
    // second after the first unless the first is held up 143 ms more than the fifth.
    for (let i = 4; i < starts.length; i++) {
      expect(starts[i]! - starts[i - 4]!).toBeGreaterThanOrEqual(Math.floor(4000 / 3.5));
    }
  });

  it('sends POSTs without an Idempotency-Key and never retries them (none documented)', async () => {
    const server = actionNetworkLike(1);
    const client = await connect(`${BASE}/`, {
      ...actionNetwork,
      apiKey: KEY,
      fetch: server.fetch,
    });
    const failed = await client.people
      .create({ given_name: 'Ana' })
      .catch((error: unknown) => error);
    expect(isHTTPError(failed) && failed.status).toBe(503);
    const posts = server.sent.filter((request) => request.url === `${BASE}/people`);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers.has('Idempotency-Key')).toBe(false);
  });

  it('lets options given after it win', async () => {
    const server = actionNetworkLike(1);
    const client = await connect(`${BASE}/`, {
      ...actionNetwork,
      apiKeyHeader: 'X-Other',
      apiKey: KEY,
      fetch: server.fetch,
    }).catch((error: unknown) => error);
    expect(isHTTPError(client) && client.status).toBe(401);
    expect(server.sent[0]?.headers.get('X-Other')).toBe(KEY);
  });
});

describe('the preset table', () => {
  it('names every preset once, and nothing else', () => {
    expect(Object.keys(SERVER_PRESETS)).toEqual(['action-network']);
    expect(presetNamed('action-network')).toBe(actionNetwork);
    for (const name of ['toString', '__proto__', 'constructor', 'Action-Network', '']) {
      expect(presetNamed(name)).toBeUndefined();
    }
  });

  it('holds connect options only: no key, URL or fetch of anyone', () => {
    const allowed: readonly (keyof ServerPreset)[] = [
      'apiKeyHeader',
      'curiePrefix',
      'rateLimit',
      'retry',
      'timeout',
      'idleTimeout',
      'headers',
      'validate',
      'idempotencyKeys',
      'kinds',
    ];
    for (const preset of Object.values(SERVER_PRESETS)) {
      for (const key of Object.keys(preset)) expect(allowed).toContain(key);
    }
    expect(actionNetwork).toEqual({
      apiKeyHeader: 'OSDI-API-Token',
      curiePrefix: 'osdi',
      rateLimit: 3.5,
      kinds: ACTION_NETWORK_KINDS,
      idempotencyKeys: false,
    });
  });
});

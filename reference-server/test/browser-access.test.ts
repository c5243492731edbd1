import { afterEach, describe, expect, it, vi } from 'vitest';
import { anonymousHelperOf } from '../src/http/anonymous.js';
import { TokenBuckets, wholeSeconds } from '../src/http/rate-limit.js';
import {
  createApp,
  defaultRegistry,
  KindRegistry,
  openStorage,
  startServer,
} from '../src/index.js';
import { errorOf, harness, ORIGIN, READ, WRITE } from './helpers.js';
import { killCliRuns, runCli } from './run-cli.js';

const PAGE = 'https://campaign-site.example';

/** A petition of the acme tenant, and the href of its record signature helper. */
async function petitionHelper(h: ReturnType<typeof harness>): Promise<string> {
  const created = await h.json('POST', '/api/v1/petitions', { body: { title: 'Save Elm Park' } });
  expect(created.status).toBe(201);
  const href = created.body._links['std:record_signature_helper'].href as string;
  expect(href).toMatch(/\/api\/v1\/petitions\/[^/]+\/record_signature_helper$/);
  return href;
}

/** An anonymous browser call: an Origin, no key. */
function anonymous(h: ReturnType<typeof harness>, href: string, body: unknown = {}, headers = {}) {
  return h.call('POST', href, { key: null, body, headers: { Origin: PAGE, ...headers } });
}

describe('CORS', () => {
  it('answers a preflight from another origin without a key', async () => {
    const h = harness();
    const res = await h.call('OPTIONS', '/api/v1/people', {
      key: null,
      headers: {
        Origin: PAGE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,std-api-token',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual([
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ]);
    expect(res.headers.get('access-control-allow-headers')?.split(',')).toEqual([
      'Content-Type',
      'Accept',
      'STD-API-Token',
      'Idempotency-Key',
      'X-Request-Id',
    ]);
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(await res.text()).toBe('');
  });

  it('allows the configured API key header in preflights', async () => {
    const h = harness({ apiKeyHeader: 'X-Api-Key' });
    const res = await h.call('OPTIONS', '/api/v1/petitions/x/record_signature_helper', {
      key: null,
      headers: { Origin: PAGE, 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('X-Api-Key');
  });

  it('puts Access-Control-Allow-Origin and the exposed headers on successes and on every error', async () => {
    let failing = false;
    const h = harness();
    await h.ready; // this test calls its own app, not h.call
    // A storage that fails on demand: a 500 goes through the error handler's other branch.
    const storage = h.storage;
    const app = createApp({
      storage: new Proxy(storage, {
        get(target, prop, receiver) {
          if (prop === 'tenants' && failing) {
            return new Proxy(target.tenants, {
              get(tenants, name) {
                if (name === 'authenticate') {
                  return async () => {
                    throw new Error('disk on fire');
                  };
                }
                const method = Reflect.get(tenants, name);
                return typeof method === 'function' ? method.bind(tenants) : method;
              },
            });
          }
          const value = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
      logError: () => {},
      anonymousBodyBytes: 10,
    });
    const call = (
      method: string,
      path: string,
      init: { key?: string | null; body?: string } = {},
    ) =>
      Promise.resolve(
        app.fetch(
          new Request(`${ORIGIN}${path}`, {
            method,
            headers: {
              Origin: PAGE,
              'Content-Type': 'application/json',
              ...(init.key === null ? {} : { 'STD-API-Token': init.key ?? WRITE }),
            },
            body: init.body,
          }),
        ),
      );
    const cases: [string, Promise<Response>, number][] = [
      ['entry point', call('GET', '/api/v1/'), 200],
      ['create', call('POST', '/api/v1/tags', { body: '{"name":"cors"}' }), 201],
      ['missing key', call('GET', '/api/v1/people', { key: null }), 401],
      ['unknown key', call('GET', '/api/v1/people', { key: 'not-a-key-at-all' }), 401],
      ['read key writing', call('POST', '/api/v1/people', { key: READ, body: '{}' }), 403],
      ['unknown route', call('GET', '/api/v1/nothing/here/at/all'), 404],
      ['missing record', call('GET', '/api/v1/people/00000000-0000-0000-0000-000000000000'), 404],
      ['wrong method', call('PATCH', '/api/v1/metadata'), 405],
      ['bad JSON', call('POST', '/api/v1/people', { body: '{oops' }), 400],
      [
        'anonymous body too large',
        call('POST', '/api/v1/petitions/x/record_signature_helper', {
          key: null,
          body: '{"comments":"far more than ten bytes"}',
        }),
        413,
      ],
    ];
    for (const [name, pending, status] of cases) {
      const res = await pending;
      expect(res.status, name).toBe(status);
      expect(res.headers.get('access-control-allow-origin'), name).toBe('*');
      expect(res.headers.get('access-control-expose-headers'), name).toBe(
        'Location,Retry-After,Idempotent-Replayed,X-Request-Id,Idempotency-Key-Honoured,Idempotency-Key',
      );
    }
    failing = true;
    const crash = await call('GET', '/api/v1/');
    expect(crash.status).toBe(500);
    expect(crash.headers.get('access-control-allow-origin')).toBe('*');
    expect(errorOf(await crash.json())[0]?.error_code).toBe('INTERNAL_ERROR');
  });

  it('echoes only configured origins, and varies on Origin', async () => {
    const h = harness({ corsOrigins: [PAGE, 'http://localhost:5173'] });
    const mine = await h.call('GET', '/api/v1/', { headers: { Origin: 'http://localhost:5173' } });
    expect(mine.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(mine.headers.get('vary')).toContain('Origin');
    const refused = await h.call('GET', '/api/v1/people', {
      key: null,
      headers: { Origin: PAGE },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
    const other = await h.call('GET', '/api/v1/', { headers: { Origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await h.call('OPTIONS', '/api/v1/people', {
      key: null,
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses origins written unlike a browser would send them', async () => {
    const storage = openStorage(':memory:');
    for (const origin of [
      'https://site.example/',
      'site.example',
      'https://site.example/path',
      'ftp://x.example',
    ]) {
      expect(() => createApp({ storage, corsOrigins: [origin] }), origin).toThrow(RangeError);
    }
    expect(() => createApp({ storage, corsOrigins: ['https://site.example:8443'] })).not.toThrow();
    await storage.close();
  });

  it('leaves the HTML documentation alone', async () => {
    const h = harness();
    const res = await h.call('GET', '/docs/v1/', { key: null, headers: { Origin: PAGE } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('calls without an API key', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Stops the buckets' clock (Date.now, taken when the app is made: call this before
   * `harness`), so that no token comes back while the calls are made, however long they
   * take on a loaded machine.
   */
  function stopTheClock(): void {
    vi.useFakeTimers({ toFake: ['Date'] });
  }

  it('reach a helper the spec opens to anonymous callers, with CORS headers', async () => {
    const h = harness();
    const href = await petitionHelper(h);
    for (const url of [href, `${href}/`]) {
      const res = await anonymous(h, url, { person: { given_name: 'Ana' } });
      // The helper itself answers (its own tests check what); authentication let it through.
      expect(res.status, url).not.toBe(401);
      expect(res.status, url).not.toBe(500);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('stay 401 everywhere else, with CORS headers', async () => {
    const h = harness();
    const href = await petitionHelper(h);
    const petition = href.replace(/\/record_signature_helper$/, '');
    const form = await h.json('POST', '/api/v1/forms', { body: { title: 'Volunteer' } });
    const message = await h.json('POST', '/api/v1/messages', { body: { subject: 'Hi' } });
    const attempts: [string, string][] = [
      ['GET', href], // helpers are POST only
      ['PUT', href],
      ['POST', petition],
      ['POST', `${petition}/signatures`],
      ['POST', '/api/v1/petitions'],
      ['POST', '/api/v1/people/person_signup_helper'], // needs a key
      ['POST', form.body._links['std:record_submission_helper'].href], // needs a key
      ['POST', message.body._links['std:send_helper'].href],
      ['DELETE', message.body._links['std:schedule_helper'].href],
      ['POST', '/api/v1/unknown/x/record_signature_helper'],
      ['POST', '/api/v1/petitions/x/record_signature_helper/extra'],
      ['GET', '/api/v1/'],
    ];
    for (const [method, url] of attempts) {
      const res = await h.call(method, url, {
        key: null,
        ...(method === 'GET' ? {} : { body: {} }),
        headers: { Origin: PAGE },
      });
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(errorOf(await res.json())[0]?.error_code).toBe('UNAUTHORIZED');
    }
  });

  it('never downgrade a key that is sent but unknown (or empty)', async () => {
    const h = harness();
    const href = await petitionHelper(h);
    for (const key of ['unknown-key-123', '']) {
      const res = await h.call('POST', href, { key, body: {}, headers: { Origin: PAGE } });
      expect(res.status, JSON.stringify(key)).toBe(401);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('refuse a body over 16 KiB with 413, which a keyed call may send', async () => {
    const h = harness();
    const href = await petitionHelper(h);
    const big = { comments: 'x'.repeat(16 * 1024) };
    const res = await anonymous(h, href, big);
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(errorOf(body)[0]?.error_code).toBe('PAYLOAD_TOO_LARGE');
    expect(errorOf(body)[0]?.description).toContain('16384');
    // Just under the limit passes the limit.
    const fits = await anonymous(h, href, { comments: 'x'.repeat(16 * 1024 - 20) });
    expect(fits.status).not.toBe(413);
    // A keyed call has the general 1 MiB limit.
    const keyed = await h.call('POST', href, { body: big });
    expect(keyed.status).not.toBe(413);
    // Also without Content-Length (a streamed body).
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
        controller.close();
      },
    });
    const streamed = await h.app.fetch(
      new Request(`${ORIGIN}${new URL(href).pathname}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: stream,
        // @ts-expect-error: Node's fetch needs duplex for stream bodies; the DOM types lack it
        duplex: 'half',
      }),
    );
    expect(streamed.status).toBe(413);
  });

  it('are rate limited per address: 10 at once, then 429 with Retry-After', async () => {
    stopTheClock();
    const h = harness();
    const href = await petitionHelper(h);
    for (let i = 0; i < 10; i++) {
      const res = await anonymous(h, href);
      expect(res.status, `call ${i + 1}`).not.toBe(429);
    }
    const limited = await anonymous(h, href);
    expect(limited.status).toBe(429);
    // 30 a minute: one token every 2 s.
    expect(limited.headers.get('retry-after')).toBe('2');
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    const body = await limited.json();
    expect(body['std:error'].response_code).toBe(429);
    expect(errorOf(body)[0]?.error_code).toBe('RATE_LIMITED');
    // Keyed calls are not limited by it.
    for (let i = 0; i < 12; i++) {
      const keyed = await h.call('POST', href, { body: {} });
      expect(keyed.status).not.toBe(429);
    }
    const people = await h.call('GET', '/api/v1/people');
    expect(people.status).toBe(200);
  });

  it('follow the configured rate, or none', async () => {
    stopTheClock();
    const h = harness({ anonymousRateLimit: { calls: 1, perSeconds: 3600, burst: 2 } });
    const href = await petitionHelper(h);
    expect((await anonymous(h, href)).status).not.toBe(429);
    expect((await anonymous(h, href)).status).not.toBe(429);
    const limited = await anonymous(h, href);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3600');

    const open = harness({ anonymousRateLimit: false });
    const openHref = await petitionHelper(open);
    for (let i = 0; i < 15; i++) expect((await anonymous(open, openHref)).status).not.toBe(429);
  });

  it('count per X-Forwarded-For only behind a trusted proxy', async () => {
    const limit = { calls: 1, perSeconds: 60, burst: 1 };
    const proxied = harness({ anonymousRateLimit: limit, trustProxy: true });
    const href = await petitionHelper(proxied);
    const from = (address: string) => ({ 'X-Forwarded-For': `${address}, 10.0.0.1` });
    expect((await anonymous(proxied, href, {}, from('203.0.113.1'))).status).not.toBe(429);
    expect((await anonymous(proxied, href, {}, from('203.0.113.1'))).status).toBe(429);
    expect((await anonymous(proxied, href, {}, from('203.0.113.2'))).status).not.toBe(429);

    // Without trustProxy the header is anyone's to write: it is ignored.
    const direct = harness({ anonymousRateLimit: limit });
    const directHref = await petitionHelper(direct);
    expect((await anonymous(direct, directHref, {}, from('203.0.113.1'))).status).not.toBe(429);
    expect((await anonymous(direct, directHref, {}, from('203.0.113.2'))).status).toBe(429);
  });

  it('count per TCP peer when served over HTTP', async () => {
    const h = harness({ anonymousRateLimit: { calls: 1, perSeconds: 60, burst: 2 } });
    const href = new URL(await petitionHelper(h)).pathname;
    // In-process calls have no peer: they share the bucket "unknown", now empty.
    await anonymous(h, href);
    await anonymous(h, href);
    expect((await anonymous(h, href)).status).toBe(429);
    const running = await startServer({ app: h.app, port: 0 });
    try {
      const post = () =>
        fetch(`${running.url}${href}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: PAGE },
          body: '{}',
        });
      // 127.0.0.1 has a bucket of its own.
      expect((await post()).status).not.toBe(429);
      expect((await post()).status).not.toBe(429);
      const limited = await post();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await running.close();
    }
  });
});

describe('anonymousHelperOf', () => {
  it('finds only the anonymous helpers of registered kinds, for POST', () => {
    const registry = defaultRegistry();
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const open = [
      ['petitions', 'record_signature_helper'],
      ['advocacy_campaigns', 'record_outreach_helper'],
      ['events', 'record_attendance_helper'],
      ['fundraising_pages', 'record_donation_helper'],
      ['people', 'record_canvass_helper'],
    ];
    for (const [plural, path] of open) {
      expect(anonymousHelperOf(registry, 'POST', `/api/v1/${plural}/${id}/${path}`)?.path).toBe(
        path,
      );
    }
    const closed = [
      `/api/v1/forms/${id}/record_submission_helper`,
      `/api/v1/messages/${id}/send`,
      `/api/v1/people/person_signup_helper`,
      `/api/v1/petitions/${id}/signatures`,
      `/api/v1/events/${id}/record_signature_helper`,
      `/api/v1/petitions//record_signature_helper`,
      `/elsewhere/petitions/${id}/record_signature_helper`,
    ];
    for (const path of closed)
      expect(anonymousHelperOf(registry, 'POST', path), path).toBeUndefined();
    expect(
      anonymousHelperOf(registry, 'PUT', `/api/v1/petitions/${id}/record_signature_helper`),
    ).toBeUndefined();
    expect(
      anonymousHelperOf(
        new KindRegistry(),
        'POST',
        `/api/v1/petitions/${id}/record_signature_helper`,
      ),
    ).toBeUndefined();
  });
});

describe('TokenBuckets', () => {
  it('allows a burst, then refills at the rate', () => {
    let now = 0;
    const buckets = new TokenBuckets({ calls: 30, perSeconds: 60, burst: 10, now: () => now });
    for (let i = 0; i < 10; i++) expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 2 });
    expect(buckets.take('b').allowed).toBe(true);
    now = 1000; // half a token
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now = 2000;
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
    now = 60_000; // refilled, but never past the burst
    for (let i = 0; i < 10; i++) expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
  });

  it('asks for exactly the whole seconds a token takes, not one more (float rounding)', () => {
    // 1 / (1 / 3,600,000) is 3,600,000.0000000005 in floating point: once rounded up to
    // seconds that was 3601 whenever the third call came in the same millisecond.
    const now = 0;
    const buckets = new TokenBuckets({ calls: 1, perSeconds: 3600, burst: 2, now: () => now });
    buckets.take('a');
    buckets.take('a');
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 3600 });
    const thirds = new TokenBuckets({ calls: 3, perSeconds: 1, burst: 1, now: () => now });
    thirds.take('a');
    expect(thirds.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(wholeSeconds(1000.5)).toBe(2);
    expect(wholeSeconds(3_600_000.0000000005)).toBe(3600);
  });

  it('drops buckets that have refilled and caps the number of addresses', () => {
    let now = 0;
    const buckets = new TokenBuckets({
      calls: 1,
      perSeconds: 1,
      burst: 2,
      maxKeys: 100,
      now: () => now,
    });
    for (let i = 0; i < 100; i++) buckets.take(`10.0.0.${i}`);
    expect(buckets.size).toBe(100);
    // At the cap with nobody refilled: the least recently seen tenth goes.
    buckets.take('192.0.2.1');
    expect(buckets.size).toBeLessThanOrEqual(100);
    expect(buckets.size).toBeGreaterThanOrEqual(90);
    // Two seconds later every bucket is full again: the next call sweeps them all.
    now = 2000;
    buckets.take('192.0.2.2');
    expect(buckets.size).toBe(1);
  });

  it('refuses nonsense settings', () => {
    expect(() => new TokenBuckets({ calls: 0, perSeconds: 60, burst: 10 })).toThrow(RangeError);
    expect(() => new TokenBuckets({ calls: 1, perSeconds: 60, burst: 0.5 })).toThrow(RangeError);
    expect(() => new TokenBuckets({ calls: 1, perSeconds: Number.NaN, burst: 1 })).toThrow(
      RangeError,
    );
  });
});

describe('command line', () => {
  afterEach(killCliRuns);

  function run(args: string[]) {
    return runCli(['--db', ':memory:', '--seed', '0', ...args]);
  }

  it('takes --cors-origin and --trust-proxy', async () => {
    const server = run([
      '--port',
      '0',
      '--cors-origin',
      `${PAGE},http://localhost:5173`,
      '--trust-proxy',
    ]);
    const entry = await server.ready;
    const allowed = await fetch(entry, { headers: { Origin: PAGE } });
    expect(allowed.status).toBe(401);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(PAGE);
    const other = await fetch(entry, { headers: { Origin: 'https://other.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('exits 2 on a bad --cors-origin or --message-send-rate', async () => {
    const cases = [
      ['--cors-origin', 'https://site.example/'],
      ['--cors-origin', '*,https://site.example'],
      ['--message-send-rate', '0'],
      ['--message-send-rate', 'fast'],
    ];
    // All at once: each start of the command takes seconds on a loaded machine.
    const procs = cases.map((args) => run(args));
    for (const [index, proc] of procs.entries()) {
      const args = cases[index]?.join(' ');
      expect(await proc.exited, args).toBe(2);
      expect(proc.output().stderr, args).toMatch(/error:/);
    }
  });
});

/**
 * The checker's prober: it keeps to the server under test (another origin, or a
 * redirect there, is refused unsent unless the request may leave), the key goes to the
 * entry point's origin only, the budget is kept, a silent server is given up on within
 * `timeoutMs`, a 429 is waited out and recorded, a huge body is cut off unread. And a
 * link that is no URL fails its area, not the run.
 */
import { describe, expect, it } from 'vitest';
import { checkServer, RequestBudgetError } from '../../src/check/index.js';
import { OffOriginError, Prober } from '../../src/check/prober.js';
import { NetworkError } from '../../src/errors/network-error.js';

/** A fetch answering `answer(url)`, recording the key header each request carried. */
function server(answer: (url: URL) => Response | Promise<Response>) {
  const seen: { url: string; key: string | null }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    seen.push({ url: request.url, key: request.headers.get('STD-API-Token') });
    return answer(new URL(request.url));
  };
  return { fetch, seen };
}

describe('the prober', () => {
  const moved = (url: URL) =>
    url.pathname === '/moved'
      ? new Response(null, { status: 302, headers: { Location: 'http://elsewhere.test/landing' } })
      : new Response('{}');

  it('refuses another origin, and a redirect there, sending nothing and counting nothing', async () => {
    const { fetch, seen } = server(moved);
    const prober = new Prober({ fetch, origin: 'http://adis.test', rate: 0 });
    const direct = await prober
      .request('http://elsewhere.test/docs')
      .catch((error: unknown) => error);
    expect(direct).toBeInstanceOf(OffOriginError);
    expect((direct as Error).message).toBe(
      'http://elsewhere.test/docs is on another origin than the server under test (http://adis.test)',
    );
    const redirect = await prober
      .request('http://adis.test/moved')
      .catch((error: unknown) => error);
    expect(redirect).toMatchObject({
      url: 'http://elsewhere.test/landing',
      from: 'http://adis.test/moved',
    });
    expect(seen.map((request) => request.url)).toEqual(['http://adis.test/moved']);
    expect(prober.sent).toBe(1);
  });

  it("sends the key to the entry point's origin only, also where a request may leave it", async () => {
    const { fetch, seen } = server(moved);
    const prober = new Prober({
      fetch,
      keyHeaders: { 'STD-API-Token': 'secret' },
      origin: 'http://adis.test',
      rate: 0,
    });
    await prober.request('http://adis.test/api/v1/');
    await prober.request('http://elsewhere.test/api/v1/people', { elsewhere: true });
    const redirected = await prober.request('http://adis.test/moved', { elsewhere: true });
    expect(redirected.url).toBe('http://elsewhere.test/landing');
    expect(seen).toEqual([
      { url: 'http://adis.test/api/v1/', key: 'secret' },
      { url: 'http://elsewhere.test/api/v1/people', key: null },
      { url: 'http://adis.test/moved', key: 'secret' },
      { url: 'http://elsewhere.test/landing', key: null },
    ]);
  });

  it('refuses a request past the budget, and counts every one sent', async () => {
    const { fetch } = server(() => new Response('{}'));
    const prober = new Prober({ fetch, maxRequests: 2, rate: 0 });
    await prober.request('http://adis.test/a');
    await prober.request('http://adis.test/b', { method: 'OPTIONS' });
    await expect(prober.request('http://adis.test/c')).rejects.toBeInstanceOf(RequestBudgetError);
    expect(prober.methods).toEqual({ GET: 1, OPTIONS: 1 });
  });

  it('gives up on a server that does not answer within timeoutMs, with a NetworkError', async () => {
    const silent: typeof globalThis.fetch = (_input, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const prober = new Prober({ fetch: silent, timeoutMs: 50, rate: 0 });
    const failure = await prober.request('http://adis.test/').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as Error).message).toMatch(/GET http:\/\/adis\.test\/.*no answer within 50 ms/);
  });

  it('waits out a 429 as Retry-After asks, then sends again, and records it', async () => {
    let calls = 0;
    const { fetch } = server(() =>
      ++calls === 1
        ? new Response(null, { status: 429, headers: { 'Retry-After': '0' } })
        : new Response('{"ok":true}'),
    );
    const prober = new Prober({ fetch, rate: 0 });
    const answer = await prober.request('http://adis.test/');
    expect(answer.json).toEqual({ ok: true });
    expect(prober.rateLimited).toEqual([{ url: 'http://adis.test/', retryAfter: '0' }]);
    expect(prober.sent).toBe(2);
  });

  it('cuts off a body over 16 MiB without keeping it', async () => {
    const { fetch } = server(() => new Response(new Uint8Array(17 * 1024 * 1024).fill(32)));
    const answer = await new Prober({ fetch, rate: 0 }).request('http://adis.test/');
    expect(answer.text).toBe('');
    expect(answer.jsonError).toMatch(/over 16 MiB/);
  });
});

describe('a link that is no URL', () => {
  it('fails the area it stopped, and the other areas still run', async () => {
    const { fetch } = server((url) => {
      if (url.pathname === '/api/v1/') {
        return Response.json({
          std_version: '1.0',
          _links: {
            self: { href: 'http://bad.test/api/v1/' },
            curies: [{ name: 'std', href: 'http://bad.test/docs/{rel}', templated: true }],
            'std:people': { href: 'http://[not-a-host/people' },
          },
        });
      }
      return new Response(null, { status: 401 });
    });
    const report = await checkServer('http://bad.test/api/v1/', { apiKey: 'k', fetch, rate: 0 });
    const stopped = report.checks.find((check) => check.rule === 'checker.stopped');
    expect(stopped).toMatchObject({ area: 'collections', status: 'fail' });
    expect(stopped?.message).toMatch(/could not finish: .*http:\/\/\[not-a-host\/people/);
    expect(report.checks.some((check) => check.area === 'cors')).toBe(true);
  });
});

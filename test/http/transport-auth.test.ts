import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRedirectError } from '../../src/errors/index.js';
import { createTransport } from '../../src/http/transport.js';

const API = 'https://api.example.org';
const OTHER = 'https://cdn.example.net';
const KEY = 'secret-key';

/** Records the key header (under the given name) each URL received. */
function keyLog(header = 'STD-API-Token') {
  const seen: Record<string, string | null> = {};
  const record = (request: Request) => {
    seen[new URL(request.url).pathname] = request.headers.get(header);
  };
  return { seen, record };
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('API key header', () => {
  it('goes to the trusted entry point origin and not to another origin a link points at', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.get(`${API}/api/v1/`, ({ request }) => {
        record(request);
        return HttpResponse.json({ _links: { 'std:people': { href: `${OTHER}/people` } } });
      }),
      http.get(`${OTHER}/people`, ({ request }) => {
        record(request);
        return HttpResponse.json({});
      }),
    );
    const transport = createTransport({ apiKey: KEY });
    transport.trustOrigin(`${API}/api/v1/`);

    await transport.request({ method: 'GET', url: `${API}/api/v1/` });
    await transport.request({ method: 'GET', url: `${OTHER}/people` });

    expect(seen['/api/v1/']).toBe(KEY);
    expect(seen['/people']).toBeNull();
  });

  it('is not sent before any origin is trusted', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.get(`${API}/x`, ({ request }) => {
        record(request);
        return HttpResponse.json({});
      }),
    );
    await createTransport({ apiKey: KEY }).request({ method: 'GET', url: `${API}/x` });
    expect(seen['/x']).toBeNull();
  });

  it('goes to origins listed in trustedOrigins', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.get(`${OTHER}/files`, ({ request }) => {
        record(request);
        return HttpResponse.json({});
      }),
    );
    const transport = createTransport({ apiKey: KEY, trustedOrigins: [OTHER] });
    await transport.request({ method: 'GET', url: `${OTHER}/files` });
    expect(seen['/files']).toBe(KEY);
  });

  it('uses a custom header name', async () => {
    const { seen, record } = keyLog('OSDI-API-Token');
    let standardHeader: string | null = 'unset';
    server.use(
      http.get(`${API}/osdi`, ({ request }) => {
        record(request);
        standardHeader = request.headers.get('STD-API-Token');
        return HttpResponse.json({});
      }),
    );
    const transport = createTransport({
      apiKey: KEY,
      apiKeyHeader: 'OSDI-API-Token',
      trustedOrigins: [API],
    });
    await transport.request({ method: 'GET', url: `${API}/osdi` });
    expect(seen['/osdi']).toBe(KEY);
    expect(standardHeader).toBeNull();
  });

  it('is never sent with authenticate: false', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.post(`${API}/petitions/1/record_signature_helper`, ({ request }) => {
        record(request);
        return HttpResponse.json({});
      }),
    );
    const transport = createTransport({ apiKey: KEY, trustedOrigins: [API] });
    await transport.request({
      method: 'POST',
      url: `${API}/petitions/1/record_signature_helper`,
      body: { person: { given_name: 'Ana' } },
      authenticate: false,
    });
    expect(seen['/petitions/1/record_signature_helper']).toBeNull();
  });

  it('is stripped from hand-made headers going to an untrusted origin', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.get(`${OTHER}/x`, ({ request }) => {
        record(request);
        return HttpResponse.json({});
      }),
    );
    const transport = createTransport({ headers: { 'STD-API-Token': KEY } });
    await transport.request({ method: 'GET', url: `${OTHER}/x` });
    expect(seen['/x']).toBeNull();
  });
});

describe('redirects', () => {
  it('does not leak the key through a cross-origin redirect', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.get(`${API}/moved`, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 302, headers: { location: `${OTHER}/landing` } });
      }),
      http.get(`${OTHER}/landing`, ({ request }) => {
        record(request);
        return HttpResponse.json({ landed: true });
      }),
    );
    const transport = createTransport({ apiKey: KEY, trustedOrigins: [API] });
    const response = await transport.request({ method: 'GET', url: `${API}/moved` });

    expect(response.body).toEqual({ landed: true });
    expect(response.url).toBe(`${OTHER}/landing`);
    expect(seen['/moved']).toBe(KEY);
    expect(seen['/landing']).toBeNull();
  });

  it('keeps the key through a same-origin redirect (relative Location)', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.get(`${API}/api/v1/people`, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 301, headers: { location: '/api/v2/people' } });
      }),
      http.get(`${API}/api/v2/people`, ({ request }) => {
        record(request);
        return HttpResponse.json({ page: 1 });
      }),
    );
    const transport = createTransport({ apiKey: KEY, trustedOrigins: [API] });
    const response = await transport.request({ method: 'GET', url: `${API}/api/v1/people` });

    expect(response.body).toEqual({ page: 1 });
    expect(seen['/api/v1/people']).toBe(KEY);
    expect(seen['/api/v2/people']).toBe(KEY);
  });

  it('does not send the key again after the chain left the trusted origins', async () => {
    const { seen, record } = keyLog();
    server.use(
      http.get(`${API}/a`, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 307, headers: { location: `${OTHER}/b` } });
      }),
      http.get(`${OTHER}/b`, ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 307, headers: { location: `${API}/c` } });
      }),
      http.get(`${API}/c`, ({ request }) => {
        record(request);
        return HttpResponse.json({});
      }),
    );
    const transport = createTransport({ apiKey: KEY, trustedOrigins: [API] });
    await transport.request({ method: 'GET', url: `${API}/a` });
    expect(seen).toEqual({ '/a': KEY, '/b': null, '/c': null });
  });

  it('turns a POST answered with 303 into a GET without body', async () => {
    let followed: { method: string; body: string; contentType: string | null } | undefined;
    server.use(
      http.post(`${API}/people`, () =>
        HttpResponse.json(null, { status: 303, headers: { location: `${API}/people/9` } }),
      ),
      http.get(`${API}/people/9`, async ({ request }) => {
        followed = {
          method: request.method,
          body: await request.text(),
          contentType: request.headers.get('content-type'),
        };
        return HttpResponse.json({ id: 9 });
      }),
    );
    const transport = createTransport({ apiKey: KEY, trustedOrigins: [API] });
    const response = await transport.request({
      method: 'POST',
      url: `${API}/people`,
      body: { given_name: 'Ana' },
    });
    expect(response.body).toEqual({ id: 9 });
    expect(followed).toEqual({ method: 'GET', body: '', contentType: null });
  });

  it('gives up after 5 hops', async () => {
    let hops = 0;
    server.use(
      http.get(`${API}/loop/:n`, ({ params }) => {
        hops++;
        const next = Number(params.n) + 1;
        return new HttpResponse(null, { status: 302, headers: { location: `/loop/${next}` } });
      }),
    );
    const transport = createTransport({ apiKey: KEY, trustedOrigins: [API] });
    const failure = await transport
      .request({ method: 'GET', url: `${API}/loop/0` })
      .catch((e) => e);
    expect(isRedirectError(failure)).toBe(true);
    expect(failure.reason).toBe('too-many-redirects');
    expect(hops).toBe(6);
  });

  it('throws a clear error on an opaque redirect (browser fetch with redirect: manual)', async () => {
    // What a browser hands back for `redirect: 'manual'`: status 0, no readable Location.
    // Node cannot build one, so dress up a status-0 response.
    const opaque = Response.error();
    Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
    const transport = createTransport({
      apiKey: KEY,
      trustedOrigins: [API],
      fetch: async () => opaque,
    });
    const failure = await transport.request({ method: 'GET', url: `${API}/moved` }).catch((e) => e);
    expect(isRedirectError(failure)).toBe(true);
    expect(failure.reason).toBe('opaque-redirect');
    expect(failure.message).toContain('opaque redirect');
    expect(failure.message).toContain(`GET ${API}/moved`);
  });
});

describe('trustOrigin / isTrusted', () => {
  it('trusts by origin, not by path, and normalises case and default ports', () => {
    const transport = createTransport();
    transport.trustOrigin('HTTPS://API.example.org:443/api/v1/');
    expect(transport.isTrusted(`${API}/anything/else`)).toBe(true);
    expect(transport.isTrusted('http://api.example.org/api/v1/')).toBe(false);
    expect(transport.isTrusted('https://api.example.org:8443/')).toBe(false);
    expect(transport.isTrusted('https://evil.example.org/')).toBe(false);
    expect(transport.isTrusted('not a url')).toBe(false);
  });

  it('rejects something that is not an http(s) URL', () => {
    expect(() => createTransport().trustOrigin('/api/v1')).toThrow(TypeError);
  });
});

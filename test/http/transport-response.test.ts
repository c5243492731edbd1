import { delay, HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isHTTPError, isResponseFormatError } from '../../src/errors/index.js';
import { createTransport } from '../../src/http/transport.js';

const API = 'https://api.example.org/api/v1';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('successful responses', () => {
  it('parses application/hal+json', async () => {
    server.use(
      http.get(`${API}/`, () =>
        HttpResponse.text('{"std_version":"1.0"}', {
          headers: { 'content-type': 'application/hal+json' },
        }),
      ),
    );
    const response = await createTransport().request({ method: 'GET', url: `${API}/` });
    expect(response).toMatchObject({ status: 200, url: `${API}/`, body: { std_version: '1.0' } });
    expect(response.headers.get('content-type')).toBe('application/hal+json');
  });

  it('parses JSON sent without a content type', async () => {
    server.use(
      http.get(`${API}/plain`, () => {
        const response = new HttpResponse('{"a":1}');
        response.headers.delete('content-type');
        return response;
      }),
    );
    const { body } = await createTransport().request({ method: 'GET', url: `${API}/plain` });
    expect(body).toEqual({ a: 1 });
  });

  it('gives undefined for a 204', async () => {
    server.use(http.delete(`${API}/people/1`, () => new HttpResponse(null, { status: 204 })));
    const response = await createTransport().request({ method: 'DELETE', url: `${API}/people/1` });
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
  });

  it('gives undefined for a 200 with an empty body', async () => {
    server.use(http.post(`${API}/helper`, () => new HttpResponse('', { status: 200 })));
    const response = await createTransport().request({ method: 'POST', url: `${API}/helper` });
    expect(response.body).toBeUndefined();
  });

  it('throws ResponseFormatError for a 2xx body that is not JSON', async () => {
    server.use(http.get(`${API}/`, () => HttpResponse.html('<html>Maintenance</html>')));
    const failure = await createTransport()
      .request({ method: 'GET', url: `${API}/` })
      .catch((e) => e);
    expect(isResponseFormatError(failure)).toBe(true);
    expect(failure.code).toBe('RESPONSE_FORMAT');
    expect(failure.contentType).toBe('text/html');
    expect(failure.bodyText).toBe('<html>Maintenance</html>');
    expect(failure.message).toContain(`GET ${API}/`);
    expect(failure.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('requests', () => {
  it('sends the body as JSON with extra and per-call headers', async () => {
    let seen: Record<string, unknown> = {};
    server.use(
      http.post(`${API}/people`, async ({ request }) => {
        seen = {
          body: await request.json(),
          contentType: request.headers.get('content-type'),
          accept: request.headers.get('accept'),
          userAgent: request.headers.get('user-agent'),
          trace: request.headers.get('x-trace'),
        };
        return HttpResponse.json({ id: 1 }, { status: 201 });
      }),
    );
    const transport = createTransport({ headers: { 'User-Agent': 'adis-sdk-test' } });
    const response = await transport.request({
      method: 'POST',
      url: `${API}/people`,
      body: { given_name: 'Ana' },
      headers: { 'X-Trace': 'abc' },
    });
    expect(response.status).toBe(201);
    expect(seen).toEqual({
      body: { given_name: 'Ana' },
      contentType: 'application/json',
      accept: expect.stringContaining('application/hal+json'),
      userAgent: 'adis-sdk-test',
      trace: 'abc',
    });
  });

  it('uses the URL exactly as given (existing escapes untouched, no slash added)', async () => {
    let seen = '';
    server.use(
      http.get(`${API}/people`, ({ request }) => {
        seen = request.url;
        return HttpResponse.json({});
      }),
    );
    const url = `${API}/people?filter=modified_date%20gt%20%272026-01-01%27&tag=a%2Fb&page=2`;
    await createTransport().request({ method: 'GET', url });
    expect(seen).toBe(url);
  });

  it('refuses a URL that is not absolute http(s) with an InvalidLinkError', async () => {
    for (const url of [
      '/api/v1/people',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
    ]) {
      await expect(createTransport().request({ method: 'GET', url })).rejects.toMatchObject({
        code: 'INVALID_LINK',
        href: url,
      });
    }
  });

  it('sends through a custom fetch', async () => {
    const seen: Request[] = [];
    const transport = createTransport({
      fetch: async (input) => {
        seen.push(input as Request);
        return Response.json({ custom: true });
      },
    });
    const response = await transport.request({ method: 'GET', url: 'https://nowhere.test/x' });
    expect(response.body).toEqual({ custom: true });
    expect(response.url).toBe('https://nowhere.test/x');
    expect(seen.map((request) => request.url)).toEqual(['https://nowhere.test/x']);
  });
});

describe('HTTPError', () => {
  it('names status, method and URL', async () => {
    server.use(http.get(`${API}/people/123`, () => new HttpResponse(null, { status: 404 })));
    const failure = await createTransport({ retry: false })
      .request({ method: 'GET', url: `${API}/people/123` })
      .catch((e) => e);
    expect(isHTTPError(failure)).toBe(true);
    expect(failure.message).toBe(`Request failed with status 404 Not Found: GET ${API}/people/123`);
    expect(failure).toMatchObject({
      code: 'HTTP_ERROR',
      name: 'HTTPError',
      method: 'GET',
      url: `${API}/people/123`,
      status: 404,
      statusText: 'Not Found',
      body: undefined,
      stdError: undefined,
    });
  });

  it('carries the body, the headers and the decoded std:error', async () => {
    server.use(
      http.post(`${API}/questions`, () =>
        HttpResponse.json(
          {
            'std:error': {
              request_type: 'atomic',
              response_code: 400,
              resource_status: [
                {
                  resource: 'std:question',
                  response_code: 400,
                  error_descriptions: [
                    {
                      error_code: 'PARAGRAPH_CANNOT_HAVE_RESPONSES',
                      description: 'A paragraph question cannot have responses',
                      properties: ['responses'],
                    },
                    { error_code: 'RESPONSE_NAME_INVALID', properties: ['responses[2].name'] },
                  ],
                },
              ],
            },
          },
          { status: 400, headers: { 'x-request-id': 'r-1' } },
        ),
      ),
    );
    const failure = await createTransport()
      .request({ method: 'POST', url: `${API}/questions`, body: { question_type: 'Paragraph' } })
      .catch((e) => e);
    expect(failure.message).toBe(
      `Request failed with status 400 Bad Request: POST ${API}/questions (PARAGRAPH_CANNOT_HAVE_RESPONSES: A paragraph question cannot have responses) (and 1 more)`,
    );
    expect(failure.headers.get('x-request-id')).toBe('r-1');
    expect(failure.body).toHaveProperty('std:error');
    expect(failure.stdError.resource_status[0].error_descriptions).toHaveLength(2);
  });

  it('keeps a body that is not JSON as text', async () => {
    server.use(http.get(`${API}/x`, () => HttpResponse.text('Bad Gateway', { status: 502 })));
    const failure = await createTransport({ retry: false })
      .request({ method: 'GET', url: `${API}/x` })
      .catch((e) => e);
    expect(failure.status).toBe(502);
    expect(failure.body).toBe('Bad Gateway');
    expect(failure.stdError).toBeUndefined();
  });

  it('decodes a bare { error } body of an unauthenticated helper call', async () => {
    server.use(
      http.post(`${API}/helper`, () =>
        HttpResponse.json({ error: 'Petition not found' }, { status: 404 }),
      ),
    );
    const failure = await createTransport()
      .request({ method: 'POST', url: `${API}/helper`, body: {}, authenticate: false })
      .catch((e) => e);
    expect(failure.message).toContain('(UNKNOWN: Petition not found)');
  });
});

describe('cancellation', () => {
  it('rejects with the AbortSignal reason, unwrapped, when aborted mid-request', async () => {
    let reached: () => void = () => undefined;
    const atServer = new Promise<void>((resolve) => {
      reached = resolve;
    });
    server.use(
      http.get(`${API}/slow`, async () => {
        reached();
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = createTransport().request({
      method: 'GET',
      url: `${API}/slow`,
      signal: controller.signal,
    });
    // Aborted while the server holds the request: mid-request whatever the machine's load.
    await atServer;
    controller.abort();
    const failure = await pending.catch((e) => e);
    expect(failure).toBe(controller.signal.reason);
    expect(failure).toBeInstanceOf(DOMException);
    expect(failure.name).toBe('AbortError');
  });

  it('rejects at once with an already aborted signal, sending nothing', async () => {
    let calls = 0;
    const transport = createTransport({
      fetch: async () => {
        calls++;
        return Response.json({});
      },
    });
    const reason = new DOMException('stop', 'AbortError');
    await expect(
      transport.request({ method: 'GET', url: `${API}/`, signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(calls).toBe(0);
  });

  it('rejects with the reason when aborted during a retry wait', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/busy`, () => {
        calls++;
        return HttpResponse.json({}, { status: 503, headers: { 'retry-after': '30' } });
      }),
    );
    const controller = new AbortController();
    // Aborted once the 503 is in (so during the 30 s wait), not at a time that a loaded
    // machine could reach before the request was even sent.
    const pending = createTransport({
      hooks: { afterResponse: () => void setTimeout(() => controller.abort(), 30) },
    }).request({
      method: 'GET',
      url: `${API}/busy`,
      signal: controller.signal,
    });
    const failure = await pending.catch((e) => e);
    expect(failure).toBe(controller.signal.reason);
    expect(calls).toBe(1);
  });
});

import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  callHelper,
  isHTTPError,
  isNetworkError,
  isResponseFormatError,
  personSignup,
  recordAttendance,
  recordCanvass,
  recordDonation,
  recordOutreach,
  recordSignature,
  recordSubmission,
} from '../../src/helpers/index.js';

// The light entry, exercised over msw: what each answer of a helper turns into.

const BASE = 'https://api.example.org/api/v1';
const PETITION = `${BASE}/petitions/p1`;
const HELPER = `${PETITION}/record_signature_helper`;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const person = {
  given_name: 'Ana',
  email_addresses: [{ address: 'ana@example.org', primary: true }],
  _links: { self: { href: `${BASE}/people/a1` } },
};
const signature = {
  comments: 'Keep it public',
  _links: {
    self: { href: `${BASE}/signatures/s1` },
    'std:person': { href: `${BASE}/people/a1` },
    'std:petition': { href: PETITION },
  },
  _embedded: { 'std:person': person },
};
const input = { comments: 'Keep it public', person: { given_name: 'Ana' }, add_tags: ['x'] };

/** A non-atomic answer: person and signature written, the tagging refused. */
function nonAtomic(prefix = 'std', withRecords = true) {
  return {
    [`${prefix}:error`]: {
      request_type: 'non-atomic',
      response_code: 400,
      resource_status: [
        { resource: `${prefix}:person`, response_code: 201 },
        { resource: `${prefix}:signature`, response_code: 201 },
        {
          resource: `${prefix}:tagging`,
          response_code: 400,
          error_descriptions: [
            {
              error_code: 'TAG_NAME_DOES_NOT_EXIST',
              description: 'No tag named "x"',
              properties: ['add_tags[0]'],
            },
          ],
        },
      ],
    },
    ...(withRecords
      ? { [`${prefix}:person`]: person, [`${prefix}:signature`]: { comments: 'Keep it public' } }
      : {}),
  };
}

/** Records what the helper received. */
function capture(answer: () => Response) {
  const seen: { body: unknown; headers: Headers; method: string }[] = [];
  server.use(
    http.all(HELPER, async ({ request }) => {
      seen.push({
        body: await request.json().catch(() => undefined),
        headers: request.headers,
        method: request.method,
      });
      return answer();
    }),
  );
  return seen;
}

describe('recordSignature (light entry)', () => {
  it('reads a complete keyed answer: the signature, and the person embedded in it', async () => {
    const seen = capture(() => HttpResponse.json(signature, { status: 201 }));
    const result = await recordSignature(HELPER, input, { apiKey: 'k' });
    expect(result).toEqual({
      accepted: false,
      status: 201,
      complete: true,
      record: signature,
      person,
      failures: [],
      error: undefined,
    });
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.body).toEqual(input);
    expect(seen[0]?.headers.get('content-type')).toBe('application/json');
    expect(seen[0]?.headers.get('std-api-token')).toBe('k');
  });

  it('sends no key when none is given, and reads {} as a complete call without records', async () => {
    const seen = capture(() => HttpResponse.json({}, { status: 200 }));
    const result = await recordSignature(HELPER, input);
    expect(result).toMatchObject({ status: 200, complete: true, record: undefined });
    expect(result.person).toBeUndefined();
    expect(seen[0]?.headers.has('std-api-token')).toBe(false);
  });

  it('reads an empty body as a complete call without records', async () => {
    capture(() => new HttpResponse(null, { status: 200 }));
    const result = await recordSignature(HELPER, input);
    expect(result).toMatchObject({ status: 200, complete: true, record: undefined });
  });

  it('sends the key under the header it is told, and extra headers', async () => {
    const seen = capture(() => HttpResponse.json({}));
    await recordSignature(HELPER, input, {
      apiKey: 'k2',
      apiKeyHeader: 'OSDI-API-Token',
      headers: { 'x-widget': '1' },
    });
    expect(seen[0]?.headers.get('osdi-api-token')).toBe('k2');
    expect(seen[0]?.headers.has('std-api-token')).toBe(false);
    expect(seen[0]?.headers.get('x-widget')).toBe('1');
  });

  it('returns a non-atomic answer with the person and the record beside the error', async () => {
    capture(() => HttpResponse.json(nonAtomic(), { status: 400 }));
    const result = await recordSignature(HELPER, input, { apiKey: 'k' });
    expect(result.status).toBe(400);
    expect(result.complete).toBe(false);
    expect(result.person).toEqual(person);
    expect(result.record).toEqual({ comments: 'Keep it public' });
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({
      resource: 'std:tagging',
      response_code: 400,
      error_descriptions: [{ error_code: 'TAG_NAME_DOES_NOT_EXIST', properties: ['add_tags[0]'] }],
    });
    expect(result.error?.request_type).toBe('non-atomic');
  });

  it('reads the members of a server with another prefix (osdi:person, osdi:signature)', async () => {
    capture(() => HttpResponse.json(nonAtomic('osdi'), { status: 400 }));
    const result = await recordSignature(HELPER, input, { apiKey: 'k' });
    expect(result.person?.given_name).toBe('Ana');
    expect(result.record?.comments).toBe('Keep it public');
    expect(result.failures.map((f) => f.resource)).toEqual(['osdi:tagging']);

    const embeddedOsdi = { ...signature, _embedded: { 'osdi:person': person } };
    capture(() => HttpResponse.json(embeddedOsdi, { status: 201 }));
    expect((await recordSignature(HELPER, input, { apiKey: 'k' })).person).toEqual(person);
  });

  it('returns an anonymous non-atomic answer (the error alone) without records', async () => {
    capture(() => HttpResponse.json(nonAtomic('std', false), { status: 400 }));
    const result = await recordSignature(HELPER, input);
    expect(result).toMatchObject({ status: 400, complete: false, record: undefined });
    expect(result.person).toBeUndefined();
    expect(result.failures.map((f) => f.error_descriptions[0]?.error_code)).toEqual([
      'TAG_NAME_DOES_NOT_EXIST',
    ]);
  });

  it('throws an atomic error as an HTTPError with the decoded std:error', async () => {
    capture(() =>
      HttpResponse.json(
        {
          'std:error': {
            request_type: 'atomic',
            response_code: 400,
            resource_status: [
              {
                resource: 'std:person',
                response_code: 400,
                error_descriptions: [
                  {
                    error_code: 'INVALID_FORMAT',
                    description: 'must be an email address',
                    properties: ['person.email_addresses[0].address'],
                  },
                ],
              },
            ],
          },
        },
        { status: 400 },
      ),
    );
    const error = await recordSignature(HELPER, input).catch((e: unknown) => e);
    expect(isHTTPError(error)).toBe(true);
    if (!isHTTPError(error)) return;
    expect(error.status).toBe(400);
    expect(error.method).toBe('POST');
    expect(error.stdError?.resource_status[0]?.error_descriptions[0]?.error_code).toBe(
      'INVALID_FORMAT',
    );
    expect(error.message).toContain('must be an email address');
  });

  it('throws 404, 401 and 429 as HTTPErrors, bodies or not', async () => {
    for (const [status, body] of [
      [404, { 'std:error': { request_type: 'atomic', resource_status: [] } }],
      [401, undefined],
      [429, { 'std:error': { resource_status: [{ error_descriptions: ['RATE_LIMITED'] }] } }],
    ] as const) {
      capture(() =>
        body === undefined
          ? new HttpResponse(null, { status })
          : HttpResponse.json(body, { status }),
      );
      const error = await recordSignature(HELPER, input).catch((e: unknown) => e);
      expect(isHTTPError(error) && error.status).toBe(status);
    }
  });

  it('throws a network failure as a NetworkError', async () => {
    server.use(http.post(HELPER, () => HttpResponse.error()));
    const error = await recordSignature(HELPER, input).catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect(isNetworkError(error) && error.url).toBe(HELPER);
  });

  it('throws a 2xx answer that is not JSON as a ResponseFormatError', async () => {
    capture(() => new HttpResponse('<html>maintenance</html>', { status: 200 }));
    const error = await recordSignature(HELPER, input).catch((e: unknown) => e);
    expect(isResponseFormatError(error)).toBe(true);
  });

  it('rejects with the reason of an aborted signal, without a request when aborted before', async () => {
    const seen = capture(() => HttpResponse.json({}));
    const controller = new AbortController();
    const reason = new Error('page closed');
    controller.abort(reason);
    await expect(recordSignature(HELPER, input, { signal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(seen).toHaveLength(0);
  });

  it('uses the fetch it is given', async () => {
    const calls: string[] = [];
    const fetch: typeof globalThis.fetch = async (url) => {
      calls.push(String(url));
      return new Response('{}', { status: 200 });
    };
    const result = await recordSignature(HELPER, input, { fetch });
    expect(calls).toEqual([HELPER]);
    expect(result.complete).toBe(true);
  });
});

describe('the other helper functions', () => {
  const key = { apiKey: 'k' };
  const person0 = { given_name: 'Ana' };
  const cases = [
    ['outreach', (href: string) => recordOutreach(href, { type: 'email', person: person0 }, key)],
    [
      'attendance',
      (href: string) => recordAttendance(href, { status: 'accepted', person: person0 }, key),
    ],
    ['donation', (href: string) => recordDonation(href, { amount: 5, person: person0 }, key)],
    ['canvass', (href: string) => recordCanvass(href, { canvass: { success: true } }, key)],
    ['submission', (href: string) => recordSubmission(href, { person: person0 }, key)],
  ] as const;

  for (const [name, call] of cases) {
    it(`${name}: picks std:${name} out of a non-atomic answer`, async () => {
      const href = `${BASE}/x/record_${name}_helper`;
      server.use(
        http.post(href, () =>
          HttpResponse.json(
            {
              'std:error': {
                request_type: 'non-atomic',
                response_code: 400,
                resource_status: [
                  { resource: 'std:item', response_code: 400, errors: [{ code: 'X' }] },
                ],
              },
              'std:person': person,
              [`std:${name}`]: { identifiers: [`t:${name}`] },
            },
            { status: 400 },
          ),
        ),
      );
      const result = await call(href);
      expect(result.record).toEqual({ identifiers: [`t:${name}`] });
      expect(result.person).toEqual(person);
      expect(result.failures.map((f) => f.resource)).toEqual(['std:item']);
    });
  }

  it('personSignup: the person is both the record and the person', async () => {
    const href = `${BASE}/people/person_signup_helper`;
    server.use(http.post(href, () => HttpResponse.json(person, { status: 201 })));
    const created = await personSignup(href, { person: { given_name: 'Ana' } }, { apiKey: 'k' });
    expect(created).toMatchObject({ status: 201, complete: true, record: person, person });

    server.use(http.post(href, () => HttpResponse.json(nonAtomic('std', true), { status: 400 })));
    const partial = await personSignup(href, { person: { given_name: 'Ana' } }, { apiKey: 'k' });
    expect(partial).toMatchObject({ complete: false, record: person, person });
  });

  it('callHelper without a record name takes the member that is not the person', async () => {
    capture(() => HttpResponse.json(nonAtomic('osdi'), { status: 400 }));
    const result = await callHelper(HELPER, input, { apiKey: 'k' });
    expect(result.record).toEqual({ comments: 'Keep it public' });
    expect(result.person).toEqual(person);
  });
});

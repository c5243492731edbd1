import { runInNewContext } from 'node:vm';
import { HTTPError as KyHTTPError } from 'ky';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  ADIS_ERROR_BRAND,
  AdisError,
  type AdisErrorUnion,
  HTTPError,
  isAdisError,
  isHTTPError,
  isNetworkError,
  isResponseFormatError,
  isSchemaValidationError,
  isTimeoutError,
  LinkNotFoundError,
  NetworkError,
  RateLimitError,
  ResponseFormatError,
  SchemaValidationError,
  TimeoutError,
} from '../../src/errors/index.js';

const URL = 'https://api.example.org/api/v1/people/123';

function httpError(body: unknown = undefined): HTTPError {
  return new HTTPError({
    method: 'GET',
    url: URL,
    status: 404,
    statusText: 'Not Found',
    headers: new Headers(),
    body,
  });
}

describe('error classes', () => {
  it('carry a literal code, a name and the brand', () => {
    const errors: AdisErrorUnion[] = [
      httpError(),
      new TimeoutError('GET', URL, 30_000),
      new NetworkError('GET', URL, new TypeError('fetch failed')),
      new ResponseFormatError({
        method: 'GET',
        url: URL,
        status: 200,
        contentType: 'text/html',
        bodyText: '<',
      }),
      new SchemaValidationError({ issues: [] }),
      new LinkNotFoundError('std:people', URL, ['self']),
    ];
    expect(errors.map((e) => [e.code, e.name])).toEqual([
      ['HTTP_ERROR', 'HTTPError'],
      ['TIMEOUT', 'TimeoutError'],
      ['NETWORK', 'NetworkError'],
      ['RESPONSE_FORMAT', 'ResponseFormatError'],
      ['SCHEMA_VALIDATION', 'SchemaValidationError'],
      ['LINK_NOT_FOUND', 'LinkNotFoundError'],
    ]);
    for (const error of errors) {
      expect(error).toBeInstanceOf(AdisError);
      expect(error).toBeInstanceOf(Error);
      expect((error as unknown as Record<symbol, unknown>)[ADIS_ERROR_BRAND]).toBe(true);
      // The brand stays out of logs and JSON.
      expect(Object.keys(error)).not.toContain(ADIS_ERROR_BRAND);
    }
  });

  it('narrow on code', () => {
    const describe = (error: AdisErrorUnion): string => {
      switch (error.code) {
        case 'HTTP_ERROR':
          return `status ${error.status}`;
        case 'TIMEOUT':
          return `after ${error.timeout}`;
        default:
          return error.code;
      }
    };
    expect(describe(httpError())).toBe('status 404');
    expect(describe(new TimeoutError('GET', URL, 5))).toBe('after 5');
  });

  it('HTTPError message says status, method and URL, then the first description', () => {
    expect(httpError().message).toBe(`Request failed with status 404 Not Found: GET ${URL}`);
    const withError = httpError({ errors: [{ code: 'GONE', message: 'Person was merged' }] });
    expect(withError.message).toBe(
      `Request failed with status 404 Not Found: GET ${URL} (GONE: Person was merged)`,
    );
    expect(withError.stdError?.resource_status[0]?.error_descriptions[0]?.error_code).toBe('GONE');
  });

  it('HTTPError gives the error codes without the path through std:error', () => {
    expect(httpError().errorCodes).toEqual([]);
    expect(httpError().errorCode).toBeUndefined();
    expect(httpError('<html>Not Found</html>').errorCodes).toEqual([]);
    // Two resource statuses (a non-atomic batch): every code, in order, each once.
    const batch = httpError({
      'std:error': {
        request_type: 'non-atomic',
        response_code: 400,
        resource_status: [
          {
            resource: 'std:person',
            response_code: 400,
            error_descriptions: [
              { error_code: 'INVALID_PROPERTY', properties: ['email_addresses'] },
              { error_code: 'UNKNOWN_PROPERTY', properties: ['nickname'] },
            ],
          },
          {
            resource: 'std:person',
            response_code: 409,
            error_descriptions: [
              { error_code: 'DUPLICATE_IDENTIFIER', properties: ['identifiers'] },
              { error_code: 'INVALID_PROPERTY', properties: ['postal_addresses'] },
            ],
          },
        ],
      },
    });
    expect(batch.errorCodes).toEqual([
      'INVALID_PROPERTY',
      'UNKNOWN_PROPERTY',
      'DUPLICATE_IDENTIFIER',
    ]);
    expect(batch.errorCode).toBe('INVALID_PROPERTY');
    expect(batch.errorCode).toBe(
      batch.stdError?.resource_status[0]?.error_descriptions[0]?.error_code,
    );
    // The looser shapes the decoder reads too; a description without a code is UNKNOWN.
    expect(httpError({ errors: [{ code: 'GONE' }, 'no code here'] }).errorCodes).toEqual([
      'GONE',
      'UNKNOWN',
    ]);
    // Getters on the prototype: not copied into JSON or logs as own members.
    expect(Object.keys(batch)).not.toContain('errorCodes');
  });

  it('RateLimitError, the other answer with a std:error, gives its codes the same way', () => {
    const error = new RateLimitError({
      method: 'POST',
      url: URL,
      status: 429,
      statusText: 'Too Many Requests',
      headers: new Headers(),
      body: { errors: [{ code: 'RATE_LIMITED', message: 'slow down' }] },
      retryAfter: 120_000,
      maxRetryAfter: 60_000,
    });
    expect(error.errorCodes).toEqual(['RATE_LIMITED']);
    expect(error.errorCode).toBe('RATE_LIMITED');
  });

  it('NetworkError names the underlying cause', () => {
    const cause = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const error = new NetworkError('POST', URL, cause);
    expect(error.message).toBe(`Network error: POST ${URL} (fetch failed: ECONNREFUSED)`);
    expect(error.cause).toBe(cause);
  });

  it('ResponseFormatError says what was expected', () => {
    const init = { method: 'GET', url: URL, status: 200, contentType: 'text/html', bodyText: '<' };
    expect(new ResponseFormatError(init).message).toBe(
      `Unexpected response, expected a JSON body but got text/html (status 200): GET ${URL}`,
    );
    const shaped = new ResponseFormatError({ ...init, reason: 'not an entry point' });
    expect(shaped.message).toBe(`Unexpected response, not an entry point (status 200): GET ${URL}`);
    expect(shaped.reason).toBe('not an entry point');
  });

  it('LinkNotFoundError lists the relations present', () => {
    const error = new LinkNotFoundError('std:people', URL, ['self', 'osdi:people']);
    expect(error.message).toBe(
      `No link "std:people" in ${URL} (relations present: self, osdi:people)`,
    );
  });
});

describe('SchemaValidationError', () => {
  it('is built from a zod 4 error and lists each failing path', () => {
    const Person = z.object({
      given_name: z.string(),
      email_addresses: z.array(z.object({ address: z.email() })),
      _embedded: z.record(z.string(), z.unknown()).optional(),
    });
    const result = Person.safeParse({ given_name: 5, email_addresses: [{ address: 'nope' }] });
    if (result.success) throw new Error('expected a failure');
    const error = new SchemaValidationError(result.error, {
      url: URL,
      resource: 'std:person',
    });
    expect(error.issues).toEqual([
      { path: ['given_name'], message: expect.any(String), code: 'invalid_type' },
      {
        path: ['email_addresses', 0, 'address'],
        message: expect.any(String),
        code: 'invalid_format',
      },
    ]);
    expect(error.message).toContain(`Invalid std:person from ${URL}: given_name: `);
    expect(error.message).toContain('email_addresses[0].address: ');
    expect(error).toMatchObject({ url: URL, resource: 'std:person', cause: result.error });
  });

  it('quotes keys that are not identifiers and caps the list', () => {
    const issues = Array.from({ length: 7 }, (_, i) => ({
      path: ['_embedded', 'std:people', i],
      message: 'bad',
      code: 'custom',
    }));
    const error = new SchemaValidationError({ issues });
    expect(error.message).toContain('_embedded["std:people"][0]: bad');
    expect(error.message).toContain('and 2 more');
  });

  it('adds the code to a generic message (zod/mini loads no locale)', () => {
    const error = new SchemaValidationError({
      issues: [
        { path: ['given_name'], message: 'Invalid input', code: 'invalid_type' },
        { path: ['handle'], message: 'must not start with @', code: 'custom' },
      ],
    });
    expect(error.message).toBe(
      'Invalid resource: given_name: Invalid input (invalid_type); handle: must not start with @',
    );
    expect(error.issues[0]?.message).toBe('Invalid input');
  });
});

describe('type guards', () => {
  it('recognise their own class and reject the others', () => {
    const error = httpError();
    expect(isAdisError(error)).toBe(true);
    expect(isHTTPError(error)).toBe(true);
    expect(isTimeoutError(error)).toBe(false);
    expect(isNetworkError(new NetworkError('GET', URL, undefined))).toBe(true);
    expect(isResponseFormatError(error)).toBe(false);
    expect(isSchemaValidationError(new SchemaValidationError({ issues: [] }))).toBe(true);
  });

  it('work on an error from another realm (name plus brand, no shared prototype)', () => {
    const foreign: unknown = runInNewContext(`
      const error = new Error('Request failed with status 500');
      error.name = 'HTTPError';
      error.code = 'HTTP_ERROR';
      error.status = 500;
      Object.defineProperty(error, Symbol.for('adis-sdk.error'), { value: true });
      error;
    `);
    expect(foreign instanceof Error).toBe(false);
    expect(isAdisError(foreign)).toBe(true);
    expect(isHTTPError(foreign)).toBe(true);
    expect(isTimeoutError(foreign)).toBe(false);
  });

  it('work on a plain Error with the name set plus the brand', () => {
    const copy = Object.assign(new Error('timed out'), {
      name: 'TimeoutError',
      [Symbol.for('adis-sdk.error')]: true,
    });
    expect(isTimeoutError(copy)).toBe(true);
    expect(isHTTPError(copy)).toBe(false);
  });

  it('reject look-alikes without the brand, ky errors included', () => {
    const named = Object.assign(new Error('x'), { name: 'HTTPError', code: 'HTTP_ERROR' });
    const kyError = new KyHTTPError(
      new Response(null, { status: 500 }),
      new Request(URL),
      {} as ConstructorParameters<typeof KyHTTPError>[2],
    );
    for (const value of [named, kyError, new Error('x'), null, undefined, 'HTTPError', {}]) {
      expect(isHTTPError(value)).toBe(false);
      expect(isAdisError(value)).toBe(false);
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeStdError,
  type ErrorDescription,
  errorDescriptions,
  extractEmbeddedResults,
  HTTPError,
  isAdisError,
  isHTTPError,
  type ResourceStatus,
  type StdError,
  StdErrorSchema,
} from '../../src/errors/index.js';
import { toDescriptions, toResourceStatus, toStdError } from '../../src/errors/std-error-wire.js';
import { isJsonObject } from '../../src/hal/index.js';
import {
  findMember,
  helperFailures,
  isPartialSuccess,
  partialResult,
  successResult,
} from '../../src/helpers/result.js';
import { DEEP, nested } from './arbitraries.js';

// Property tests of the std:error decoder and the helpers' result readers: whatever
// body a server sends with an error status, reading it never throws, and what it gives
// back keeps the promises of its type.

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, 0, -1, 1.5, true, '', [], {}, [null], 'atomic'),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A status code as servers write it: a number, digits in a string (of any length), junk. */
const statusCode: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: 100, max: 599 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, -0, ' 400 ', '0400', '4e2', '400.0'),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  fc.stringMatching(/^\s?\d{1,400}\s?$/),
  junk,
);

const text = fc.oneof(fc.string(), fc.double(), junk);

const descriptionWire: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      error_code: text,
      code: text,
      description: text,
      message: text,
      detail: text,
      properties: fc.oneof(fc.array(fc.oneof(fc.string(), junk), { maxLength: 3 }), text),
      property: text,
      hint: text,
      reference_code: text,
    },
    { requiredKeys: [] },
  ),
  fc.string(),
  junk,
);

const descriptionsWire: fc.Arbitrary<unknown> = fc.oneof(
  fc.array(descriptionWire, { maxLength: 3 }),
  descriptionWire,
  fc.dictionary(
    fc.string(),
    fc.oneof(fc.string(), fc.array(fc.oneof(fc.string(), junk), { maxLength: 3 }), junk),
    { maxKeys: 3 },
  ),
);

const resourceStatusWire: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      resource: text,
      response_code: statusCode,
      error_descriptions: descriptionsWire,
      errors: descriptionsWire,
    },
    { requiredKeys: [] },
  ),
  junk,
);

const stdErrorWire: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      request_type: fc.oneof(
        fc.constantFrom('atomic', 'non-atomic', 'non_atomic', 'NONATOMIC', 'Atomic '),
        text,
      ),
      response_code: statusCode,
      resource_status: fc.oneof(fc.array(resourceStatusWire, { maxLength: 3 }), resourceStatusWire),
      error_descriptions: descriptionsWire,
      errors: descriptionsWire,
    },
    { requiredKeys: [] },
  ),
  descriptionsWire,
  junk,
);

/** Member names a body may have beside the error, the dangerous ones included. */
const memberName = fc.oneof(
  fc.constantFrom(
    'std:person',
    'osdi:person',
    'person',
    'std:signature',
    'request_type',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
  ),
  fc.string(),
);

const members = fc.dictionary(
  memberName,
  fc.oneof(
    fc.dictionary(fc.string(), junk, { maxKeys: 2 }),
    fc.array(junk, { maxLength: 2 }),
    junk,
  ),
  { maxKeys: 4 },
);

/** A body sent with an error status, in every shape the decoder knows and some it does not. */
const errorBody: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('std:error', 'osdi:error', 'x_y.z:error'),
      stdErrorWire,
      members,
      members,
    )
    .map(([key, error, extra, embedded]) => ({ ...extra, _embedded: embedded, [key]: error })),
  fc
    .tuple(stdErrorWire, members)
    .map(([error, extra]) => (isJsonObject(error) ? { ...extra, ...error } : error)),
  descriptionsWire.map((errors) => ({ errors })),
  fc.oneof(fc.string(), descriptionWire).map((error) => ({ error })),
  fc.jsonValue(),
);

/** Checks everything the StdError type promises, member by member, then with its schema. */
function expectNormalised(stdError: StdError): void {
  expect(['atomic', 'non-atomic']).toContain(stdError.request_type);
  expectStatusCode(stdError.response_code);
  expect(Array.isArray(stdError.resource_status)).toBe(true);
  for (const status of stdError.resource_status) expectResourceStatus(status);
  expect('raw' in stdError).toBe(true);
  if (stdError.results !== undefined) {
    expect(isJsonObject(stdError.results)).toBe(true);
    expect(Object.keys(stdError.results).length).toBeGreaterThan(0);
    // The members are the server's own: none comes from a prototype it chose.
    expect(Object.getPrototypeOf(stdError.results)).toBe(Object.prototype);
  }
  expect(StdErrorSchema.safeParse(stdError).success).toBe(true);
  const descriptions = errorDescriptions(stdError);
  expect(descriptions.length).toBe(
    stdError.resource_status.reduce((sum, status) => sum + status.error_descriptions.length, 0),
  );
}

function expectStatusCode(code: number | undefined): void {
  if (code !== undefined) expect(Number.isSafeInteger(code)).toBe(true);
}

function expectResourceStatus(status: ResourceStatus): void {
  if (status.resource !== undefined) expect(typeof status.resource).toBe('string');
  expectStatusCode(status.response_code);
  expect(Array.isArray(status.error_descriptions)).toBe(true);
  for (const description of status.error_descriptions) expectDescription(description);
}

function expectDescription(description: ErrorDescription): void {
  expect(typeof description.error_code).toBe('string');
  for (const key of ['description', 'hint', 'reference_code'] as const) {
    if (key in description) expect(typeof description[key]).toBe('string');
  }
  expect(Array.isArray(description.properties)).toBe(true);
  expect(description.properties.every((property) => typeof property === 'string')).toBe(true);
}

describe('decodeStdError', () => {
  it('returns undefined or a normalised StdError for any JSON body', () => {
    fc.assert(
      fc.property(fc.oneof(errorBody, fc.jsonValue()), (body) => {
        const stdError = decodeStdError(body);
        if (stdError !== undefined) expectNormalised(stdError);
        expect(Array.isArray(errorDescriptions(stdError))).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('reports an error for any body that names its error member, whatever the member holds', () => {
    fc.assert(
      fc.property(fc.constantFrom('std:error', 'osdi:error'), fc.jsonValue(), (key, value) => {
        const stdError = decodeStdError({ [key]: value });
        expect(stdError).toBeDefined();
        expect(stdError!.raw).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  it('reads status codes as safe integers: the number or digits given, or none', () => {
    fc.assert(
      fc.property(statusCode, (code) => {
        const stdError = decodeStdError({
          'std:error': { response_code: code, resource_status: [{ response_code: code }] },
        });
        for (const read of [stdError?.response_code, stdError?.resource_status[0]?.response_code]) {
          if (read === undefined) continue;
          expect(Number.isSafeInteger(read)).toBe(true);
          expect(read).toBe(Number(typeof code === 'string' ? code.trim() : code));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the members beside the error as own members of results', () => {
    fc.assert(
      fc.property(stdErrorWire, members, members, (error, extra, embedded) => {
        const body = Object.fromEntries([
          ...Object.entries(extra).filter(([key]) => !/:error$/.test(key)),
          ['_embedded', embedded],
          ['std:error', error],
        ]);
        const expected = Object.fromEntries([
          ...Object.entries(embedded),
          ...Object.entries(body).filter(([key]) => key !== 'std:error' && key !== '_embedded'),
        ]);
        expect(Object.entries(extractEmbeddedResults(body, 'std:error'))).toEqual(
          Object.entries(expected),
        );
        const stdError = decodeStdError(body);
        const results = stdError?.results ?? {};
        expect(Object.keys(results)).toEqual(Object.keys(expected));
        for (const key of Object.keys(expected)) {
          expect(Object.getOwnPropertyDescriptor(results, key)?.value).toBe(expected[key]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('decodes a well-formed spec error to exactly itself', () => {
    const description = fc.record(
      {
        error_code: fc.string(),
        description: fc.string(),
        properties: fc.array(fc.string(), { maxLength: 3 }),
        hint: fc.string(),
        reference_code: fc.string(),
      },
      { requiredKeys: ['error_code', 'properties'] },
    );
    const status = fc.record(
      {
        resource: fc.string(),
        response_code: fc.integer({ min: 100, max: 599 }),
        error_descriptions: fc.array(description, { maxLength: 3 }),
      },
      { requiredKeys: ['error_descriptions'] },
    );
    const wire = fc.record({
      request_type: fc.constantFrom('atomic' as const, 'non-atomic' as const),
      response_code: fc.integer({ min: 400, max: 599 }),
      resource_status: fc.array(status, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(wire, (error) => {
        expect(decodeStdError({ 'std:error': error })).toEqual({ ...error, raw: error });
      }),
      { numRuns: 500 },
    );
  });

  // decodeStdError catches everything, which would hide a reader that throws (and turn
  // a real error into "no error"): the readers themselves must not throw either.
  it('its readers never throw on their own, and give normalised values', () => {
    fc.assert(
      fc.property(fc.oneof(stdErrorWire, resourceStatusWire, descriptionsWire), (value) => {
        const stdError = toStdError(value, value);
        if (stdError !== undefined) expectNormalised(stdError);
        const status = toResourceStatus(value);
        if (status !== undefined) expectResourceStatus(status);
        for (const description of toDescriptions(value) ?? []) expectDescription(description);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('HTTPError', () => {
  it('builds from any body, with a string message naming the request and the first error', () => {
    fc.assert(
      fc.property(
        fc.oneof(errorBody, fc.jsonValue(), fc.string(), fc.constant(undefined)),
        fc.integer({ min: 400, max: 599 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        fc.webUrl(),
        fc.string(),
        (body, status, method, url, statusText) => {
          const error = new HTTPError({
            method,
            url,
            status,
            statusText,
            headers: new Headers(),
            body,
          });
          expect(isAdisError(error)).toBe(true);
          expect(isHTTPError(error)).toBe(true);
          expect(error.code).toBe('HTTP_ERROR');
          expect(typeof error.message).toBe('string');
          expect(error.message).toContain(`${status}`);
          expect(error.message).toContain(`${method} ${url}`);
          expect(error.body).toBe(body);
          expect(error.stdError).toEqual(decodeStdError(body));
          const [first] = errorDescriptions(error.stdError);
          if (first) expect(error.message).toContain(first.error_code);
        },
      ),
      { numRuns: 700 },
    );
  });
});

describe('HTTPError.errorCodes', () => {
  it('is every error_code of every resource status, in first-seen order, each once; errorCode the first', () => {
    fc.assert(
      fc.property(fc.oneof(errorBody, fc.jsonValue(), fc.constant(undefined)), (body) => {
        const error = new HTTPError({
          method: 'POST',
          url: 'https://api.example.org/api/v1/people',
          status: 400,
          statusText: '',
          headers: new Headers(),
          body,
        });
        const all = (error.stdError?.resource_status ?? []).flatMap((status) =>
          status.error_descriptions.map((description) => description.error_code),
        );
        const codes = error.errorCodes;
        // Each once, and nothing that is not in the std:error.
        expect(new Set(codes).size).toBe(codes.length);
        expect(new Set(codes)).toEqual(new Set(all));
        // In the order of first appearance.
        expect(codes).toEqual(all.filter((code, index) => all.indexOf(code) === index));
        expect(error.errorCode).toBe(all[0]);
        // A fresh array each read: a caller's change does not stick.
        codes.push('MINE');
        expect(error.errorCodes).not.toContain('MINE');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('helper results', () => {
  const recordName = fc.option(
    fc.oneof(fc.constantFrom('person', 'signature', '__proto__', 'toString', ''), fc.string()),
    { nil: undefined },
  );

  it('findMember gives an object member of the relation, or undefined, for any members', () => {
    fc.assert(
      fc.property(members, fc.oneof(memberName, fc.string()), (object, name) => {
        const found = findMember(object, name);
        if (found === undefined) return;
        expect(isJsonObject(found)).toBe(true);
        const candidates = Object.entries(object)
          .filter(([key]) => key === name || key.slice(key.indexOf(':') + 1) === name)
          .flatMap(([, value]) => (Array.isArray(value) ? value : [value]));
        expect(candidates).toContain(found);
      }),
      { numRuns: 700 },
    );
  });

  it('isPartialSuccess, helperFailures and partialResult read any decoded error', () => {
    fc.assert(
      fc.property(
        errorBody,
        fc.oneof(fc.constant(400), fc.integer({ min: 100, max: 599 })),
        recordName,
        (body, status, name) => {
          const stdError = decodeStdError(body);
          const partial = isPartialSuccess(status, stdError);
          expect(partial).toBe(
            status === 400 &&
              stdError !== undefined &&
              (stdError.request_type === 'non-atomic' ||
                Object.keys(stdError.results ?? {}).length > 0),
          );
          const failures = helperFailures(stdError);
          for (const failure of failures) expect(stdError?.resource_status).toContain(failure);
          if (stdError === undefined) return;
          const result = partialResult(status, stdError, name);
          expect(result.complete).toBe(false);
          expect(result.status).toBe(status);
          expect(result.failures).toEqual(failures);
          expect(result.error).toBe(stdError);
          for (const part of [result.record, result.person]) {
            if (part !== undefined) expect(isJsonObject(part)).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('successResult reads any body', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), members),
        fc.integer(),
        recordName,
        (body, status, name) => {
          const result = successResult(status, body, name);
          expect(result).toMatchObject({ status, complete: true, failures: [], error: undefined });
          const hasRecord = isJsonObject(body) && Object.keys(body).length > 0;
          expect(result.record).toBe(hasRecord ? body : undefined);
          if (result.person !== undefined) expect(isJsonObject(result.person)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('deep nesting', () => {
  const deepArray = nested(DEEP, 'x', (inner) => [inner]);
  const deepObject = nested(DEEP, 'x', (inner) => ({ a: inner, message: inner }));
  const bodies: [string, unknown][] = [
    ['an array', deepArray],
    ['an object', deepObject],
    ['std:error', { 'std:error': deepObject }],
    ['std:error of arrays', { 'std:error': deepArray }],
    ['resource_status', { 'std:error': { resource_status: [deepArray, deepObject] } }],
    ['error_descriptions', { 'std:error': { resource_status: [{ errors: [deepObject] }] } }],
    ['properties', { errors: [{ code: 'X', properties: deepArray, property: deepObject }] }],
    ['errors', { errors: deepObject }],
    ['error', { error: deepObject }],
    ['a property map', { errors: { name: deepArray, email: [deepObject] } }],
    ['_embedded', { 'std:error': {}, _embedded: deepObject, 'std:person': deepObject }],
    ['a chain of errors', nested(DEEP, {}, (inner) => ({ 'std:error': inner, error: inner }))],
  ];

  it.each(bodies)('reads a body nested through %s 10,000 levels deep', (_, body) => {
    const stdError = decodeStdError(body);
    if (stdError !== undefined) expectNormalised(stdError);
    errorDescriptions(stdError);
    const error = new HTTPError({
      method: 'POST',
      url: 'https://api.example.org/api/v1/people',
      status: 400,
      statusText: 'Bad Request',
      headers: new Headers(),
      body,
    });
    expect(typeof error.message).toBe('string');
    isPartialSuccess(400, stdError);
    helperFailures(stdError);
    if (stdError) partialResult(400, stdError, undefined);
    successResult(200, body, 'signature');
    if (isJsonObject(body)) findMember(body, 'person');
  });

  it('still decodes the errors around a deep value', () => {
    expect(
      decodeStdError({ 'std:error': { resource_status: [deepArray, { errors: [deepObject] }] } })
        ?.resource_status,
    ).toHaveLength(1);
    expect(
      decodeStdError({ 'std:error': {}, _embedded: { 'std:person': deepObject } })?.results,
    ).toHaveProperty(['std:person']);
  });
});

describe('examples', () => {
  // Shrunk counterexamples of the properties above.
  it('reads digits past 2^53 (or past Number.MAX_VALUE) as no status code', () => {
    for (const digits of ['9007199254740992', '9'.repeat(400)]) {
      const stdError = decodeStdError({
        'std:error': { response_code: digits, resource_status: [{ response_code: digits }] },
      });
      expect(stdError?.response_code).toBeUndefined();
      expect(stdError?.resource_status[0]?.response_code).toBeUndefined();
    }
    const largest = { response_code: ' 9007199254740991 ', resource_status: [] };
    expect(decodeStdError({ 'std:error': largest })).toMatchObject({
      response_code: 9007199254740991,
    });
  });

  it('keeps a member named __proto__ as a member of results, not as their prototype', () => {
    const embedded = JSON.parse('{"std:error":{},"_embedded":{"__proto__":{"std:person":{}}}}');
    const nulled = JSON.parse('{"std:error":[],"_embedded":{"__proto__":null}}');
    const beside = JSON.parse('{"std:error":{},"__proto__":{"toString":1}}');
    for (const body of [embedded, nulled, beside]) {
      const results = decodeStdError(body)?.results;
      expect(results).toBeDefined();
      expect(Object.getPrototypeOf(results)).toBe(Object.prototype);
      expect(Object.keys(results!)).toEqual(['__proto__']);
      expect(String(results)).toBe('[object Object]');
    }
    expect(findMember(decodeStdError(embedded)?.results, 'person')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  decodeStdError,
  errorDescriptions,
  extractEmbeddedResults,
  StdErrorSchema,
} from '../../src/errors/index.js';

// The spec's atomic case: a Paragraph question created with responses, one of which
// also has an invalid name; both errors in one error_descriptions array.
const atomicBody = {
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
            description: 'A question of type Paragraph cannot have responses',
            properties: ['question_type', 'responses'],
          },
          {
            error_code: 'RESPONSE_NAME_INVALID',
            description: 'The response name is not valid',
            properties: ['responses[2].name'],
            hint: '^[a-z_]+$',
            reference_code: 'ref-42',
          },
        ],
      },
    ],
  },
};

// The spec's non-atomic case, with the sample's member names `errors` and `code`:
// the person was created, the tagging and the list item were not.
const nonAtomicBody = {
  'std:error': {
    request_type: 'non-atomic',
    response_code: 400,
    resource_status: [
      { resource: 'std:person', response_code: 201, errors: [] },
      {
        resource: 'std:tagging',
        response_code: 400,
        errors: [
          { code: 'TAG_NAME_DOES_NOT_EXIST', description: 'No tag "volunteer"', properties: 'tag' },
        ],
      },
      {
        resource: 'std:item',
        response_code: '500',
        errors: [{ code: 'NOT_SUPPORTED', description: 'Lists are not supported' }],
      },
    ],
  },
  'std:person': { given_name: 'Ana', _links: { self: { href: 'https://x.test/people/1' } } },
  _links: { self: { href: 'https://x.test/person_signup_helper' } },
};

describe('decodeStdError', () => {
  it('decodes the atomic example', () => {
    const decoded = decodeStdError(atomicBody);
    expect(decoded).toEqual({
      request_type: 'atomic',
      response_code: 400,
      resource_status: [
        {
          resource: 'std:question',
          response_code: 400,
          error_descriptions: [
            {
              error_code: 'PARAGRAPH_CANNOT_HAVE_RESPONSES',
              description: 'A question of type Paragraph cannot have responses',
              properties: ['question_type', 'responses'],
            },
            {
              error_code: 'RESPONSE_NAME_INVALID',
              description: 'The response name is not valid',
              properties: ['responses[2].name'],
              hint: '^[a-z_]+$',
              reference_code: 'ref-42',
            },
          ],
        },
      ],
      raw: atomicBody['std:error'],
    });
    expect(StdErrorSchema.safeParse(decoded).success).toBe(true);
  });

  it('decodes the non-atomic example with errors/code, string codes and properties', () => {
    const decoded = decodeStdError(nonAtomicBody);
    expect(decoded?.request_type).toBe('non-atomic');
    expect(decoded?.resource_status.map((s) => [s.resource, s.response_code])).toEqual([
      ['std:person', 201],
      ['std:tagging', 400],
      ['std:item', 500],
    ]);
    expect(errorDescriptions(decoded)).toEqual([
      {
        error_code: 'TAG_NAME_DOES_NOT_EXIST',
        description: 'No tag "volunteer"',
        properties: ['tag'],
      },
      { error_code: 'NOT_SUPPORTED', description: 'Lists are not supported', properties: [] },
    ]);
    expect(decoded?.results).toEqual({ 'std:person': nonAtomicBody['std:person'] });
  });

  it('infers non-atomic from several resource statuses when request_type is missing', () => {
    const { request_type: _omitted, ...withoutType } = nonAtomicBody['std:error'];
    expect(decodeStdError({ 'std:error': withoutType })?.request_type).toBe('non-atomic');
    const single = { resource_status: [{ error_descriptions: [{ error_code: 'X' }] }] };
    expect(decodeStdError({ 'std:error': single })?.request_type).toBe('atomic');
  });

  it('reads the error under another curie prefix', () => {
    const decoded = decodeStdError({ 'osdi:error': atomicBody['std:error'] });
    expect(decoded?.resource_status[0]?.error_descriptions).toHaveLength(2);
  });

  it('reads a bare top-level error object', () => {
    const decoded = decodeStdError(atomicBody['std:error']);
    expect(errorDescriptions(decoded).map((d) => d.error_code)).toEqual([
      'PARAGRAPH_CANNOT_HAVE_RESPONSES',
      'RESPONSE_NAME_INVALID',
    ]);
    expect(decoded?.results).toBeUndefined();
  });

  it('reads a bare { errors: [...] } with objects and strings', () => {
    const body = {
      errors: [{ code: 'EMAIL_INVALID', message: 'Email is invalid', property: 'email' }, 'Oops'],
    };
    expect(decodeStdError(body)).toEqual({
      request_type: 'atomic',
      resource_status: [
        {
          error_descriptions: [
            { error_code: 'EMAIL_INVALID', description: 'Email is invalid', properties: ['email'] },
            { error_code: 'UNKNOWN', description: 'Oops', properties: [] },
          ],
        },
      ],
      raw: body,
    });
  });

  it('reads a { property: messages } map under errors', () => {
    const decoded = decodeStdError({ errors: { email: ['is invalid', 'is taken'] } });
    expect(errorDescriptions(decoded)).toEqual([
      { error_code: 'UNKNOWN', description: 'is invalid', properties: ['email'] },
      { error_code: 'UNKNOWN', description: 'is taken', properties: ['email'] },
    ]);
  });

  it('reads { error: "message" }', () => {
    const decoded = decodeStdError({ error: 'Petition not found' });
    expect(decoded?.request_type).toBe('atomic');
    expect(errorDescriptions(decoded)).toEqual([
      { error_code: 'UNKNOWN', description: 'Petition not found', properties: [] },
    ]);
  });

  it('reads { error: { message, code } }, numeric codes included', () => {
    expect(errorDescriptions(decodeStdError({ error: { message: 'Nope', code: 404 } }))).toEqual([
      { error_code: '404', description: 'Nope', properties: [] },
    ]);
  });

  it('ignores unknown members and odd member types instead of failing', () => {
    const decoded = decodeStdError({
      'std:error': {
        request_type: 'NON_ATOMIC',
        response_code: 'four hundred',
        vendor_extra: { deep: [1, 2] },
        resource_status: [
          'not an object',
          {
            resource: 7,
            response_code: null,
            error_descriptions: [
              42,
              null,
              { error_code: ['x'], description: { text: 'y' }, properties: [1, 'a'] },
            ],
          },
        ],
      },
    });
    expect(decoded).toMatchObject({
      request_type: 'non-atomic',
      resource_status: [
        { resource: '7', error_descriptions: [{ error_code: 'UNKNOWN', properties: ['a'] }] },
      ],
    });
    expect(decoded?.response_code).toBeUndefined();
  });

  it('returns undefined for anything unrecognisable, never throwing', () => {
    const garbage: unknown[] = [
      undefined,
      null,
      42,
      'Internal Server Error',
      [],
      [{ error: 'x' }],
      {},
      { message: 'no error member' },
      { errors: 5 },
      { error: null },
      { error: { nested: { too: 'deep' } } },
    ];
    for (const body of garbage) expect(decodeStdError(body)).toBeUndefined();

    const hostile = {
      get 'std:error'() {
        throw new Error('getter');
      },
    };
    expect(() => decodeStdError(hostile)).not.toThrow();
    expect(decodeStdError(hostile)).toBeUndefined();
  });

  it('reports an explicitly named but empty std:error', () => {
    expect(decodeStdError({ 'std:error': {} })).toEqual({
      request_type: 'atomic',
      resource_status: [],
      raw: {},
    });
  });
});

describe('extractEmbeddedResults', () => {
  it('collects members beside the error, including _embedded ones', () => {
    const body = {
      'std:error': {},
      'std:person': { given_name: 'Ana' },
      _embedded: { 'std:tagging': { tag: 'x' } },
      _links: { self: { href: 'https://x.test/' } },
    };
    expect(extractEmbeddedResults(body)).toEqual({
      'std:person': { given_name: 'Ana' },
      'std:tagging': { tag: 'x' },
    });
    expect(extractEmbeddedResults('nope')).toEqual({});
  });
});

describe('errorDescriptions', () => {
  it('is empty for undefined', () => {
    expect(errorDescriptions(undefined)).toEqual([]);
  });
});

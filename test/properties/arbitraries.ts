import fc from 'fast-check';
import { expect } from 'vitest';
import type * as z from 'zod/mini';
import { InvalidLinkError, isAdisError, isInvalidLinkError } from '../../src/errors/index.js';
import type { TemplateVariables } from '../../src/hal/index.js';

// Arbitraries shared by the property tests: what a server (any server) may send.

/** The base URL most documents are read from. */
export const BASE = 'https://api.example.org/api/v1/';

/** A document URL: usually an http(s) URL, sometimes one nothing relative resolves against. */
export const documentUrl: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(BASE), weight: 4 },
  { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 4 },
  {
    arbitrary: fc.constantFrom('file:///srv/api/', 'about:blank', 'not a url', '', 'urn:isbn:1'),
    weight: 1,
  },
);

/** Hrefs written to break things: schemes that must never be fetched, broken URLs, templates. */
export const CRAFTED_HREFS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\u0000javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'urn:isbn:0451450523',
  'mailto:a@example.org',
  'C:\\Windows\\win.ini',
  '//host',
  '//',
  '///',
  '//[::1',
  'http://[::1',
  'http://',
  'https://',
  'https:///x',
  'http:x',
  'http://exa mple.org/',
  'https://user:pass@example.org:8443/p?q#f',
  'http://127.0.0.1:99999/',
  '{',
  '}',
  '{a b}',
  '{@x}',
  '{+path}',
  '{#frag}',
  '/people{?page,per_page}',
  'https://api.example.org/docs/v1/{rel}',
  '{scheme}://{host}/x',
  '',
  ' ',
  '.',
  '..',
  '../../../../../etc/passwd',
  '?page=2',
  '#top',
  'people/1',
  '/people/1',
  '%',
  '%zz',
  '%00',
  '%2e%2e/%2e%2e/',
  '/a%F0%9F%98%80b',
  '/a\uD800b',
  '/é/ü/日本',
  '\t/people\n',
  'https://xn--nxasmq6b.example/',
  'https://ex\u00ADample.org/',
  `/${'a'.repeat(20_000)}`,
  `https://api.example.org/${'%20'.repeat(5_000)}`,
  '{'.repeat(2_000),
];

/** Any href a server may write. */
export const href: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...CRAFTED_HREFS), weight: 4 },
  { arbitrary: fc.string(), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary' }), weight: 1 },
  { arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 3 },
  { arbitrary: fc.webPath(), weight: 2 },
  { arbitrary: fc.webUrl().map((url) => url.replace(/^https?:/, '')), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom('', '/people', BASE, '{+base}', '{scheme}:'), fc.string())
      .map(([prefix, rest]) => prefix + rest),
    weight: 2,
  },
);

/** A relation name: the spec's, compact ones, odd compact ones, absolute URIs, anything. */
export const rel: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'self',
      'next',
      'prev',
      'curies',
      'std:people',
      'osdi:people',
      'std:person',
      'std:',
      'x:',
      ':y',
      ':',
      'std:error',
      '__proto__',
      'constructor',
      'https://api.example.org/docs/v1/people',
      'https://api.example.org/rels/people',
    ),
    weight: 4,
  },
  {
    arbitrary: fc
      .tuple(fc.constantFrom('std', 'osdi', 'x', 'undeclared', ''), fc.string())
      .map(([prefix, name]) => `${prefix}:${name}`),
    weight: 3,
  },
  { arbitrary: fc.string(), weight: 2 },
);

/** Any JSON value, with some weight on junk that looks almost right. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, 0, -1, 1.5, true, false, '', [], {}, [null], { href: null }, { href: 1 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A link object: an href with the members HAL defines, some of them wrong. */
export const linkObject: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    href,
    templated: fc.oneof(fc.boolean(), junk),
    title: fc.oneof(fc.string(), junk),
    name: fc.oneof(fc.string(), junk),
    type: fc.string(),
  },
  { requiredKeys: ['href'] },
);

/** The value of one `_links` member: an object, an array, a bare href, or junk. */
export const linkValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: linkObject, weight: 4 },
  { arbitrary: fc.array(fc.oneof(linkObject, href, junk), { maxLength: 4 }), weight: 2 },
  { arbitrary: href, weight: 1 },
  { arbitrary: junk, weight: 1 },
);

/** A curie: well-formed, without `{rel}`, with a malformed template, or junk. */
export const curie: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom('std', 'osdi', 'x', ''), fc.string(), junk),
      href: fc.oneof(
        fc.constantFrom(
          'https://api.example.org/docs/v1/{rel}',
          '/docs/{rel}',
          '{rel}',
          '{',
          '{a b}',
          '{@x}',
          '{+rel}',
          'https://api.example.org/docs/v1/',
          'javascript:{rel}',
          '//[::1/{rel}',
        ),
        href,
        junk,
      ),
      templated: fc.oneof(fc.boolean(), junk),
    },
    { requiredKeys: ['name', 'href'] },
  ),
  href,
  junk,
);

/** A `_links.curies` value: an array, a single curie, or junk. */
export const curies: fc.Arbitrary<unknown> = fc.oneof(
  fc.array(curie, { maxLength: 4 }),
  curie,
  junk,
);

/** A `_links` map: relations to link values, maybe with curies. */
export const linksMap: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.dictionary(rel, linkValue, { maxKeys: 6 }), fc.option(curies, { nil: undefined }))
  .map(([links, value]) => (value === undefined ? links : { ...links, curies: value }));

/** A HAL document, with embedded documents down to a small depth, and junk in any place. */
export const halDocument: fc.Arbitrary<unknown> = fc.letrec<{
  doc: Record<string, unknown>;
  embeddedValue: unknown;
}>((tie) => ({
  doc: fc
    .tuple(
      fc.oneof(
        { arbitrary: linksMap, weight: 4 },
        { arbitrary: junk, weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      ),
      fc.oneof(
        {
          arbitrary: fc.dictionary(rel, tie('embeddedValue'), { maxKeys: 3, depthIdentifier: 'e' }),
          weight: 3,
        },
        { arbitrary: junk, weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 2 },
      ),
      fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    )
    .map(([links, embedded, properties]) => ({
      ...properties,
      ...(links === undefined ? {} : { _links: links }),
      ...(embedded === undefined ? {} : { _embedded: embedded }),
    })),
  embeddedValue: fc.oneof(
    { depthSize: 'small', maxDepth: 3, depthIdentifier: 'e' },
    { arbitrary: junk, weight: 1 },
    { arbitrary: tie('doc'), weight: 2 },
    { arbitrary: fc.array(tie('doc'), { maxLength: 3, depthIdentifier: 'e' }), weight: 2 },
  ),
})).doc;

/** A body a server may send where a HAL document is expected: a document or any JSON. */
export const body: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: halDocument, weight: 4 },
  { arbitrary: fc.jsonValue(), weight: 1 },
);

const scalar = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean());

/** Template variables: the declared shape, for the names the templates above use and others. */
export const variables: fc.Arbitrary<TemplateVariables | undefined> = fc.option(
  fc.dictionary(
    fc.oneof(
      fc.constantFrom('path', 'page', 'per_page', 'rel', 'x', 'base', 'scheme', 'host'),
      fc.string(),
    ),
    fc.oneof(
      scalar,
      fc.array(scalar, { maxLength: 4 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
      fc.constant(undefined),
      fc.constantFrom('javascript:alert(1)', '//evil.example', 'https://evil.example/'),
      fc.string({ unit: 'binary' }),
      // What a JavaScript caller may pass whatever the type says.
      fc.anything() as fc.Arbitrary<string>,
    ),
    { maxKeys: 4 },
  ),
  { nil: undefined },
);

/**
 * A value nested `depth` levels deep, built iteratively (a recursive builder would hit
 * the stack limit it is meant to test): `wrap` puts one level around the value inside.
 */
export function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = wrap(value);
  return value;
}

/** How deep the deep-nesting tests go. */
export const DEEP = 10_000;

/**
 * The contract of `Link.url` and `selfUrl`: an absolute http(s) URL, or an
 * InvalidLinkError naming the relation and the document; never anything else.
 * Returns the URL, or undefined when the link was refused (or there was none).
 */
export function expectUrlOrInvalidLink(
  read: () => string | undefined,
  rel: string,
  documentUrl: string,
): string | undefined {
  let url: string | undefined;
  try {
    url = read();
  } catch (error) {
    expect(isAdisError(error)).toBe(true);
    expect(isInvalidLinkError(error)).toBe(true);
    expect(error).toBeInstanceOf(InvalidLinkError);
    const invalid = error as InvalidLinkError;
    expect(invalid.code).toBe('INVALID_LINK');
    expect(invalid.rel).toBe(rel);
    expect(invalid.documentUrl).toBe(documentUrl);
    expect(typeof invalid.message).toBe('string');
    return undefined;
  }
  if (url === undefined) return undefined;
  expect(typeof url).toBe('string');
  expect(['http:', 'https:']).toContain(new URL(url).protocol);
  return url;
}

/**
 * The parts of a zod schema's definition that the property tests' generators read to
 * build values of that schema.
 */
export interface SchemaDef {
  type: string;
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  keyType?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
  entries?: Record<string, string>;
  checks?: readonly { _zod: { def: { check: string; value?: number; inclusive?: boolean } } }[];
}

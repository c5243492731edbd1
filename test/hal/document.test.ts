import { describe, expect, it } from 'vitest';
import {
  Curies,
  expandTemplate,
  HalDocument,
  resolveHref,
  templateVariableNames,
} from '../../src/hal/index.js';

const BASE = 'https://api.example.org/api/v1/';
const STD = { name: 'std', href: 'https://api.example.org/docs/v1/{rel}', templated: true };
const OSDI = { name: 'osdi', href: 'https://api.example.org/docs/v1/{rel}', templated: true };

describe('HalDocument links', () => {
  it('reads a relation holding one link object or an array as a list', () => {
    const doc = HalDocument.parse(
      {
        _links: {
          self: { href: BASE },
          'std:people': [{ href: 'people/1' }, { href: 'people/2' }],
          'std:petitions': { href: 'petitions' },
        },
      },
      BASE,
    );
    expect(doc.links('std:people').map((l) => l.url())).toEqual([
      `${BASE}people/1`,
      `${BASE}people/2`,
    ]);
    expect(doc.links('std:petitions').map((l) => l.url())).toEqual([`${BASE}petitions`]);
  });

  it('reads a bare string href and drops links without an href', () => {
    const doc = HalDocument.parse(
      { _links: { next: 'people?page=2', broken: { title: 'no href' } } },
      `${BASE}people`,
    );
    expect(doc.link('next')?.url()).toBe(`${BASE}people?page=2`);
    expect(doc.links('broken')).toEqual([]);
  });

  it('resolves relative hrefs against the document URL but keeps absolute hrefs as written', () => {
    const doc = HalDocument.parse(
      {
        _links: {
          a: { href: '/root-relative' },
          b: { href: 'HTTPS://Other.Example:443/%7Euser' },
        },
      },
      'https://api.example.org/api/v1/people?page=3',
    );
    expect(doc.link('a')?.url()).toBe('https://api.example.org/root-relative');
    expect(doc.link('b')?.url()).toBe('HTTPS://Other.Example:443/%7Euser');
  });

  it('matches std: and osdi: relations that share a curie href', () => {
    const doc = HalDocument.parse(
      { _links: { curies: [STD, OSDI], 'osdi:people': { href: 'people' } } },
      BASE,
    );
    expect(doc.link('std:people')?.rel).toBe('osdi:people');
    expect(doc.link('std:people')?.url()).toBe(`${BASE}people`);
  });

  it('does not match prefixes whose curies expand differently', () => {
    const doc = HalDocument.parse(
      {
        _links: {
          curies: [
            STD,
            { name: 'vendor', href: 'https://vendor.example/rels/{rel}', templated: true },
          ],
          'vendor:people': { href: 'vendor-people' },
        },
      },
      BASE,
    );
    expect(doc.link('std:people')).toBeUndefined();
    expect(doc.link('vendor:people')?.url()).toBe(`${BASE}vendor-people`);
  });

  it('matches a prefix with no curie literally', () => {
    const doc = HalDocument.parse({ _links: { 'osdi:people': { href: 'people' } } }, BASE);
    expect(doc.link('osdi:people')?.url()).toBe(`${BASE}people`);
    expect(doc.link('std:people')).toBeUndefined();
  });

  it('uses inherited curies when the document declares none', () => {
    const entry = Curies.from([OSDI], BASE).withAlias('std', 'osdi');
    const doc = HalDocument.parse(
      { _links: { 'osdi:signatures': { href: 'sigs' } } },
      `${BASE}people/1`,
      entry,
    );
    expect(doc.link('std:signatures')?.url()).toBe(`${BASE}people/sigs`);
  });

  it('expands templated hrefs before resolving them', () => {
    const doc = HalDocument.parse(
      { _links: { search: { href: 'people{?page,per_page}', templated: true } } },
      BASE,
    );
    expect(doc.link('search')?.url({ page: 2 })).toBe(`${BASE}people?page=2`);
    expect(doc.link('search')?.url()).toBe(`${BASE}people`);
  });

  it('treats a body that is not an object as an empty document', () => {
    for (const body of [undefined, null, [], 'text']) {
      const doc = HalDocument.parse(body, BASE);
      expect(doc.relations()).toEqual([]);
      expect(doc.properties).toEqual({});
    }
  });

  it('separates properties from _links and _embedded', () => {
    const doc = HalDocument.parse({ given_name: 'Ana', _links: {}, _embedded: {} }, BASE);
    expect(doc.properties).toEqual({ given_name: 'Ana' });
  });
});

describe('HalDocument embedded', () => {
  const page = {
    _links: { curies: [OSDI] },
    _embedded: {
      'osdi:people': [
        {
          given_name: 'Ana',
          _links: {
            self: { href: 'people/1' },
            'osdi:signatures': { href: 'people/1/signatures' },
          },
        },
        { given_name: 'Ben' },
        'not a resource',
      ],
    },
  };

  it('gives each embedded resource its own self URL and the container curies', () => {
    const doc = HalDocument.parse(page, `${BASE}people?page=1`, Curies.none);
    const aliased = HalDocument.parse(
      page,
      `${BASE}people?page=1`,
      Curies.from([OSDI], BASE).withAlias('std', 'osdi'),
    );
    const [ana, ben] = aliased.embedded('std:people');
    expect(ana?.url).toBe(`${BASE}people/1`);
    expect(ana?.link('std:signatures')?.url()).toBe(`${BASE}people/1/signatures`);
    // Without its own self link an embedded resource takes its container's URL.
    expect(ben?.url).toBe(`${BASE}people?page=1`);
    expect(doc.embedded('osdi:people')).toHaveLength(2);
  });

  it('reports an empty embedded list as present', () => {
    const doc = HalDocument.parse({ _embedded: { 'std:people': [] } }, BASE);
    expect(doc.hasEmbedded('std:people')).toBe(true);
    expect(doc.hasEmbedded('std:events')).toBe(false);
    expect(doc.embedded('std:people')).toEqual([]);
  });
});

describe('templates and URIs', () => {
  it('expands RFC 6570 level 3 forms and leaves undefined variables out', () => {
    expect(expandTemplate('/people{?page,per_page}', { page: 3, per_page: undefined })).toBe(
      '/people?page=3',
    );
    expect(expandTemplate('/docs/{rel}', { rel: 'people' })).toBe('/docs/people');
    expect(expandTemplate('/search{?q}', { q: 'a b&c' })).toBe('/search?q=a%20b%26c');
    expect(expandTemplate('{/segments*}', { segments: ['a', 'b'] })).toBe('/a/b');
  });

  it('lists template variable names', () => {
    expect(templateVariableNames('/people{?page,per_page}{/id}')).toEqual([
      'page',
      'per_page',
      'id',
    ]);
  });

  it('resolves only relative references', () => {
    expect(resolveHref(BASE, '../v2/')).toBe('https://api.example.org/api/v2/');
    expect(resolveHref(BASE, 'urn:x:1')).toBe('urn:x:1');
  });
});

describe('Curies', () => {
  it('expands a curie even when templated is missing, and ignores nameless curies', () => {
    const curies = Curies.from(
      [
        { name: 'std', href: '/docs/v1/{rel}' },
        { href: '/ignored/{rel}', templated: true },
      ],
      BASE,
    );
    expect(curies.relationId('std:people')).toBe('https://api.example.org/docs/v1/people');
    expect(curies.names()).toEqual(['std']);
  });

  it('keeps absolute-URI relations and plain relations as they are', () => {
    const curies = Curies.from([STD], BASE);
    expect(curies.relationId('https://example.org/rels/x')).toBe('https://example.org/rels/x');
    expect(curies.relationId('next')).toBe('next');
  });
});

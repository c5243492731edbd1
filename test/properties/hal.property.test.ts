import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Curies, HalDocument, isJsonObject } from '../../src/hal/index.js';
import {
  BASE,
  body,
  curies,
  DEEP,
  documentUrl,
  expectUrlOrInvalidLink,
  halDocument,
  linksMap,
  nested,
  rel,
} from './arbitraries.js';

// Property tests of HalDocument's reading side: whatever JSON a server sends, parsing it
// and asking it for relations, links and embedded resources never throws, and each
// answer is what the type says.

const STD = { name: 'std', href: 'https://api.example.org/docs/v1/{rel}', templated: true };
const OSDI = { name: 'osdi', href: 'https://api.example.org/docs/v1/{rel}', templated: true };

/**
 * Every reading method of a document, for the relations it has and some it has not, and
 * of its embedded documents `depth` levels down.
 */
function readAll(doc: HalDocument, rels: readonly string[], depth = 4): void {
  const own = isJsonObject(doc.body._links) ? Object.keys(doc.body._links) : [];
  const relations = doc.relations();
  expect(relations.every((r) => typeof r === 'string' && r !== 'curies' && own.includes(r))).toBe(
    true,
  );
  const properties = doc.properties;
  expect('_links' in properties || '_embedded' in properties).toBe(false);
  expect(Object.keys(properties).length).toBe(
    Object.keys(doc.body).filter((key) => key !== '_links' && key !== '_embedded').length,
  );
  for (const r of [...relations, ...rels]) {
    const links = doc.links(r);
    for (const link of links) {
      // A link is read under one of the document's own relations, matched by identity.
      expect(own).toContain(link.rel);
      expect(link.rel === r || doc.curies.relationId(link.rel) === doc.curies.relationId(r)).toBe(
        true,
      );
      expect(typeof link.href).toBe('string');
      expect(typeof link.templated).toBe('boolean');
      expect(link.base).toBe(doc.base);
      expect(link.documentUrl).toBe(doc.url);
    }
    expect(doc.link(r)?.href).toBe(links[0]?.href);
    const embedded = doc.embedded(r);
    const has = doc.hasEmbedded(r);
    expect(typeof has).toBe('boolean');
    if (embedded.length > 0) expect(has).toBe(true);
    for (const child of embedded) {
      expect(child).toBeInstanceOf(HalDocument);
      expect(child.base).toBe(doc.base);
      expect(typeof child.url).toBe('string');
      if (depth > 0) readAll(child, rels, depth - 1);
    }
  }
}

describe('HalDocument.parse on any JSON', () => {
  it('never throws, and every reading method answers with its type, for any relation', () => {
    fc.assert(
      fc.property(body, documentUrl, fc.array(rel, { maxLength: 4 }), (json, url, rels) => {
        const doc = HalDocument.parse(json, url);
        expect(doc.url).toBe(url);
        expect(doc.base).toBe(url);
        readAll(doc, rels);
      }),
      { numRuns: 700 },
    );
  });

  it('reads any JSON value that is not an object as an empty document', () => {
    const notObject = fc.jsonValue().filter((value) => !isJsonObject(value));
    fc.assert(
      fc.property(notObject, rel, (json, r) => {
        const doc = HalDocument.parse(json, BASE);
        expect(doc.relations()).toEqual([]);
        expect(doc.links(r)).toEqual([]);
        expect(doc.embedded(r)).toEqual([]);
        expect(doc.hasEmbedded(r)).toBe(false);
        expect(doc.properties).toEqual({});
        expect(doc.selfUrl).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('never throws with inherited curies of any shape either', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        body,
        documentUrl,
        fc.array(rel, { maxLength: 3 }),
        (inherited, json, url, rels) => {
          const doc = HalDocument.parse(json, url, Curies.from(inherited, url));
          readAll(doc, rels);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds a compact relation under any prefix that expands alike', () => {
    fc.assert(
      fc.property(fc.string(), linksMap, (reference, links) => {
        const doc = HalDocument.parse(
          { _links: { ...links, curies: [STD, OSDI], [`osdi:${reference}`]: { href: 'x' } } },
          BASE,
        );
        const hrefs = (r: string) => doc.links(r).map((link) => `${link.rel} ${link.href}`);
        expect(hrefs(`std:${reference}`)).toEqual(hrefs(`osdi:${reference}`));
        expect(hrefs(`std:${reference}`)).toContain(`osdi:${reference} x`);
      }),
      { numRuns: 500 },
    );
  });
});

describe('Curies on anything', () => {
  it('relationId never throws, and leaves relations without a declared prefix as written', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), curies),
        fc.oneof(fc.anything(), curies),
        documentUrl,
        rel,
        (value, inheritedValue, base, r) => {
          const inherited = Curies.from(inheritedValue, base);
          const set = Curies.from(value, base, inherited);
          const id = set.relationId(r);
          expect(typeof id).toBe('string');
          expect(set.relationId(r)).toBe(id);
          const colon = r.indexOf(':');
          if (colon <= 0 || !set.names().includes(r.slice(0, colon))) expect(id).toBe(r);
          expect(set.names().every((name) => typeof name === 'string' && name !== '')).toBe(true);
          const aliased = set.withAlias('std', set.names()[0] ?? 'std');
          expect(typeof aliased.relationId(r)).toBe('string');
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('gives the same identity to a reference under two prefixes that expand alike', () => {
    fc.assert(
      fc.property(fc.string(), documentUrl, (reference, base) => {
        const set = Curies.from([STD, OSDI], base);
        expect(set.relationId(`std:${reference}`)).toBe(set.relationId(`osdi:${reference}`));
      }),
      { numRuns: 500 },
    );
  });
});

describe('deep nesting', () => {
  const shapes: [string, (inner: unknown) => unknown][] = [
    ['arrays', (inner) => [inner]],
    ['objects', (inner) => ({ a: inner })],
    ['_links', (inner) => ({ _links: inner })],
    ['_embedded', (inner) => ({ _embedded: { item: inner } })],
    ['_links.self', (inner) => ({ _links: { self: [inner] } })],
    ['_links.curies', (inner) => ({ _links: { curies: [inner] } })],
  ];

  it.each(shapes)('parses and reads a body nested %s 10,000 levels deep', (_, wrap) => {
    const deep = nested(DEEP, { _links: { self: { href: 'self' } } }, wrap);
    for (const json of [
      deep,
      { _links: { next: deep, curies: deep }, _embedded: { item: deep } },
    ]) {
      const doc = HalDocument.parse(json, BASE);
      readAll(doc, ['self', 'item', 'next', 'std:item', 'a']);
      expectUrlOrInvalidLink(() => doc.selfUrl, 'self', doc.url);
    }
  });

  // Each embedded level declares a curie of its own, so the curies in force at the bottom
  // are a chain of 10,000 inherited sets.
  it('reads the bottom of 10,000 embedded levels that each declare a curie', () => {
    let level = 0;
    const deep = nested(
      DEEP,
      { _links: { self: { href: 'bottom' }, 'c0:next': { href: 'next' } } },
      (inner) => ({
        _links: { curies: [{ name: `c${++level}`, href: '/docs/{rel}', templated: true }] },
        _embedded: { item: inner },
      }),
    );
    let doc = HalDocument.parse(
      deep,
      BASE,
      Curies.from([{ name: 'c0', href: '/docs/{rel}' }], BASE),
    );
    for (let level = 0; level < DEEP; level++) {
      const next = doc.embedded('item')[0];
      if (next === undefined) break;
      doc = next;
    }
    expect(doc.curies.names().length).toBe(DEEP + 1);
    expect(doc.curies.relationId('undeclared:x')).toBe('undeclared:x');
    expect(doc.curies.relationId('c0:next')).toBe('https://api.example.org/docs/next');
    expect(doc.curies.withAlias('std', 'c0').relationId('std:next')).toBe(
      'https://api.example.org/docs/next',
    );
    expect(doc.link('c0:next')?.url()).toBe(`${BASE}next`);
    expect(doc.selfUrl).toBe(`${BASE}bottom`);
  });
});

describe('examples', () => {
  // The shrunk counterexample of the deep-nesting property: names() and relationId()
  // walked the inherited sets by recursion, a RangeError past a few thousand levels.
  it('reads a chain of 30,000 inherited curie sets', () => {
    let set = Curies.from([{ name: 'std', href: '/docs/{rel}', templated: true }], BASE);
    for (let level = 1; level < 30_000; level++) {
      set = Curies.from({ name: `c${level}`, href: '/c/{rel}' }, BASE, set);
    }
    expect(set.names()).toHaveLength(30_000);
    expect(set.relationId('std:people')).toBe('https://api.example.org/docs/people');
    expect(set.relationId('none:people')).toBe('none:people');
  });

  it('halDocument generates embedded documents', () => {
    // Guards the arbitrary itself: a generator that never nests would test little.
    const samples = fc.sample(halDocument, { numRuns: 200, seed: 1 });
    expect(samples.some((doc) => isJsonObject(doc) && isJsonObject(doc._embedded))).toBe(true);
  });
});

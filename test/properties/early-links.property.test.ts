import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { earlyLinks } from '../../src/hal/early-links.js';

// earlyLinks reads a document's top-level `_links` off the start of its text, so that a
// read-ahead can leave before the whole page is parsed. What it answers is a hint the
// pager checks, but a wrong hint would cost a request: on any prefix of any JSON
// document it answers nothing or exactly the `_links` JSON.parse gives.

/** JSON objects with a `_links` member somewhere among other members, nested ones too. */
const documents = fc
  .tuple(
    fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  )
  .map(([before, links, after]) => {
    const document: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(before)) if (key !== '_links') document[key] = value;
    document._links = links;
    for (const [key, value] of Object.entries(after)) if (key !== '_links') document[key] = value;
    return document;
  });

describe('earlyLinks (property)', () => {
  it('answers nothing or exactly the parsed _links, on any prefix of any document', () => {
    fc.assert(
      fc.property(documents, fc.boolean(), fc.nat(), (document, pretty, cut) => {
        const text = pretty ? JSON.stringify(document, null, 2) : JSON.stringify(document);
        const links = JSON.parse(text)._links;
        const expected =
          typeof links === 'object' && links !== null && !Array.isArray(links) ? links : undefined;
        const prefix = text.slice(0, cut % (text.length + 1));
        const answer = earlyLinks(prefix);
        if (answer !== undefined) expect(answer).toStrictEqual(expected);
        // The whole text always gives the answer.
        expect(earlyLinks(text)).toStrictEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('never takes a nested or quoted _links for the document’s', () => {
    const text = JSON.stringify({
      note: 'a "_links": {"next": {"href": "/wrong"}} in a string',
      _embedded: { items: [{ _links: { next: { href: '/nested' } } }] },
      _links: { next: { href: '/right' } },
    });
    expect(earlyLinks(text)).toStrictEqual({ next: { href: '/right' } });
    expect(
      earlyLinks(text.slice(0, text.indexOf('"_links":{"next":{"href":"/right"'))),
    ).toBeUndefined();
    expect(earlyLinks('[1, 2]')).toBeUndefined();
    expect(earlyLinks('')).toBeUndefined();
  });
});

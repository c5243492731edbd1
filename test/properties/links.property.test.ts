import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidLinkError } from '../../src/errors/index.js';
import {
  expandTemplate,
  HalDocument,
  isJsonObject,
  Link,
  resolveHref,
  templateVariableNames,
  unfetchableReason,
} from '../../src/hal/index.js';
import {
  BASE,
  body,
  CRAFTED_HREFS,
  DEEP,
  documentUrl,
  expectUrlOrInvalidLink,
  href,
  linkObject,
  nested,
  rel,
  variables,
} from './arbitraries.js';

// Property tests of the addresses a server hands out: a link's URL is an absolute
// http(s) URL or an InvalidLinkError naming the relation and the document, whatever the
// href, the template, the variables or the document URL.

/** Resolves every link of a document and its embedded documents, checking the contract. */
function resolveAll(doc: HalDocument, vars: Parameters<Link['url']>[0], depth = 3): number {
  let checked = 0;
  for (const r of doc.relations()) {
    for (const link of doc.links(r)) {
      expectUrlOrInvalidLink(() => link.url(vars), link.rel, doc.url);
      expectUrlOrInvalidLink(() => link.url(), link.rel, doc.url);
      checked++;
    }
  }
  expectUrlOrInvalidLink(() => doc.selfUrl, 'self', doc.url);
  const embedded = isJsonObject(doc.body._embedded) ? Object.keys(doc.body._embedded) : [];
  for (const r of embedded) {
    for (const child of doc.embedded(r)) {
      if (depth > 0) checked += resolveAll(child, vars, depth - 1);
    }
  }
  return checked;
}

describe('Link.url and selfUrl', () => {
  it('give an http(s) URL or an InvalidLinkError naming the relation and the document', () => {
    fc.assert(
      fc.property(body, documentUrl, variables, (json, url, vars) => {
        resolveAll(HalDocument.parse(json, url), vars);
      }),
      { numRuns: 600 },
    );
  });

  it('keep that contract for any href, templated or not, with any variables', () => {
    fc.assert(
      fc.property(rel, linkObject, documentUrl, variables, (r, attributes, url, vars) => {
        const doc = HalDocument.parse({ _links: { [r]: attributes, self: attributes } }, url);
        const link = doc.link(r);
        if (link === undefined) return; // `curies` or `__proto__` with junk in it
        expect(link.rel).toBe(r);
        expect(link.href).toBe(attributes.href);
        expectUrlOrInvalidLink(() => link.url(vars), r, url);
        expectUrlOrInvalidLink(() => doc.selfUrl, 'self', url);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuse every href that resolves to anything but an http(s) URL', () => {
    fc.assert(
      fc.property(href, fc.boolean(), documentUrl, (h, templated, url) => {
        const link = new Link('next', { href: h, templated }, url);
        let expected: string | undefined;
        try {
          const expanded = templated ? expandTemplate(h) : h;
          const resolved = resolveHref(url, expanded);
          expected = unfetchableReason(resolved) === undefined ? resolved : undefined;
        } catch {
          expected = undefined;
        }
        // The same steps, taken one by one, give the same answer.
        expect(expectUrlOrInvalidLink(() => link.url(), 'next', url)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('expand templated hrefs with the variables, and never append them otherwise', () => {
    fc.assert(
      fc.property(fc.webUrl(), fc.string(), (url, page) => {
        const templated = new Link('next', { href: '{?page}', templated: true }, url);
        const plain = new Link('next', { href: '{?page}' }, url);
        const expanded = templated.url({ page });
        expect(new URL(expanded).searchParams.get('page')).toBe(page);
        expect(plain.url({ page })).toBe(plain.url());
      }),
      { numRuns: 500 },
    );
  });

  it('name the document an embedded link came from', () => {
    fc.assert(
      fc.property(href, href, (selfHref, nextHref) => {
        const page = HalDocument.parse(
          {
            _embedded: { item: [{ _links: { self: { href: selfHref }, next: nextHref } }] },
          },
          BASE,
        );
        const [item] = page.embedded('item');
        expect(item).toBeDefined();
        expectUrlOrInvalidLink(() => item!.selfUrl, 'self', item!.url);
        expectUrlOrInvalidLink(() => item!.link('next')?.url(), 'next', item!.url);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('resolveHref', () => {
  it('keeps an absolute href as written and resolves the rest, or throws InvalidLinkError', () => {
    fc.assert(
      fc.property(documentUrl, href, (base, h) => {
        let resolved: string;
        try {
          resolved = resolveHref(base, h);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidLinkError);
          const invalid = error as InvalidLinkError;
          expect(invalid.code).toBe('INVALID_LINK');
          expect(invalid.href).toBe(h);
          expect(invalid.documentUrl).toBe(base);
          expect(invalid.rel).toBeUndefined();
          return;
        }
        expect(typeof resolved).toBe('string');
        if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(h)) expect(resolved).toBe(h);
        else expect(() => new URL(resolved)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});

describe('unfetchableReason', () => {
  it('never throws, and passes exactly the strings that parse as http(s) URLs', () => {
    fc.assert(
      fc.property(fc.oneof(href, fc.string({ unit: 'binary' })), (x) => {
        const problem = unfetchableReason(x);
        let protocol: string | undefined;
        try {
          protocol = new URL(x).protocol;
        } catch {
          protocol = undefined;
        }
        if (protocol === 'http:' || protocol === 'https:') expect(problem).toBeUndefined();
        else expect(problem).toBe(protocol === undefined ? 'not a URL' : 'not an http(s) URL');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('unfetchableReason on anything', () => {
  it('never throws, whatever a JavaScript caller passes', () => {
    fc.assert(
      fc.property(fc.anything(), (x) => {
        expect(['not a URL', 'not an http(s) URL', undefined]).toContain(
          unfetchableReason(x as string),
        );
      }),
      { numRuns: 500 },
    );
  });
});

describe('templates', () => {
  it('templateVariableNames never throws and lists names as strings', () => {
    fc.assert(
      fc.property(href, (template) => {
        const names = templateVariableNames(template);
        expect(Array.isArray(names)).toBe(true);
        expect(names.every((name) => typeof name === 'string')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('expandTemplate gives a string whenever it does not refuse the template', () => {
    fc.assert(
      fc.property(href, variables, (template, vars) => {
        let expanded: unknown;
        try {
          expanded = expandTemplate(template, vars);
        } catch {
          return; // a malformed server template: Link.url turns this into InvalidLinkError
        }
        expect(typeof expanded).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('deep nesting', () => {
  it('resolves links whose members and variables are nested 10,000 levels deep', () => {
    const deepArray = nested(DEEP, 'x', (inner) => [inner]);
    const deepObject = nested(DEEP, 'x', (inner) => ({ a: inner }));
    const doc = HalDocument.parse(
      {
        _links: {
          self: { href: 'people/1', title: deepObject, name: deepArray, extra: deepObject },
          search: { href: '/people{?page,q*}', templated: true, deprecation: deepArray },
          curies: [{ name: 'x', href: deepObject }, deepArray],
        },
      },
      BASE,
    );
    expect(doc.selfUrl).toBe(`${BASE}people/1`);
    const search = doc.link('search')!;
    expect(search.url({ page: 2 })).toBe('https://api.example.org/people?page=2');
    // Variables outside the type, from a JavaScript caller: a URL or an InvalidLinkError.
    for (const value of [deepArray, deepObject]) {
      const vars = { page: value, q: value } as unknown as Parameters<Link['url']>[0];
      expectUrlOrInvalidLink(() => search.url(vars), 'search', BASE);
    }
  });
});

describe('examples', () => {
  it.each(CRAFTED_HREFS.map((h) => [JSON.stringify(h).slice(0, 40), h]))(
    'the crafted href %s',
    (_, h) => {
      for (const templated of [false, true]) {
        const link = new Link('std:person', { href: h, templated }, BASE, `${BASE}people`);
        const url = expectUrlOrInvalidLink(
          () => link.url({ path: 'x' }),
          'std:person',
          `${BASE}people`,
        );
        if (/^\s*(javascript|data|file|urn|mailto|c):/i.test(h)) expect(url).toBeUndefined();
      }
    },
  );

  it('refuses javascript:, file: and broken hosts with the relation and the document', () => {
    const doc = HalDocument.parse(
      {
        _links: {
          self: { href: 'javascript:alert(1)' },
          a: { href: 'file:///etc/passwd' },
          b: { href: 'http://[::1' },
          c: { href: '{', templated: true },
        },
      },
      BASE,
    );
    for (const [r, read] of [
      ['self', () => doc.selfUrl],
      ['a', () => doc.link('a')?.url()],
      ['b', () => doc.link('b')?.url()],
      ['c', () => doc.link('c')?.url()],
    ] as const) {
      expect(read).toThrow(InvalidLinkError);
      try {
        read();
      } catch (error) {
        expect(error).toMatchObject({ code: 'INVALID_LINK', rel: r, documentUrl: BASE });
      }
    }
  });
});

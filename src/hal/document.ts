import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { LinkNotFoundError } from '../errors/link-not-found-error.js';
import { Curies, curiesOf } from './curies.js';
import { type HalLink, isJsonObject, toLinkList } from './link.js';
import { expandTemplate, type TemplateVariables } from './template.js';
import { resolveHref, unfetchableReason } from './uri.js';

/**
 * One link of a HAL document, with what is needed to turn it into a URL: the relation
 * it was found under and the base URL of the document it came from.
 *
 * @example
 * ```ts
 * import { HalDocument } from 'adis-sdk';
 *
 * const page = HalDocument.parse({ _links: { next: { href: '?page=2' } } }, 'https://api.example.org/api/v1/people');
 * const next = page.link('next');
 * if (next) console.log(next.rel, next.url()); // next https://api.example.org/api/v1/people?page=2
 * ```
 */
export class Link {
  /** The relation exactly as the server spelled it, for example `osdi:people`. */
  readonly rel: string;
  /** The href exactly as the server wrote it (a template when `templated`). */
  readonly href: string;
  /** Whether `href` is an RFC 6570 template, to expand with {@link Link.url}. */
  readonly templated: boolean;
  /** The link's `title`, when it has a string one. */
  readonly title: string | undefined;
  /** The link's `name` (a key among links of one relation), when it has a string one. */
  readonly name: string | undefined;
  /** All members of the link object, including ones HAL does not define. */
  readonly attributes: Readonly<HalLink>;
  /** The URL relative hrefs are resolved against. */
  readonly base: string;
  /** The URL of the document the link was read from, for error messages. */
  readonly documentUrl: string;

  /**
   * A link read from a document's `_links`. {@link HalDocument.link} and
   * {@link HalDocument.links} build these; build one yourself only to follow an href
   * that came from elsewhere.
   *
   * @param rel - The relation the link was found under.
   * @param attributes - The link object (`href` and the rest).
   * @param base - The URL relative hrefs are resolved against: the document's URL.
   * @param documentUrl - The URL of the document the link was read from (default
   *   `base`), named when the link turns out unusable.
   *
   * @example
   * ```ts
   * import { Link } from 'adis-sdk';
   *
   * const link = new Link('next', { href: '/api/v1/people?page=2' }, 'https://api.example.org/api/v1/people');
   * link.url(); // 'https://api.example.org/api/v1/people?page=2'
   * ```
   */
  constructor(rel: string, attributes: HalLink, base: string, documentUrl: string = base) {
    this.rel = rel;
    this.documentUrl = documentUrl;
    this.href = attributes.href;
    this.templated = attributes.templated === true;
    this.title = typeof attributes.title === 'string' ? attributes.title : undefined;
    this.name = typeof attributes.name === 'string' ? attributes.name : undefined;
    this.attributes = attributes;
    this.base = base;
  }

  /**
   * The absolute URL of the link. A templated href is expanded with `variables` first
   * and resolved afterwards (resolving first would percent-encode the braces).
   * Variables given to a link that is not templated are ignored: the href is the only
   * canonical address, and the SDK never appends to it.
   *
   * The href is server data, checked here: one that is not a URL, resolves to anything
   * but an absolute http(s) URL, or is a template that cannot be expanded is an
   * {@link InvalidLinkError} naming the relation and the document.
   *
   * @example
   * ```ts
   * import { Link } from 'adis-sdk';
   *
   * const base = 'https://api.example.org/api/v1/';
   * new Link('std:people', { href: 'people' }, base).url(); // 'https://api.example.org/api/v1/people'
   * new Link('search', { href: 'people{?page}', templated: true }, base).url({ page: 2 });
   * // 'https://api.example.org/api/v1/people?page=2'
   * ```
   */
  url(variables?: TemplateVariables): string {
    let href: string;
    try {
      href = this.templated ? expandTemplate(this.href, variables) : this.href;
    } catch (error) {
      throw this.#invalid('a URI template that cannot be expanded', error);
    }
    let url: string;
    try {
      url = resolveHref(this.base, href);
    } catch (error) {
      throw this.#invalid('not a URL reference', error);
    }
    const problem = unfetchableReason(url);
    if (problem !== undefined) throw this.#invalid(problem);
    return url;
  }

  #invalid(reason: string, cause?: unknown): InvalidLinkError {
    return new InvalidLinkError(
      { rel: this.rel, href: this.href, documentUrl: this.documentUrl, reason },
      cause === undefined ? {} : { cause },
    );
  }
}

/**
 * A parsed HAL+JSON document.
 *
 * Ambiguities of HAL and how this class resolves them:
 * - A relation may hold one link or an array of links; both read as a list.
 * - Relations are matched by their curie-expanded URI, so `std:people` finds
 *   `osdi:people` when both prefixes expand alike (see {@link Curies}).
 * - Relative hrefs, including those inside `_embedded` resources, resolve against
 *   the URL the outermost document was fetched from: that is the base URI of the whole
 *   representation under RFC 3986, though HAL itself does not say so.
 * - An embedded resource's own URL is its `self` link; without one it has none of its
 *   own, and its container's URL is used as its base.
 * - An embedded resource whose `self` href cannot be resolved keeps its container's URL
 *   as its own, and the bad href fails (an InvalidLinkError) only when something
 *   resolves `self`, such as `selfUrl`: one bad record does not spoil a page.
 * - A body that is not an object (an empty page as `[]`, or nothing at all) reads as an
 *   empty document rather than an error: the spec allows an empty JSON object for an
 *   empty collection, and servers stretch that. Where a record is expected, the
 *   navigator refuses such a body before it gets here.
 *
 * @example
 * ```ts
 * import { HalDocument } from 'adis-sdk';
 *
 * const json = await (await fetch('https://api.example.org/api/v1/')).json();
 * const doc = HalDocument.parse(json, 'https://api.example.org/api/v1/');
 * doc.link('std:people')?.url();
 * doc.embedded('std:people').map((person) => person.properties.given_name);
 * ```
 */
export class HalDocument {
  /** The base for relative hrefs. */
  readonly base: string;
  /** The document as received. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The curies in force in the document: its own and those it inherited. */
  readonly curies: Curies;
  readonly #links: Readonly<Record<string, unknown>>;
  readonly #embedded: Readonly<Record<string, unknown>>;
  // An embedded resource's URL is worked out when first asked for: a page of 100
  // people would otherwise parse 100 URLs that a walk reading only `data` never uses.
  #url: string | undefined;
  readonly #selfHref: string | undefined;

  private constructor(
    body: Record<string, unknown>,
    url: string | undefined,
    base: string,
    curies: Curies,
    selfHref?: string,
  ) {
    this.body = body;
    this.#url = url;
    this.#selfHref = selfHref;
    this.base = base;
    this.curies = curies;
    this.#links = isJsonObject(body._links) ? body._links : {};
    this.#embedded = isJsonObject(body._embedded) ? body._embedded : {};
  }

  /** The document's own URL: the URL it was fetched from, or an embedded resource's `self`. */
  get url(): string {
    if (this.#url === undefined) {
      this.#url = this.#selfHref === undefined ? this.base : embeddedUrl(this.base, this.#selfHref);
    }
    return this.#url;
  }

  /**
   * Reads a document fetched from `url`. `inherited` are curies in force from outside
   * the document, usually the entry point's.
   */
  static parse(body: unknown, url: string, inherited?: Curies): HalDocument {
    const object = isJsonObject(body) ? body : {};
    return new HalDocument(object, url, url, curiesOf(object, url, inherited ?? Curies.none));
  }

  /** The members of the document other than `_links` and `_embedded`. */
  get properties(): Record<string, unknown> {
    const { _links: _l, _embedded: _e, ...properties } = this.body;
    return properties;
  }

  /** The relations present in `_links` (`curies` excluded), as the server spelled them. */
  relations(): string[] {
    return Object.keys(this.#links).filter((rel) => rel !== 'curies');
  }

  /** All links of a relation, matched by curie-expanded identity. */
  links(rel: string): Link[] {
    const links: Link[] = [];
    for (const key of this.#matchingKeys(this.#links, rel)) {
      for (const attributes of toLinkList(this.#links[key])) {
        links.push(new Link(key, attributes, this.base, this.url));
      }
    }
    return links;
  }

  /** The first link of a relation, or undefined when the document has none. */
  link(rel: string): Link | undefined {
    return this.links(rel)[0];
  }

  /**
   * The first link of a relation, or a LinkNotFoundError naming `where` (default: the
   * document's URL), the relations the document does link, and its curies whose href
   * names no relation (the likely reason, when there are some).
   */
  requireLink(rel: string, where: string = this.url): Link {
    const link = this.link(rel);
    if (!link) {
      throw new LinkNotFoundError(rel, where, this.relations(), this.curies.problems());
    }
    return link;
  }

  /**
   * The resources embedded under a relation, each as a document of its own that
   * inherits this document's curies and base URL.
   */
  embedded(rel: string): HalDocument[] {
    const documents: HalDocument[] = [];
    for (const key of this.#matchingKeys(this.#embedded, rel)) {
      const value = this.#embedded[key];
      for (const item of Array.isArray(value) ? value : [value]) {
        if (!isJsonObject(item)) continue;
        const curies = curiesOf(item, this.base, this.curies);
        const selfHref = toLinkList(isJsonObject(item._links) ? item._links.self : undefined)[0]
          ?.href;
        documents.push(new HalDocument(item, undefined, this.base, curies, selfHref));
      }
    }
    return documents;
  }

  /**
   * True when `_embedded` has a member for the relation (even an empty array: an empty
   * embedded list is an answer, not a reason to fetch the links).
   */
  hasEmbedded(rel: string): boolean {
    return this.#matchingKeys(this.#embedded, rel).length > 0;
  }

  /** The document's `self` link URL, if it has one. */
  get selfUrl(): string | undefined {
    return this.link('self')?.url();
  }

  #matchingKeys(members: Readonly<Record<string, unknown>>, rel: string): string[] {
    const wanted = this.curies.relationId(rel);
    return Object.keys(members).filter(
      (key) => key === rel || (key !== 'curies' && this.curies.relationId(key) === wanted),
    );
  }
}

// An embedded resource's own URL: its `self` resolved, or its container's URL when the
// href is no http(s) URL (the error is left to whoever resolves `self` itself), so that
// `document.url` is always an address the SDK could request.
function embeddedUrl(base: string, selfHref: string): string {
  try {
    const url = resolveHref(base, selfHref);
    return unfetchableReason(url) === undefined ? url : base;
  } catch {
    return base;
  }
}

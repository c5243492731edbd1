/**
 * Absolute hrefs. Built from the request's origin, so the server works behind any host
 * and port, unless a public URL is configured (behind a proxy that rewrites Host).
 */

import { API_PREFIX, recordPath } from '../domain/record-paths.js';
import type { RecordHome } from '../presets/record-homes.js';
import { CANONICAL_PREFIX } from './relations.js';

/** The documentation path prefix (the curie's `/docs/v1/{rel}`). */
export const DOCS_PREFIX = '/docs/v1';

/** A HAL link object. */
export interface Link {
  href: string;
  title?: string;
  templated?: boolean;
  name?: string;
  index?: string;
}

/**
 * URL builder for one request, and how its links are named: the relations it writes
 * carry the server's curie prefix (`std` unless configured otherwise; see
 * `relations.ts`).
 *
 * @example
 * ```ts
 * import { Urls } from './links.js';
 *
 * const urls = new Urls('http://127.0.0.1:8000');
 * urls.record('people', 'abc'); // 'http://127.0.0.1:8000/api/v1/people/abc'
 * urls.rel('people'); // 'std:people'
 * ```
 */
export class Urls {
  readonly root: string;
  /** The curie prefix of the relations, without its colon. */
  readonly curiePrefix: string;
  /** The API path prefix: `/api/v1`, or a preset's (`/api/v2`). */
  readonly apiPrefix: string;
  /** Further curie names with the same href (a preset's `action_network`). */
  readonly extraCuries: readonly string[];
  /** Relations written under another curie, by name (a preset's `relationNames`). */
  readonly relationNames: Readonly<Record<string, string>>;

  constructor(
    root: string,
    curiePrefix = CANONICAL_PREFIX,
    apiPrefix = API_PREFIX,
    extraCuries: readonly string[] = [],
    relationNames: Readonly<Record<string, string>> = {},
    homes: Readonly<Record<string, RecordHome>> = {},
  ) {
    this.root = root.replace(/\/+$/, '');
    this.curiePrefix = curiePrefix;
    this.apiPrefix = apiPrefix;
    this.extraCuries = extraCuries;
    this.relationNames = relationNames;
    this.homes = homes;
    this.key = JSON.stringify([
      this.root,
      curiePrefix,
      apiPrefix,
      extraCuries,
      relationNames,
      homes,
    ]);
  }

  /**
   * Where the records of a kind live under a parent, by the kind's plural (a preset's
   * `recordsUnderParents`); empty on the plain server.
   */
  readonly homes: Readonly<Record<string, RecordHome>>;

  /**
   * What every href and relation this builder writes depends on, as one string: two
   * builders with the same key write the same links (render-json.ts caches by it).
   */
  readonly key: string;

  /**
   * A relation name under the curie prefix: `people` → `std:people`; a name the
   * preset writes under another curie as it says (`action_network:event_campaigns`).
   */
  rel(name: string): string {
    return this.relationNames[name] ?? `${this.curiePrefix}:${name}`;
  }

  /** The entry point (with its trailing slash, as the spec's examples show it). */
  entryPoint(): string {
    return `${this.root}${this.apiPrefix}/`;
  }

  /** A path below the API base. */
  api(path: string): string {
    return `${this.root}${this.apiPrefix}/${path.replace(/^\/+/, '')}`;
  }

  /** A collection. */
  collection(plural: string): string {
    return this.api(plural);
  }

  /** A record. */
  record(plural: string, id: string): string {
    return `${this.root}${recordPath(plural, id, this.apiPrefix)}`;
  }

  /**
   * A record's own address, given its references: under its parent when the kind lives
   * there (`…/petitions/p1/signatures/s1`) and the record has that parent; else
   * {@link record}'s.
   */
  recordAt(plural: string, id: string, refs: Readonly<Record<string, { id: string }>>): string {
    const home = this.homes[plural];
    const parent = home && refs[home.via];
    if (!home || !parent) return this.record(plural, id);
    return this.api(
      `${home.parent}/${encodeURIComponent(parent.id)}/${home.sub}/${encodeURIComponent(id)}`,
    );
  }

  /** A record's sub-collection. */
  subCollection(plural: string, id: string, sub: string): string {
    return this.api(`${plural}/${encodeURIComponent(id)}/${sub}`);
  }

  /** The documentation index. */
  docs(): string {
    return `${this.root}${DOCS_PREFIX}/`;
  }

  /**
   * The curies array every document carries: the prefix's, then any further names with
   * the same href (Action Network writes `osdi` and `action_network`, one documentation).
   */
  curies(): Link[] {
    const href = `${this.root}${DOCS_PREFIX}/{rel}`;
    return [this.curiePrefix, ...this.extraCuries].map((name) => ({ name, href, templated: true }));
  }
}

/**
 * The root URL for a request: the configured public URL, or the request's origin.
 *
 * @example
 * ```ts
 * import { requestRoot } from './links.js';
 *
 * requestRoot('http://localhost:8000/api/v1/people?page=2', undefined); // 'http://localhost:8000'
 * ```
 */
export function requestRoot(requestUrl: string, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl;
  // The origin depends only on the scheme and authority, which the requests to one
  // server share: the last one's origin is kept instead of parsing every URL.
  const authorityEnd = requestUrl.indexOf('/', requestUrl.indexOf('//') + 2);
  if (!/^https?:\/\//.test(requestUrl) || authorityEnd === -1) return new URL(requestUrl).origin;
  const prefix = requestUrl.slice(0, authorityEnd);
  if (prefix !== lastOrigin.prefix) lastOrigin = { prefix, origin: new URL(prefix).origin };
  return lastOrigin.origin;
}

let lastOrigin = { prefix: '', origin: '' };

/**
 * Adds query parameters to a URL.
 *
 * @example
 * ```ts
 * import { withQuery } from './links.js';
 *
 * withQuery('http://h/api/v1/people', { page: 2, per_page: 100 }); // 'http://h/api/v1/people?page=2&per_page=100'
 * ```
 */
export function withQuery(
  href: string,
  params: Record<string, string | number | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${href}?${query}` : href;
}

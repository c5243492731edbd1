/**
 * HAL representations of records and collection documents.
 */
import type { KindRegistry, ResourceKind } from '../domain/kinds.js';
import type { PageRequest } from '../domain/paging.js';
import { type CollectionPage, REFS, referencesOf } from '../domain/records.js';
import type { JsonObject, StoredRecord } from '../storage/storage.js';
import { type Link, type Urls, withQuery } from './links.js';

/**
 * A record with its `_links`: self, one link per reference it holds (`std:person`,
 * `std:creator`, …), one per sub-collection, and its totals as members. Single-record
 * responses add the curies (so `std:` resolves); records embedded in a collection rely
 * on the collection's curies.
 *
 * @example
 * ```ts
 * renderRecord(urls, registry, petitionKind, record, { total_signatures: 3 }, true);
 * ```
 */
export function renderRecord(
  urls: Urls,
  registry: KindRegistry,
  kind: ResourceKind,
  record: StoredRecord,
  totals: Record<string, number> | undefined,
  withCuries: boolean,
): JsonObject {
  const links: Record<string, Link | Link[]> = {
    self: { href: urls.record(kind.plural, record.id) },
  };
  for (const [rel, ref] of Object.entries(referencesOf(record.doc))) {
    const target = registry.bySingular(ref.kind);
    if (target) links[`std:${rel}`] = { href: urls.record(target.plural, ref.id) };
  }
  for (const sub of kind.subCollections) {
    links[`std:${sub.plural}`] = {
      href: urls.subCollection(kind.plural, record.id, sub.plural),
      title: sub.title,
    };
  }
  for (const helper of kind.helpers ?? []) {
    links[`std:${helper.rel}`] = {
      href: urls.subCollection(kind.plural, record.id, helper.path),
      title: helper.title,
    };
  }
  if (withCuries) links.curies = urls.curies();
  const { [REFS]: _refs, ...stored } = record.doc;
  const fields = kind.view ? kind.view(stored, new Date()) : stored;
  const doc = totals
    ? kind.renderTotals
      ? kind.renderTotals(fields, totals)
      : { ...fields, ...totals }
    : fields;
  return { ...doc, _links: links };
}

/**
 * The short answer when `std:control.return_response` is false: only the identifiers
 * and the self link, enough to find the record again.
 *
 * @example
 * ```ts
 * minimalRecord(urls, personKind, record); // { identifiers: ['adis:…'], _links: { self: { href } } }
 * ```
 */
export function minimalRecord(urls: Urls, kind: ResourceKind, record: StoredRecord): JsonObject {
  return {
    identifiers: record.doc.identifiers,
    _links: { self: { href: urls.record(kind.plural, record.id) } },
  };
}

/**
 * The spec's collection document. `next` and `previous` carry the page number and a
 * keyset cursor (`after`/`before` = a record's seq) so following them stays cheap and
 * never skips or repeats records when others are added or removed meanwhile.
 *
 * @example
 * ```ts
 * renderCollection(urls.collection('people'), 'people', page, request, urls.curies(), (r) => renderRecord(urls, registry, personKind, r, undefined, false));
 * ```
 */
export function renderCollection(
  href: string,
  plural: string,
  page: CollectionPage,
  request: PageRequest,
  curies: Link[],
  renderItem: (record: StoredRecord, index: number) => JsonObject,
  query: Record<string, string | undefined> = {},
): JsonObject {
  const rel = `std:${plural}`;
  const perPage = page.perPage;
  const links: Record<string, Link | Link[]> = {
    self: {
      href: withQuery(href, {
        ...query,
        page: page.page,
        per_page: perPage,
        after: request.after,
        before: request.before,
      }),
    },
  };
  const first = page.records[0];
  const last = page.records[page.records.length - 1];
  if (page.hasNext && last) {
    links.next = {
      href: withQuery(href, { ...query, page: page.page + 1, per_page: perPage, after: last.seq }),
    };
  }
  if (page.page > 1) {
    links.previous = {
      href: withQuery(href, {
        ...query,
        page: page.page - 1,
        per_page: perPage,
        before: first?.seq,
      }),
    };
  }
  links.curies = curies;
  const items = page.records.map(renderItem);
  links[rel] = items.map((item) => {
    const self = (item._links as Record<string, Link>).self;
    return { href: self?.href ?? '' };
  });
  return {
    total_pages: page.totalPages,
    per_page: perPage,
    page: page.page,
    total_records: page.totalRecords,
    _links: links,
    _embedded: { [rel]: items },
  };
}

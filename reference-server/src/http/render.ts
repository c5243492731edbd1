/**
 * HAL representations of records as objects: a record with its `_links` (the shape every
 * answer and webhook body carries), the short answer of a write that asks for none, and
 * the `_links` of a collection page. Reads send the same text spliced from the stored
 * bytes instead (`render-json.ts`), which falls back to {@link renderRecord} wherever the
 * splice could not give exactly its text: this module is the definition of that text.
 */
import { writeDateTimes } from '../domain/date-times.js';
import type { KindRegistry, ResourceKind } from '../domain/kinds.js';
import type { PageRequest } from '../domain/paging.js';
import { type CollectionPage, REFS, referencesOf } from '../domain/records/index.js';
import type { JsonObject, StoredRecord } from '../storage/storage.js';
import { type Link, type Urls, withQuery } from './links.js';

/** A record to render, and how: what {@link renderRecord} and `renderRecordJson` take. */
export interface RecordToRender {
  /** The request's URL builder. */
  urls: Urls;
  /** The served kinds, to link references to. */
  registry: KindRegistry;
  /** The record's kind. */
  kind: ResourceKind;
  record: StoredRecord;
  /** The record's totals, added as members. */
  totals: Record<string, number> | undefined;
  /** Whether to add the curies: a record alone has them, one embedded in a page does not. */
  withCuries: boolean;
}

/**
 * A record with its `_links`: self, one link per reference it holds (`std:person`,
 * `std:creator`, …), one per sub-collection, and its totals as members; its date-times
 * in the kind's style (`dateTimes`, the preset's: Action Network's whole seconds).
 * Single-record responses add the curies (so `std:` resolves); records embedded in a
 * collection rely on the collection's curies.
 */
export function renderRecord({
  urls,
  registry,
  kind,
  record,
  totals,
  withCuries,
}: RecordToRender): JsonObject {
  const refs = referencesOf(record.doc);
  const links: Record<string, Link | Link[]> = {
    self: { href: urls.recordAt(kind.plural, record.id, refs) },
  };
  for (const [rel, ref] of Object.entries(refs)) {
    const target = registry.bySingular(ref.kind);
    if (target) links[urls.rel(rel)] = { href: urls.record(target.plural, ref.id) };
  }
  for (const sub of kind.subCollections) {
    links[urls.rel(sub.plural)] = {
      href: urls.subCollection(kind.plural, record.id, sub.plural),
      title: sub.title,
    };
  }
  for (const helper of kind.helpers ?? []) {
    links[urls.rel(helper.rel)] = {
      href: urls.subCollection(kind.plural, record.id, helper.path),
      title: helper.title,
    };
  }
  if (withCuries) links.curies = urls.curies();
  const { [REFS]: _refs, ...stored } = record.doc;
  // After the view: what it derives (a message's `sent_end_date`) is written alike.
  const viewed = kind.view ? kind.view(stored, new Date()) : stored;
  const fields = writeDateTimes(viewed, kind.dateTimes);
  const doc = totals
    ? kind.renderTotals
      ? kind.renderTotals(fields, totals)
      : { ...fields, ...totals }
    : fields;
  return { ...doc, _links: links };
}

/**
 * The short answer when `std:control.return_response` is false: only the identifiers
 * and the self link (the record's own address, as in its full answer), enough to find
 * the record again.
 */
export function minimalRecord(urls: Urls, kind: ResourceKind, record: StoredRecord): JsonObject {
  return {
    identifiers: record.doc.identifiers,
    _links: { self: { href: urls.recordAt(kind.plural, record.id, referencesOf(record.doc)) } },
  };
}

/**
 * The `_links` of a collection document before its list of records: self, `next` and
 * `previous` with the page number and a keyset cursor (`after`/`before` = a record's
 * seq), so that following them stays cheap and never skips or repeats records when
 * others are added or removed meanwhile; then the curies. With `nextWhileRecords`, a
 * page holding records links a `next` one even when it is the last (see
 * `CollectionOptions` in `render-json.ts`).
 */
export function collectionLinks(
  href: string,
  page: CollectionPage,
  request: PageRequest,
  curies: Link[],
  query: Record<string, string | undefined>,
  nextWhileRecords: boolean,
): Record<string, Link | Link[]> {
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
  if ((page.hasNext || nextWhileRecords) && last) {
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
  return links;
}

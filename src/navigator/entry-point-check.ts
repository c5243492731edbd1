import { type HalDocument, isJsonObject } from '../hal/index.js';

// What `connect` holds a document to before taking it as the API entry point. Given a
// collection's URL instead, a client would page `std:people` inside a page of people,
// find none, and answer an empty list: so a collection page, a record, or a document
// that links no collection is refused, and the refusal says which it was. The rules
// use only what any compliant server sends (relations named `<prefix>:<plural>`, the
// paging members, `identifiers`), so they hold for every prefix and every vendor.

/** The paging members of a collection page (`CollectionPageSchema`'s members). */
const PAGING_MEMBERS = ['total_records', 'total_pages', 'page', 'per_page'] as const;

/**
 * Members only an entry point has (the specification's, Action Network's spellings, and
 * any `<prefix>_version`): a document with one of them declares itself an entry point.
 */
const ENTRY_POINT_MEMBERS =
  /^(motd|max_pagesize|max_page_size|vendor_name|product_name|namespace|[a-z_]+_version)$/;

/** Relations a document may use to point at the API's entry point. */
const ENTRY_POINT_RELATIONS = ['index', 'start'] as const;

/**
 * Why `document` is not an API entry point, or undefined when it is one. It is refused
 * when it is a collection page (records of a known kind embedded under
 * `<prefix>:<plural>`, the paging members, or a page of record links), a record (it has
 * `identifiers`, or a `self` link such as `…/people/<id>` and no entry point member),
 * or when it links no collection an entry point links. The reason names what was found
 * and, when the document or its URL shows one, the likely entry point.
 *
 * @param document - The document read from the URL given to `connect`.
 * @param plurals - The plurals of every kind known: the table of declared kinds plus
 *   the kinds given to the connection. Pages and records are told by them.
 * @param linked - The plurals whose collections an entry point links: the
 *   specification's and those of the kinds given (not a preset's kinds the connection
 *   lacks: Action Network's metadata document links `action_network:custom_fields`).
 */
export function notAnEntryPoint(
  document: HalDocument,
  plurals: ReadonlySet<string>,
  linked: ReadonlySet<string>,
): string | undefined {
  const found = whatItIs(document, plurals, linked);
  if (found === undefined) return undefined;
  // Only a page or a record says by its address where the collections are.
  return found.startsWith('a document') ? found : `${found}${suggestion(document, plurals)}`;
}

function whatItIs(
  document: HalDocument,
  plurals: ReadonlySet<string>,
  linked: ReadonlySet<string>,
): string | undefined {
  const body = document.body;
  const known = (rel: string) => plurals.has(localName(rel));
  const self = selfHref(document);
  // Entry points carry no identifiers; every record of the specification does.
  if (Array.isArray(body.identifiers)) {
    const first = body.identifiers.find((id) => typeof id === 'string');
    return self !== undefined
      ? `a record (self link ${self})`
      : `a record (identifiers ${first ?? '[]'})`;
  }
  const embedded = isJsonObject(body._embedded) ? body._embedded : {};
  const embeddedRel = Object.keys(embedded).find(known);
  if (embeddedRel !== undefined) {
    return `a collection of ${embeddedRel} (${count(embedded[embeddedRel], 'record')})`;
  }
  const links = isJsonObject(body._links) ? body._links : {};
  const linkedRel = Object.keys(links).find(
    (rel) => known(rel) && Array.isArray(links[rel]) && links[rel].length > 1,
  );
  if (linkedRel !== undefined) {
    return `a collection of ${linkedRel} (${count(links[linkedRel], 'record link')})`;
  }
  const paging = PAGING_MEMBERS.filter((name) => Object.hasOwn(body, name));
  if (paging.length > 0) {
    return `a collection page (${paging.map((name) => `${name}: ${JSON.stringify(body[name])}`).join(', ')})`;
  }
  if (Object.keys(body).some((member) => ENTRY_POINT_MEMBERS.test(member))) return undefined;
  // No record of any kind links the people collection; every entry point does. An entry
  // point under a path that looks like a record's (`/organizations/acme/`) is one.
  if (document.relations().some((rel) => localName(rel) === 'people')) return undefined;
  if (self !== undefined && isRecordAddress(self, plurals)) return `a record (self link ${self})`;
  if (!document.relations().some((rel) => linked.has(localName(rel)))) {
    const relations = document.relations();
    return `a document that links none of the collections an entry point links (relations: ${relations.join(', ') || 'none'})`;
  }
  return undefined;
}

/** The name of a relation without its prefix: `people` for `osdi:people` or `…/rels/people`. */
function localName(rel: string): string {
  return rel.slice(Math.max(rel.lastIndexOf(':'), rel.lastIndexOf('/')) + 1);
}

/** "a page of 25 records", for what `_embedded` or `_links` holds under a relation. */
function count(value: unknown, noun: string): string {
  const n = Array.isArray(value) ? value.length : 1;
  return `a page of ${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The `self` href as an absolute URL, or undefined (also when it cannot be resolved). */
function selfHref(document: HalDocument): string | undefined {
  try {
    return document.selfUrl;
  } catch {
    return undefined;
  }
}

/** Whether a URL's path ends with `/<plural>/<id>`: the address of a record. */
function isRecordAddress(url: string, plurals: ReadonlySet<string>): boolean {
  const segments = new URL(url).pathname.split('/').filter((segment) => segment !== '');
  const parent = segments.at(-2);
  return parent !== undefined && plurals.has(parent);
}

/**
 * Where the entry point likely is: the document's `index` or `start` link, else the
 * address above the first path segment that names a collection (`…/api/v1/` for
 * `…/api/v1/people/4c1e`). Empty when neither shows one.
 */
function suggestion(document: HalDocument, plurals: ReadonlySet<string>): string {
  for (const rel of ENTRY_POINT_RELATIONS) {
    const link = document.link(rel);
    if (!link) continue;
    try {
      return `; its ${rel} link, ${link.url()}, may be the entry point`;
    } catch {
      // An unusable link suggests nothing.
    }
  }
  const url = new URL(document.url);
  const segments = url.pathname.split('/');
  const at = segments.findIndex((segment) => plurals.has(segment));
  if (at <= 0) return '';
  url.pathname = `${segments.slice(0, at).join('/')}/`;
  url.search = '';
  url.hash = '';
  return `; the entry point is likely ${url.toString()}`;
}

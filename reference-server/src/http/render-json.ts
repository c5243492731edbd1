/**
 * HAL representations of records and collection documents as UTF-8 JSON, spliced: the
 * fast path of reads ({@link renderRecordJson}, {@link renderCollectionJson}).
 *
 * A record's stored document is spliced in as the bytes it was stored as, and its links
 * come from text built once per kind, instead of decoding and parsing every document,
 * copying it into a new object with its links, serialising it all again and encoding
 * the result (for a page of 100 people, the encoding alone cost as much as the rest).
 * The bytes are exactly those of `JSON.stringify` of {@link renderRecord}'s object;
 * records the splice cannot reproduce exactly (a kind with a `view` or its own totals
 * rendering, a kind whose date-times are respelled, a record whose self link is under
 * its parent, a document read or changed since it was loaded) go through
 * {@link renderRecord}.
 */
import { respells } from '../domain/date-times.js';
import type { References, ResourceKind } from '../domain/kinds.js';
import type { PageRequest } from '../domain/paging.js';
import { type CollectionPage, REFS, referencesOf } from '../domain/records/index.js';
import { storedDocJson } from '../storage/doc-json.js';
import type { JsonObject } from '../storage/storage.js';
import type { Link, Urls } from './links.js';
import { collectionLinks, type RecordToRender, renderRecord } from './render.js';

/** How {@link renderCollectionJson} writes a page beyond its records and links. */
export interface CollectionOptions {
  /**
   * Whether the page carries `total_records` and `total_pages`. Default true (the
   * spec's); false for the collections a preset serves without them (Action Network's
   * people): `page`, `per_page` and the next/previous links stay.
   */
  totals?: boolean;
  /**
   * Whether a page that holds records links a `next` page even when it is the last
   * (that page then holds none, and links no further). Default false (the spec's: no
   * `next` on the last page); true where a server does not count its records, as Action
   * Network pages without totals do.
   */
  nextWhileRecords?: boolean;
}

/**
 * The spec's collection document, as UTF-8 JSON, from records already rendered by
 * {@link renderRecordJson} (in the page's order), its links those of
 * {@link collectionLinks}: the records' bytes are copied into one buffer, never parsed
 * or serialised again.
 */
export function renderCollectionJson(
  href: string,
  /** The relation of the records (`std:people`), in `_links` and `_embedded`. */
  rel: string,
  page: CollectionPage,
  request: PageRequest,
  curies: Link[],
  items: readonly RenderedRecord[],
  query: Record<string, string | undefined> = {},
  options: CollectionOptions = {},
): Buffer<ArrayBuffer> {
  const relJson = JSON.stringify(rel);
  const links = JSON.stringify(
    collectionLinks(href, page, request, curies, query, options.nextWhileRecords === true),
  );
  const counts = JSON.stringify(
    options.totals === false
      ? { per_page: page.perPage, page: page.page }
      : {
          total_pages: page.totalPages,
          per_page: page.perPage,
          page: page.page,
          total_records: page.totalRecords,
        },
  );
  const hrefs = items.map((item) => JSON.stringify({ href: item.href })).join(',');
  // The counts, then `_links` ending with the list of record links, then `_embedded`.
  const head = Buffer.from(
    `${counts.slice(0, -1)},"_links":${links.slice(0, -1)},${relJson}:[${hrefs}]},"_embedded":{${relJson}:[`,
  );
  // The records write straight into the answer: one buffer, each byte written once.
  const commas = Math.max(0, items.length - 1);
  let size = head.length + commas + END_OF_COLLECTION.length;
  for (const item of items) size += item.byteLength;
  const out = Buffer.allocUnsafe(size);
  let at = head.copy(out, 0);
  items.forEach((item, index) => {
    if (index > 0) out[at++] = COMMA_BYTE;
    at = item.writeTo(out, at);
  });
  END_OF_COLLECTION.copy(out, at);
  return out;
}

const END_OF_COLLECTION = Buffer.from(']}}');

/**
 * A record rendered by {@link renderRecordJson}: its UTF-8 JSON, written on demand into
 * the buffer of a whole answer (see {@link recordBytes} for the record alone), and its
 * self href.
 */
export interface RenderedRecord {
  /** Bytes of the record's JSON. */
  readonly byteLength: number;
  /** Writes the record's JSON into `out` at `at`; returns the offset after it. */
  writeTo(out: Buffer, at: number): number;
  readonly href: string;
}

/**
 * A rendered record's JSON alone.
 */
export function recordBytes(rendered: RenderedRecord): Buffer<ArrayBuffer> {
  const out = Buffer.allocUnsafe(rendered.byteLength);
  rendered.writeTo(out, 0);
  return out;
}

/** A record rendered through {@link renderRecord}, serialised and encoded. */
class SerialisedRecord implements RenderedRecord {
  readonly byteLength: number;
  constructor(
    private readonly bytes: Buffer,
    readonly href: string,
  ) {
    this.byteLength = bytes.length;
  }
  writeTo(out: Buffer, at: number): number {
    return at + this.bytes.copy(out, at);
  }
}

/**
 * A record spliced from its stored JSON: the stored members, the totals, then `_links`:
 * self, the references, the rest (and the curies for a record alone).
 */
class SplicedRecord implements RenderedRecord {
  readonly byteLength: number;
  constructor(
    private readonly body: Buffer,
    private readonly totals: Buffer | undefined,
    private readonly head: SlottedBytes,
    private readonly refs: Buffer | undefined,
    private readonly tail: SlottedBytes,
    /** The record's id as `encodeURIComponent` gives it. */
    private readonly id: string,
    readonly href: string,
  ) {
    this.byteLength =
      body.length +
      (totals?.length ?? 0) +
      head.bytes.length +
      (refs?.length ?? 0) +
      tail.bytes.length;
  }
  writeTo(out: Buffer, at: number): number {
    let next = at + this.body.copy(out, at);
    if (this.totals) next += this.totals.copy(out, next);
    next = this.head.writeTo(out, next, this.id);
    if (this.refs) next += this.refs.copy(out, next);
    return this.tail.writeTo(out, next, this.id);
  }
}

/**
 * {@link renderRecord}'s representation as UTF-8 JSON, and the record's self href.
 * Spliced from the stored JSON when that gives exactly the same text (see the top of
 * this module); otherwise serialised from {@link renderRecord}.
 */
export function renderRecordJson(what: RecordToRender): RenderedRecord {
  const spliced = splicedRecord(what);
  if (spliced) return spliced;
  const rendered = renderRecord(what);
  const self = (rendered._links as Record<string, Link>).self;
  return new SerialisedRecord(Buffer.from(JSON.stringify(rendered)), self?.href ?? '');
}

/** {@link renderRecordJson} from the stored JSON; undefined when it cannot be exact. */
function splicedRecord(what: RecordToRender): RenderedRecord | undefined {
  const { urls, registry, kind, record, totals, withCuries } = what;
  // A record living under its parent (a preset's `recordsUnderParents`) has the
  // parent's id in its self href: the template has a slot for its own id only. Stored
  // bytes hold date-times as stored: another style needs them rewritten.
  if (kind.view || kind.renderTotals || respells(kind.dateTimes) || urls.homes[kind.plural]) {
    return undefined;
  }
  const json = storedDocJson(record);
  if (json === undefined) return undefined;
  const template = linkTemplate(urls, kind);
  const stored = template && splitStoredDoc(json);
  // An empty document (`{`) would need other commas; documents always hold identifiers.
  if (!template || !stored || stored.body.length === 1) return undefined;
  const members = totalsJson(json, totals);
  if (members === undefined) return undefined;
  let refs = '';
  for (const [rel, ref] of Object.entries(stored.refs)) {
    const target = registry.bySingular(ref.kind);
    if (!target) continue;
    // renderRecord's object would hold such a relation once, where it first came.
    if (template.names.has(rel)) return undefined;
    refs += `,${JSON.stringify(urls.rel(rel))}:${JSON.stringify({ href: urls.record(target.plural, ref.id) })}`;
  }
  const id = encodeURIComponent(record.id);
  return new SplicedRecord(
    stored.body,
    members ? Buffer.from(members) : undefined,
    template.head.forLength(id.length),
    refs ? Buffer.from(refs) : undefined,
    (withCuries ? template.tailWithCuries : template.tail).forLength(id.length),
    id,
    template.selfHref + id,
  );
}

/**
 * A stored document's JSON cut for splicing: `body` is the JSON without its closing
 * brace and without the `_refs` member, `refs` the references that member held.
 * Undefined when the JSON cannot be cut exactly like {@link renderRecord} drops `_refs`
 * and adds `_links`: `_refs` not the last member (documents are stored with it last,
 * see `composeDocument`), or a `_links` member anywhere. The bytes are UTF-8, where no
 * byte of a multi-byte character can be taken for an ASCII one.
 *
 * @example
 * ```ts
 * import { splitStoredDoc } from './render-json.js';
 *
 * splitStoredDoc(Buffer.from('{"name":"x","_refs":{"person":{"kind":"person","id":"p1"}}}'));
 * // { body: <the bytes of '{"name":"x"'>, refs: { person: { kind: 'person', id: 'p1' } } }
 * ```
 */
export function splitStoredDoc(json: Buffer): { body: Buffer; refs: References } | undefined {
  if (json[0] !== OPEN_BRACE || json[json.length - 1] !== CLOSE_BRACE) return undefined;
  if (lastQuoted(json, LINKS_NAME) !== -1) return undefined;
  const at = lastQuoted(json, REFS_NAME);
  if (at === -1) return { body: json.subarray(0, -1), refs: {} };
  // A quote inside a string is escaped, so `,"_refs":` is a member name after another
  // member. `{` plus the rest parses as an object of that one member only if it is the
  // last member at the top level: a nested one leaves more closing braces than opening.
  if (json[at - 1] !== COMMA_BYTE || json[at + REFS.length + 2] !== COLON) return undefined;
  let tail: unknown;
  try {
    tail = JSON.parse(`{${json.toString('utf8', at)}`);
  } catch {
    return undefined;
  }
  if (typeof tail !== 'object' || tail === null || Object.keys(tail).length !== 1) {
    return undefined;
  }
  return { body: json.subarray(0, at - 1), refs: referencesOf(tail as JsonObject) };
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA_BYTE = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;

/** The names searched for, without their opening quote (see {@link lastQuoted}). */
const LINKS_NAME = Buffer.from('_links"');
const REFS_NAME = Buffer.from(`${REFS}"`);

/**
 * Where the last `"<name>"` starts in `json`, or -1, given `<name>"`: the search checks
 * the quote before. Names here start with `_`, rare in JSON, so the search skips ahead
 * fast, where one starting with a quote would stop at every string.
 */
function lastQuoted(json: Buffer, nameAndQuote: Buffer): number {
  let found = -1;
  for (let at = json.indexOf(nameAndQuote); at !== -1; at = json.indexOf(nameAndQuote, at + 1)) {
    if (json[at - 1] === QUOTE) found = at - 1;
  }
  return found;
}

/**
 * The totals as members to append after the stored ones, in renderRecord's order
 * (`{ ...fields, ...totals }`); undefined when a total's name already appears in the
 * stored JSON, where the spread would have replaced a member in place.
 */
function totalsJson(json: Buffer, totals: Record<string, number> | undefined): string | undefined {
  if (!totals) return '';
  let out = '';
  for (const [name, value] of Object.entries(totals)) {
    const key = JSON.stringify(name);
    if (json.includes(key)) return undefined;
    out += `,${key}:${JSON.stringify(value)}`;
  }
  return out;
}

/**
 * Text around a record's encoded id (`pieces.join(id)`) as UTF-8 bytes, made once per
 * id length with room for the id at each slot: a record's copy is one copy of those
 * bytes and its id written into the slots. A page's links (four fifths of its bytes)
 * then cost little more than copying them. `encodeURIComponent` yields ASCII only (one
 * byte per character), and no character JSON would escape.
 */
class SlottedText {
  private readonly byLength = new Map<number, SlottedBytes>();

  constructor(private readonly pieces: readonly string[]) {}

  /** The bytes for ids of `idLength` characters. */
  forLength(idLength: number): SlottedBytes {
    let made = this.byLength.get(idLength);
    if (made === undefined) {
      // Record ids are UUIDs, all of one length; imported ids of many lengths must not
      // grow this without bound.
      if (this.byLength.size >= 8) this.byLength.clear();
      made = new SlottedBytes(this.pieces, idLength);
      this.byLength.set(idLength, made);
    }
    return made;
  }
}

/** {@link SlottedText} for ids of one length. */
class SlottedBytes {
  readonly bytes: Buffer;
  private readonly slots: number[] = [];

  constructor(pieces: readonly string[], idLength: number) {
    const chunks: Buffer[] = [];
    let offset = 0;
    pieces.forEach((piece, index) => {
      const bytes = Buffer.from(piece);
      chunks.push(bytes);
      offset += bytes.length;
      if (index < pieces.length - 1) {
        this.slots.push(offset);
        chunks.push(Buffer.alloc(idLength));
        offset += idLength;
      }
    });
    this.bytes = Buffer.concat(chunks);
  }

  /** Writes `pieces.join(id)` into `out` at `at`; returns the offset after it. */
  writeTo(out: Buffer, at: number, id: string): number {
    this.bytes.copy(out, at);
    const slots = this.slots;
    if (slots.length > 0) {
      // The id's bytes once, then copied within the buffer to the other slots.
      const start = at + (slots[0] as number);
      for (let i = 0; i < id.length; i++) out[start + i] = id.charCodeAt(i);
      for (let k = 1; k < slots.length; k++) {
        out.copyWithin(at + (slots[k] as number), start, start + id.length);
      }
    }
    return at + this.bytes.length;
  }
}

/** A kind's links for one URL root and curie prefix, around a record's encoded id. */
interface LinkTemplate {
  /** The key of the URL builder it was built for (root, prefixes, relation names). */
  urlsKey: string;
  /** `,"_links":{"self":{"href":"…/people/<id>"}`. */
  head: SlottedText;
  /** The sub-collection and helper links (`,"std:…":{…}` each, under the prefix), closing `_links` and the record. */
  tail: SlottedText;
  /** The same with the curies before the closing braces, for records rendered alone. */
  tailWithCuries: SlottedText;
  /** The self href without the id. */
  selfHref: string;
  /** The relations (without their prefix) of `tail`. */
  names: ReadonlySet<string>;
}

/**
 * Templates by kind, each for the last URL builder key it was asked for (usually the
 * only one: one server, one prefix).
 */
const templates = new WeakMap<ResourceKind, LinkTemplate | null>();

/**
 * The link template of a kind for `urls`' root; undefined when two links of the kind
 * share a relation (renderRecord's object keeps one of them).
 */
function linkTemplate(urls: Urls, kind: ResourceKind): LinkTemplate | undefined {
  const known = templates.get(kind);
  if (known === null) return undefined;
  if (known?.urlsKey === urls.key) return known;
  const built = buildLinkTemplate(urls, kind);
  templates.set(kind, built ?? null);
  return built;
}

/** The pieces of renderRecord's links around the id, in its order. */
function buildLinkTemplate(urls: Urls, kind: ResourceKind): LinkTemplate | undefined {
  // `"…` without its closing quote, and `…"` without its opening one.
  const open = (value: string) => JSON.stringify(value).slice(0, -1);
  const close = (value: string) => JSON.stringify(value).slice(1);
  const selfHref = urls.record(kind.plural, '');
  const base = open(selfHref);
  const rest: string[] = [''];
  const names = new Set<string>();
  const linked = [
    ...kind.subCollections.map((sub) => ({ rel: sub.plural, path: sub.plural, title: sub.title })),
    ...(kind.helpers ?? []).map((helper) => ({ ...helper })),
  ];
  for (const { rel, path, title } of linked) {
    if (names.has(rel)) return undefined;
    names.add(rel);
    // Each link ends where the next id goes: `…,"std:x":{"href":"<base>` | id | `/x", …}`.
    rest[rest.length - 1] += `,${JSON.stringify(urls.rel(rel))}:{"href":${base}`;
    const after = `${close(`/${path}`)}${title === undefined ? '' : `,"title":${JSON.stringify(title)}`}}`;
    rest.push(after);
  }
  const ending = (text: string) => [...rest.slice(0, -1), `${rest[rest.length - 1]}${text}`];
  return {
    urlsKey: urls.key,
    head: new SlottedText([`,"_links":{"self":{"href":${base}`, '"}']),
    tail: new SlottedText(ending('}}')),
    tailWithCuries: new SlottedText(ending(`,"curies":${JSON.stringify(urls.curies())}}}`)),
    selfHref,
    names,
  };
}

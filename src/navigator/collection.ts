import type * as z from 'zod/mini';
import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { earlyLinks } from '../hal/early-links.js';
import {
  HalDocument,
  Link,
  toLinkList,
  unfetchableReason,
  withQueryParameter,
} from '../hal/index.js';
import { CollectionPageSchema } from '../schema/collection-page.js';
import type { AnyKind } from '../schema/kind.js';
import { collectionRelation } from '../wire/collection-relation.js';
import { collectionRelations } from './collection-relation.js';
import type { CallOptions, NavigatorContext } from './context.js';
import type { Resource } from './resource.js';
import { shapeError } from './shape-error.js';
import {
  type BackgroundWriteResult,
  outgoingBody,
  type WriteOptions,
  writeResult,
} from './write.js';

/**
 * Options for paging through a collection.
 *
 * @example
 * ```ts
 * for await (const person of client.people.items({ limit: 500, readAhead: true })) {
 *   console.log(person.data.given_name);
 * }
 * ```
 */
export interface PagingOptions {
  /** Stop after this many records (items) or pages (pages()). */
  limit?: number;
  /**
   * Fetch the next page while the caller works on the current one. Costs one page of
   * memory and, on an early `break`, one request whose answer is thrown away.
   */
  readAhead?: boolean;
  /** Cancels paging; a pending read-ahead is cancelled too. */
  signal?: AbortSignal;
}

/**
 * One page of a collection.
 *
 * @example
 * ```ts
 * for await (const page of client.people.pages()) {
 *   console.log(`page ${page.number} of ${page.totalPages ?? '?'}: ${page.items.length}`);
 *   await saveCursor(page.cursor); // undefined after the last page
 * }
 * ```
 */
export interface Page<W> {
  /** The URL the page was fetched from. */
  url: string;
  /** The page's records, typed. */
  items: W[];
  /** The `page` member, when the server sends it. */
  number: number | undefined;
  /** The `total_pages` member, when the server sends it. */
  totalPages: number | undefined;
  /** The `total_records` member, when the server sends it. */
  totalRecords: number | undefined;
  /** The `per_page` member, when the server sends it. */
  perPage: number | undefined;
  /** The URL of the next page, when the server links one (see `cursor` to resume). */
  next: string | undefined;
  /**
   * Where to resume once this page is processed: the URL of the page this walk goes on
   * with, or undefined when this page is the last one (no `next`, or a `next` that
   * points at a page the walk already fetched). Limits do not change it, so a walk
   * stopped by `limit` can go on later. Save it after the page's records are stored,
   * and give it to {@link Collection.fromPage} after a crash or a restart: no page
   * already processed is fetched again.
   */
  cursor: string | undefined;
  /** The page's HAL document, for members and links the SDK does not read. */
  document: HalDocument;
}

/** The absolute URL of the `next` link among early links, or undefined when there is none usable. */
function earlyNext(links: Record<string, unknown>, pageUrl: string): string | undefined {
  const attributes = toLinkList(links.next)[0];
  if (attributes === undefined) return undefined;
  try {
    return new Link('next', attributes, pageUrl).url();
  } catch {
    // The parsed page reports an unusable link itself.
    return undefined;
  }
}

/**
 * Throws unless `cursor` is an absolute http(s) URL of the collection's server: a
 * cursor comes from a file a script saved, so it may be damaged, or belong to another
 * server (whose pages must not receive this server's key).
 */
function checkCursor(cursor: string, collectionUrl: string): void {
  const unusable = unfetchableReason(cursor);
  const reason =
    unusable === undefined && new URL(cursor).origin !== new URL(collectionUrl).origin
      ? `not on the server of the collection (${new URL(collectionUrl).origin}): a page cursor must be a page URL of that server`
      : unusable;
  if (reason !== undefined) {
    throw new InvalidLinkError({ rel: undefined, href: cursor, documentUrl: undefined, reason });
  }
}

/** Resolves on the next turn of the event loop (setImmediate where there is one). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown })
      .setImmediate;
    if (immediate) immediate(resolve);
    else setTimeout(resolve, 0);
  });
}

/** A page as read off the wire, before its records are checked and wrapped. */
interface RawPage {
  url: string;
  document: HalDocument;
  info: z.output<typeof CollectionPageSchema>;
  /** The embedded records, when the page embeds them. */
  embedded: HalDocument[] | undefined;
  /** The links to the records, when the page does not embed them. */
  links: Link[];
  count: number;
  number: number | undefined;
  next: string | undefined;
}

/**
 * A collection of resources of one kind (the people of a server, the signatures of a
 * petition): an async iterable over its records, page by page, following `next` links.
 *
 * Paging stops on a page without `next`, on an empty page, and on a `next` that points
 * at a page already fetched (servers in the wild do all three), so no page is fetched
 * twice. Only the current page (and the read-ahead page, when on) is held in memory.
 *
 * @example
 * ```ts
 * for await (const person of client.people) console.log(person.data.given_name);
 * const created = await client.people.create({ given_name: 'Ana' });
 * ```
 */
export class Collection<W extends Resource<object, never>> implements AsyncIterable<W> {
  readonly #context: NavigatorContext;
  readonly #locate: (options: CallOptions) => Promise<string>;
  readonly #kind: AnyKind;
  readonly #firstPage: HalDocument | undefined;
  readonly #resumedFrom: ((options: CallOptions) => Promise<string>) | undefined;

  /**
   * A collection of `kind` whose URL `locate` resolves. Applications get collections
   * from the client (`client.people`) and from resources (`petition.signatures()`)
   * rather than building them.
   *
   * @param context - The connection's shared state: transport, curies, validation.
   * @param locate - Resolves the URL of the collection (the href of the link to it).
   * @param kind - The kind of the collection's records.
   * @param firstPage - The first page when it is already at hand (embedded in the
   *   resource that links the collection), so it is not fetched again.
   * @param resumedFrom - For a walk resumed from a cursor ({@link Collection.fromPage}):
   *   resolves the URL of the collection's own first page, which the walk counts as
   *   read, so that a `next` looping back to it ends the walk.
   *
   * @example
   * ```ts
   * const people = new Collection(context, async () => peopleUrl, personKind);
   * ```
   *
   * @internal
   */
  constructor(
    context: NavigatorContext,
    locate: (options: CallOptions) => Promise<string>,
    kind: AnyKind,
    firstPage?: HalDocument,
    resumedFrom?: (options: CallOptions) => Promise<string>,
  ) {
    this.#context = context;
    this.#locate = locate;
    this.#kind = kind;
    this.#firstPage = firstPage;
    this.#resumedFrom = resumedFrom;
  }

  /**
   * The same collection narrowed by a filter query (`filter=…`, the OData-style syntax
   * servers in the wild use; see {@link Filter}). The filter is added as the query
   * parameter `filter` to the collection's URL (its href, any template expanded). The
   * reference server answers 400 to a filter it cannot apply; servers that ignore
   * unknown parameters return every record, so check what you get from those.
   *
   * @example
   * ```ts
   * import { field } from 'adis-sdk';
   * const changed = client.people.filter(field('modified_date').gt('2026-01-01T00:00:00Z'));
   * for await (const person of changed) console.log(person.url);
   * ```
   */
  filter(filter: { toString(): string }): Collection<W> {
    const expression = filter.toString();
    return new Collection(
      this.#context,
      async (options) => withQueryParameter(await this.#locate(options), 'filter', expression),
      this.#kind,
    );
  }

  /**
   * The same collection, paged from a saved cursor onwards: the {@link Page.cursor} of
   * the last page a script processed, so that a walk interrupted by a crash or a
   * restart goes on with the page after it, and fetches no processed page again. A
   * filtered collection's cursors keep its filter (the server's `next` links carry it).
   * The cursor is used as the server wrote it (the SDK builds no page URL), and checked
   * when paging starts: one that is not an absolute http(s) URL on the collection's
   * server (its origin) fails with an {@link InvalidLinkError}, before any request to it.
   *
   * @param cursor - A page's `cursor` (or `next`), saved from an earlier walk of this
   *   collection.
   *
   * @example
   * ```ts
   * const saved: string | undefined = await loadCursor(); // undefined: nothing saved yet
   * const people = saved === undefined ? client.people : client.people.fromPage(saved);
   * for await (const page of people.pages()) {
   *   await store(page.items);
   *   await saveCursor(page.cursor); // after the page is stored, never before
   * }
   * ```
   */
  fromPage(cursor: string): Collection<W> {
    return new Collection(
      this.#context,
      async (options) => {
        checkCursor(cursor, await this.#locate(options));
        return cursor;
      },
      this.#kind,
      undefined,
      // The pages before the cursor were read by the walk that saved it: a server whose
      // last `next` points back at the first page must not start this walk over.
      this.#locate,
    );
  }

  /**
   * The relation of the collection's records, for example `std:people` (a kind linked
   * under its own relation, such as `action_network:event_campaigns`, lists its records
   * under that one; a page that uses `std:<plural>` instead is read too).
   */
  get itemRelation(): string {
    return collectionRelations(this.#kind)[0] ?? collectionRelation(this.#kind.plural);
  }

  /**
   * The collection's URL: the href of the link that leads to it.
   *
   * @example
   * ```ts
   * await client.people.url(); // 'https://api.example.org/api/v1/people'
   * ```
   */
  url(options: CallOptions = {}): Promise<string> {
    return this.#locate(options);
  }

  /**
   * Iterates the records of every page in order.
   *
   * @example
   * ```ts
   * for await (const person of client.people.items({ limit: 10 })) console.log(person.url);
   * ```
   */
  async *items(options: PagingOptions = {}): AsyncGenerator<W, void, undefined> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    if (limit <= 0) return;
    let count = 0;
    for await (const page of this.#pages(options, limit)) {
      for (const item of page.items) {
        yield item;
        options.signal?.throwIfAborted();
        count += 1;
        if (count >= limit) return;
      }
    }
  }

  /**
   * Iterates the pages of the collection.
   *
   * @example
   * ```ts
   * for await (const page of client.people.pages({ readAhead: true })) save(page.items);
   * ```
   */
  pages(options: PagingOptions = {}): AsyncGenerator<Page<W>, void, undefined> {
    return this.#pages(options, Number.POSITIVE_INFINITY, options.limit);
  }

  /**
   * Makes the collection usable in `for await`: the same as {@link Collection.items}
   * without options.
   *
   * @example
   * ```ts
   * for await (const person of client.people) console.log(person.url);
   * ```
   */
  [Symbol.asyncIterator](): AsyncIterator<W> {
    return this.items();
  }

  /**
   * Collects records into an array. Give a limit for large collections.
   *
   * @example
   * ```ts
   * const first20 = await client.people.toArray({ limit: 20 });
   * ```
   */
  async toArray(options: PagingOptions = {}): Promise<W[]> {
    const all: W[] = [];
    for await (const item of this.items(options)) all.push(item);
    return all;
  }

  /**
   * Reads one resource of this kind from its URL.
   *
   * @example
   * ```ts
   * const person = await client.people.get('https://api.example.org/api/v1/people/4c1e…');
   * ```
   */
  async get(url: string, options: CallOptions = {}): Promise<W> {
    return this.#wrap(await this.#context.getRecord(url, options), url);
  }

  /**
   * The record at an address you know, not read: for a write (`update`, `delete`)
   * without a GET first, such as a copy whose address a sync kept. Its `data` is empty
   * (no member is known) until `refresh()`; the address is used as given.
   *
   * @example
   * ```ts
   * const kept = 'https://api.example.org/api/v1/people/4c1e'; // saved by an earlier run
   * await client.people.at(kept).update({ given_name: 'Ana' }, { returnResponse: false });
   * ```
   */
  at(url: string): W {
    return this.#wrap(HalDocument.parse({ _links: { self: { href: url } } }, url), url);
  }

  /**
   * Creates a resource by POST to the collection. The input is checked against the
   * kind's write schema first, so a mistake is reported without a request. Servers may
   * answer 201 or 200; both are success.
   * With `returnResponse: false` the server need not send the resource back; the call
   * then resolves to the new resource's URL when the server gives one. With
   * `background: true` (`?background_request=true`), it resolves with a
   * {@link BackgroundWriteResult}: the record when the server sent it, else `accepted`
   * (no record is read from an empty answer, and none is fetched).
   *
   * @example
   * ```ts
   * const person = await client.people.create({
   *   given_name: 'Ana',
   *   email_addresses: [{ address: 'ana@example.org', primary: true }],
   * });
   * const queued = await client.people.create({ given_name: 'Bo' }, { background: true });
   * if (queued.accepted) console.log('will be created', queued.status);
   * ```
   */
  // The input is what the record's `update` takes (`PersonInput` for a PersonResource):
  // one type parameter, so that editors show `Collection<PersonResource>`.
  async create(
    input: Parameters<W['update']>[0],
    options: WriteOptions & { background: true },
  ): Promise<BackgroundWriteResult<W>>;
  async create(
    input: Parameters<W['update']>[0],
    options?: WriteOptions & { returnResponse?: true; background?: false },
  ): Promise<W>;
  async create(
    input: Parameters<W['update']>[0],
    options: WriteOptions & { returnResponse: false; background?: false },
  ): Promise<string | undefined>;
  // Options not known to the compiler (a flag forwarded by a wrapper): any of the answers.
  async create(
    input: Parameters<W['update']>[0],
    options?: WriteOptions,
  ): Promise<W | BackgroundWriteResult<W> | string | undefined>;
  async create(
    input: Parameters<W['update']>[0],
    options: WriteOptions = {},
  ): Promise<W | string | undefined | BackgroundWriteResult<W>> {
    const { returnResponse, background, ...call } = options;
    const url = await this.#locate(call);
    const body = this.#context.parse(
      this.#kind.writeSchema,
      input,
      url,
      `std:${this.#kind.singular}`,
      'write',
    );
    const result = await this.#context.send(
      'POST',
      this.#context.writeUrl(url, background),
      outgoingBody(this.#context, body, returnResponse, this.#kind.readOnly),
      call,
    );
    // The created record's address: its `self`, else the answer's Location (never the
    // collection's URL the POST went to).
    if (background) return writeResult(result, (document) => this.#wrap(document, result.location));
    if (returnResponse === false) {
      // The write was made: an unusable Location makes the address unknown (undefined),
      // as for a background write, not the call a failure.
      return result.document?.selfUrl ?? result.location;
    }
    if (result.document && result.document.relations().length > 0) {
      return this.#wrap(result.document, result.location);
    }
    // A server that created the resource but sent no representation still says where.
    const location = this.#context.location(result.response, url);
    if (location === undefined) {
      throw shapeError(
        'POST',
        result.response,
        'the created resource or its Location was expected, and there was no Location',
      );
    }
    return this.get(location, call);
  }

  async *#pages(
    options: PagingOptions,
    recordLimit: number,
    pageLimit = Number.POSITIVE_INFINITY,
  ): AsyncGenerator<Page<W>, void, undefined> {
    if (pageLimit <= 0) return;
    // One controller for the whole walk, so that leaving the loop early (break, limit,
    // an error in the caller) cancels a read-ahead still in flight.
    const controller = new AbortController();
    const abort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', abort, { once: true });
    const signal = controller.signal;
    // Loops are recognised by URL (the one fetched and the page's own `self`) and by
    // page number, since `?page=1` and the bare collection URL are the same page.
    const visited = new Set<string>();
    const pageNumbers = new Set<number>();
    // Pages are numbered upwards: one numbered below the walk's first page is a loop back
    // (to page 1, say) that a walk resumed from a cursor has not seen itself.
    let lowestNumber: number | undefined;
    // With read-ahead, the request for the next page may leave while this one is still
    // arriving: as soon as the head of its body holds the page's `_links` (earlyLinks).
    // Only while the loop waits for that page (so never more than one page ahead of
    // the caller), and only without limits (which depend on the page's records). The
    // early URL is a hint: it is used when the parsed page links the same `next`.
    const speculate =
      options.readAhead === true && recordLimit === Infinity && pageLimit === Infinity;
    let waitingFor: string | undefined;
    let early: { url: string; page: Promise<HalDocument> } | undefined;
    const fetchPage = (url: string): Promise<HalDocument> => {
      const onHead = speculate
        ? (text: string): boolean => {
            if (waitingFor !== url) return false;
            const links = earlyLinks(text);
            if (links === undefined) return false;
            const next = earlyNext(links, url);
            if (next !== undefined && !visited.has(next) && early === undefined) {
              const page = fetchPage(next);
              page.catch(() => undefined);
              early = { url: next, page };
            }
            return true;
          }
        : undefined;
      return this.#context.get(url, onHead ? { signal, onHead } : { signal });
    };
    try {
      options.signal?.throwIfAborted();
      const first = await this.#locate({ signal });
      visited.add(first);
      if (this.#resumedFrom) visited.add(await this.#resumedFrom({ signal }));
      let url = this.#firstPage?.url ?? first;
      let pending: Promise<HalDocument> | undefined = this.#firstPage
        ? Promise.resolve(this.#firstPage)
        : fetchPage(first);
      let records = 0;
      let pages = 0;
      while (pending) {
        waitingFor = url;
        const document: HalDocument = await pending;
        waitingFor = undefined;
        pending = undefined;
        const raw = this.#rawPage(url, document);
        if (raw.count === 0) return;
        if (raw.number !== undefined) {
          if (pageNumbers.has(raw.number)) return;
          if (lowestNumber !== undefined && raw.number < lowestNumber) return;
          lowestNumber ??= raw.number;
          pageNumbers.add(raw.number);
        }
        const self = document.selfUrl;
        if (self !== undefined) visited.add(self);
        pages += 1;
        records += raw.count;
        // Where this walk goes on (and a resumed one would): not a page already fetched.
        const next = raw.next !== undefined && !visited.has(raw.next) ? raw.next : undefined;
        const more = next !== undefined && pages < pageLimit && records < recordLimit;
        if (more) visited.add(next);
        const ahead = early;
        early = undefined;
        // Read-ahead asks for the next page as soon as its link is known, before this
        // page's records are checked and wrapped: the server works on the next page
        // while this process reads this one and the caller's loop runs.
        if (more && ahead?.url === next) {
          pending = ahead.page;
        } else if (more && options.readAhead) {
          pending = fetchPage(next);
          // Marked handled now: if the caller stops early, nobody awaits it.
          pending.catch(() => undefined);
          // The request is only on its way once the transport's own steps have run;
          // one turn of the event loop lets them, before this page is wrapped.
          await nextTurn();
        }
        yield await this.#readPage(raw, next, signal);
        signal.throwIfAborted();
        if (more && pending === undefined) pending = fetchPage(next);
        if (more) url = next;
      }
    } finally {
      options.signal?.removeEventListener('abort', abort);
      controller.abort();
    }
  }

  /** What a page says before its records are read: enough to decide on the next one. */
  #rawPage(url: string, document: HalDocument): RawPage {
    const info = this.#context.parse(CollectionPageSchema, document.properties, url, 'collection');
    const relation =
      collectionRelations(this.#kind).find(
        (rel) => document.hasEmbedded(rel) || document.links(rel).length > 0,
      ) ?? this.itemRelation;
    const embedded = document.hasEmbedded(relation) ? document.embedded(relation) : undefined;
    const links = embedded === undefined ? document.links(relation) : [];
    return {
      url,
      document,
      info,
      embedded,
      links,
      count: embedded === undefined ? links.length : embedded.length,
      number: info.page ?? undefined,
      next: document.link('next')?.url(),
    };
  }

  async #readPage(raw: RawPage, cursor: string | undefined, signal: AbortSignal): Promise<Page<W>> {
    let items: W[];
    if (raw.embedded !== undefined) {
      items = raw.embedded.map((item) => this.#wrap(item));
    } else {
      // No embedded records: fetch each linked one. The transport's rate limit paces these.
      items = await Promise.all(
        raw.links.map(async (link) => {
          const url = link.url();
          return this.#wrap(await this.#context.getRecord(url, { signal }), url);
        }),
      );
    }
    const { info } = raw;
    return {
      url: raw.url,
      items,
      number: raw.number,
      totalPages: info.total_pages ?? undefined,
      totalRecords: info.total_records ?? undefined,
      perPage: info.per_page ?? undefined,
      next: raw.next,
      cursor,
      document: raw.document,
    };
  }

  /** A record of the collection; `address` as {@link NavigatorContext.wrap} takes it. */
  #wrap(document: HalDocument, address?: string): W {
    return this.#context.wrap(this.#kind, document, address) as W;
  }
}

import type * as z from 'zod/mini';
import { InvalidLinkError } from '../errors/invalid-link-error.js';
import { HalDocument, type Link, unfetchableReason, withQueryParameter } from '../hal/index.js';
import { CollectionPageSchema } from '../schema/collection-page.js';
import type { AnyKind } from '../schema/kind.js';
import { collectionRelation } from '../wire/collection-relation.js';
import { collectionRelations } from './collection-relation.js';
import type { CallOptions, NavigatorContext } from './context.js';
import { PageGuard } from './page-guard.js';
import { ReadAhead } from './read-ahead.js';
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
    const guard = new PageGuard();
    // The next page may be asked for off the head of this one (see ReadAhead) only
    // without limits, which depend on this page's records.
    const fromHead =
      options.readAhead === true && recordLimit === Infinity && pageLimit === Infinity;
    const reader = new ReadAhead(
      (url, call) => this.#context.get(url, call),
      options.signal,
      fromHead ? (url) => guard.unseen(url) !== undefined : undefined,
    );
    const signal = reader.signal;
    try {
      options.signal?.throwIfAborted();
      const first = await this.#locate({ signal });
      guard.visit(first);
      if (this.#resumedFrom) guard.visit(await this.#resumedFrom({ signal }));
      // The first page is not fetched when it is already at hand (see the constructor).
      const firstPage = this.#firstPage;
      let url: string | undefined = firstPage?.url ?? first;
      let pages = 0;
      let records = 0;
      while (url !== undefined) {
        const document = await (pages === 0 && firstPage ? firstPage : reader.take(url));
        const raw = this.#rawPage(url, document);
        if (raw.count === 0 || !guard.admit(raw.number, document.selfUrl)) return;
        pages += 1;
        records += raw.count;
        // Where this walk goes on (and a resumed one would): not a page already fetched.
        const next = guard.unseen(raw.next);
        const more = next !== undefined && pages < pageLimit && records < recordLimit;
        if (more) guard.visit(next);
        // As soon as the next page's link is known, before this page's records are
        // checked and wrapped: the server works on it while the caller's loop runs.
        if (more && options.readAhead) await reader.start(next);
        yield await this.#readPage(raw, next, signal);
        signal.throwIfAborted();
        url = more ? next : undefined;
      }
    } finally {
      reader.close();
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

import { earlyLinks } from '../hal/early-links.js';
import { Link, toLinkList } from '../hal/index.js';

/** GETs a page; `onHead`, when given, is shown the start of its body as it arrives. */
export type FetchPage<T> = (
  url: string,
  call: { signal: AbortSignal; onHead?: (text: string) => boolean },
) => Promise<T>;

/** A page asked for and not handed over yet. */
interface InFlight<T> {
  url: string;
  page: Promise<T>;
}

/**
 * The requests of one walk of a collection, so that the next page can be on its way
 * while the caller works on this one, and none outlives the walk: every request takes
 * the walk's `signal`, which `close` aborts (on a `break`, a limit, an error in the
 * caller's loop), as the caller's own signal does.
 *
 * At most one page is ahead of the caller. With `fromHead`, it may leave while the
 * page the walk waits for is still arriving: as soon as the head of its body holds the
 * page's `_links` (`earlyLinks`). That URL is a hint: `start` uses the request only
 * when the parsed page links the same `next`.
 */
export class ReadAhead<T> {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #fetch: FetchPage<T>;
  readonly #fromHead: ((url: string) => boolean) | undefined;
  readonly #abort = (): void => this.#controller.abort(this.#caller?.reason);
  /** The page the walk waits for: only its head may send the next request. */
  #waitingFor: string | undefined;
  /** The next page, asked for off the head of the page the walk waited for. */
  #early: InFlight<T> | undefined;
  /** The next page, asked for by `start`: what `take` hands over. */
  #ahead: InFlight<T> | undefined;

  /**
   * @param fetch - GETs a page with the options given.
   * @param signal - The caller's signal: aborting it aborts the walk's.
   * @param fromHead - When given, the next page is asked for off the head of the one
   *   the walk waits for, if `fromHead` is true for its URL (a page not fetched yet).
   */
  constructor(
    fetch: FetchPage<T>,
    signal: AbortSignal | undefined,
    fromHead?: (url: string) => boolean,
  ) {
    this.#fetch = fetch;
    this.#caller = signal;
    this.#fromHead = fromHead;
    signal?.addEventListener('abort', this.#abort, { once: true });
  }

  /** The walk's signal, for every request of the walk (linked records too). */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Asks for the page at `url` now, so that the server works on it while this process
   * reads the current page and the caller's loop runs. Resolves once the request has
   * left (the transport's own steps take a turn of the event loop).
   */
  async start(url: string): Promise<void> {
    const early = this.#early;
    this.#early = undefined;
    if (early?.url === url) {
      this.#ahead = early;
      return;
    }
    this.#ahead = this.#handled(url);
    await nextTurn();
  }

  /** The page at `url`: the one started ahead, else fetched now. */
  async take(url: string): Promise<T> {
    const page = this.#ahead?.url === url ? this.#ahead.page : this.#get(url);
    this.#ahead = undefined;
    this.#waitingFor = url;
    try {
      return await page;
    } finally {
      this.#waitingFor = undefined;
    }
  }

  /** Cancels whatever is still in flight; the walk's requests end with it. */
  close(): void {
    this.#caller?.removeEventListener('abort', this.#abort);
    this.#controller.abort();
  }

  #get(url: string): Promise<T> {
    const signal = this.#controller.signal;
    const fromHead = this.#fromHead;
    if (fromHead === undefined) return this.#fetch(url, { signal });
    const onHead = (text: string): boolean => {
      if (this.#waitingFor !== url) return false;
      const links = earlyLinks(text);
      if (links === undefined) return false;
      const next = earlyNext(links, url);
      if (next !== undefined && fromHead(next) && this.#early === undefined) {
        this.#early = this.#handled(next);
      }
      return true;
    };
    return this.#fetch(url, { signal, onHead });
  }

  /** A request nobody may await (the caller may stop first): marked handled now. */
  #handled(url: string): InFlight<T> {
    const page = this.#get(url);
    page.catch(() => undefined);
    return { url, page };
  }
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

/** Resolves on the next turn of the event loop (setImmediate where there is one). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown })
      .setImmediate;
    if (immediate) immediate(resolve);
    else setTimeout(resolve, 0);
  });
}

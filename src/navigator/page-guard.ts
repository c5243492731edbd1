/**
 * What one walk of a collection has fetched, so that it ends at a page it has had
 * instead of fetching it again: servers in the wild link their last page back to the
 * first, or to itself. Pages are known by URL (the one fetched, the page's own `self`)
 * and by page number, since `?page=1` and the bare collection URL are the same page.
 */
export class PageGuard {
  readonly #urls = new Set<string>();
  readonly #numbers = new Set<number>();
  /** The number of the walk's first numbered page. */
  #lowest: number | undefined;

  /** Counts `url` as fetched (or about to be): a `next` to it ends the walk. */
  visit(url: string | undefined): void {
    if (url !== undefined) this.#urls.add(url);
  }

  /** `url` when the walk has fetched no page from it, else undefined. */
  unseen(url: string | undefined): string | undefined {
    return url !== undefined && !this.#urls.has(url) ? url : undefined;
  }

  /**
   * Takes in a page just fetched: false when the walk has had it, its number repeating
   * or below the walk's first (pages are numbered upwards: that is a loop back to page
   * 1, which a walk resumed from a cursor has not seen itself); else notes its number
   * and its own URL, and true.
   */
  admit(number: number | undefined, self: string | undefined): boolean {
    if (number !== undefined) {
      if (this.#numbers.has(number) || number < (this.#lowest ?? number)) return false;
      this.#lowest ??= number;
      this.#numbers.add(number);
    }
    this.visit(self);
    return true;
  }
}

/**
 * Paging math for collection documents.
 *
 * Records are ordered by `seq` (insertion order). A page is addressed by its number
 * (`page`, 1-based) and size (`per_page`); the `next`/`previous` links also carry a
 * keyset cursor (`after=<seq>` / `before=<seq>`), so walking a collection costs
 * O(log n) per page however deep it goes. A bare `page=N` in the second half of the
 * collection is read from the end of the index, so the last page costs what the
 * first does; only pages near the middle pay for an index offset.
 */
import { apiError, ErrorCode } from './errors.js';

/** What a client asked for. */
export interface PageRequest {
  page: number;
  perPage: number;
  /** Keyset cursor: records after this seq. */
  after?: number;
  /** Keyset cursor: the page of records just before this seq. */
  before?: number;
}

/** How storage should read the page (one of the selectors) and how many records. */
export interface PagePlan {
  limit: number;
  after?: number;
  before?: number;
  offset?: number;
  offsetFromEnd?: number;
  /** True when the page lies past the end: nothing to read. */
  empty: boolean;
}

const POSITIVE_INTEGER = /^[0-9]+$/;

function parseInteger(name: string, raw: string, min: number): number {
  const value = POSITIVE_INTEGER.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw apiError(
      400,
      ErrorCode.INVALID_PARAMETER,
      `query parameter ${name} must be an integer of at least ${min}, got ${JSON.stringify(raw)}`,
      { properties: [name], hint: min === 0 ? '^[0-9]+$' : '^[1-9][0-9]*$' },
    );
  }
  return value;
}

/**
 * Reads `page`, `per_page`, `after` and `before` from a query, applying defaults
 * (page 1, per_page = max) and the cap (per_page above max is lowered to max).
 * Invalid values throw a 400 naming the parameter.
 *
 * @example
 * ```ts
 * import { parsePageRequest } from './paging.js';
 *
 * parsePageRequest({ page: '3', per_page: '500' }, 100); // { page: 3, perPage: 100 }
 * ```
 */
export function parsePageRequest(
  query: Record<string, string | undefined>,
  maxPageSize: number,
): PageRequest {
  const page = query.page === undefined ? 1 : parseInteger('page', query.page, 1);
  const requested =
    query.per_page === undefined ? maxPageSize : parseInteger('per_page', query.per_page, 1);
  const request: PageRequest = { page, perPage: Math.min(requested, maxPageSize) };
  if (query.after !== undefined) request.after = parseInteger('after', query.after, 0);
  if (query.before !== undefined) request.before = parseInteger('before', query.before, 0);
  if (request.after !== undefined && request.before !== undefined) {
    throw apiError(400, ErrorCode.INVALID_PARAMETER, 'use either after or before, not both', {
      properties: ['after', 'before'],
    });
  }
  return request;
}

/**
 * Number of pages for `total` records: 0 for an empty collection (there is no page
 * with records; page 1 is still served, empty).
 *
 * @example
 * ```ts
 * import { totalPages } from './paging.js';
 *
 * totalPages(201, 100); // 3
 * totalPages(0, 100); // 0
 * ```
 */
export function totalPages(total: number, perPage: number): number {
  return Math.ceil(total / perPage);
}

/**
 * Chooses the cheapest way to read a page. A cursor wins over the page number; a page
 * number in the second half of the collection is counted from the end.
 *
 * @example
 * ```ts
 * import { planPage } from './paging.js';
 *
 * planPage({ page: 10000, perPage: 100 }, 1_000_000); // { limit: 100, offsetFromEnd: 0, empty: false }
 * ```
 */
export function planPage(request: PageRequest, total: number): PagePlan {
  const limit = request.perPage;
  if (request.after !== undefined) return { limit, after: request.after, empty: false };
  if (request.before !== undefined) return { limit, before: request.before, empty: false };
  const offset = (request.page - 1) * limit;
  if (offset >= total) return { limit, empty: true };
  const end = Math.min(offset + limit, total);
  if (offset * 2 >= total) {
    return { limit: end - offset, offsetFromEnd: total - end, empty: false };
  }
  return { limit, offset, empty: false };
}

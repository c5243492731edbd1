/**
 * The SQL of a collection: counting it, one page of it, whether it goes on. One builder
 * for every scope (a whole collection or a sub-collection, filtered or not), so the
 * plain and the filtered paths share each query and cannot drift apart.
 *
 * Every query starts from one source, `FROM … WHERE …` on the covering index of the
 * scope, and a page selects the seqs of its records first, then the rows by seq: OFFSET
 * scans stay on the index and skipped entries never load their documents. Nothing here
 * touches the database (each engine's collections.ts runs the queries); a
 * sub-collection's parent comes as its seq, looked up by the caller.
 *
 * One builder for both engines: what differs between them is a {@link CollectionDialect}
 * (the columns of a page's rows, how LIMIT is written, how a whole collection is
 * counted, the placeholders), so SQLite and PostgreSQL answer every page alike.
 */
import type { DateFilter, RecordFilter } from './storage.js';

/** What differs between the engines in the SQL of a collection. */
export interface CollectionDialect {
  /** The columns of a page's rows, `records` joined as `r`. */
  recordColumns: string;
  /** `LIMIT` of a page, its value one placeholder. */
  pageLimit: string;
  /** `LIMIT … OFFSET …` of a page, two placeholders (limit, offset). */
  pageLimitOffset: string;
  /**
   * A statement counting a whole collection from a table kept for it (placeholders
   * tenant, kind; one row `{ n }`, or none read as 0); absent: its rows are counted.
   */
  wholeCollectionCount?: string;
  /** `?` as written (SQLite), or renumbered `$1`, `$2`, … (PostgreSQL). */
  placeholders: 'question' | 'numbered';
}

/**
 * SQL of each date column and comparison. Filter input selects an entry by key and is
 * never interpolated itself.
 */
const DATE_COLUMNS: Readonly<Record<DateFilter['column'], string>> = {
  created_date: 'r.created_date',
  modified_date: 'r.modified_date',
};
const DATE_OPS: Readonly<Record<DateFilter['op'], string>> = {
  eq: '=',
  ne: '<>',
  gt: '>',
  ge: '>=',
  lt: '<',
  le: '<=',
};

/** A collection with its parent, if any, resolved to the parent's seq. */
export interface ResolvedScope {
  tenantId: number;
  kind: string;
  /** The seq of the parent record of a sub-collection. */
  parentSeq?: number;
  filters?: readonly RecordFilter[];
}

/** Which records of the scope a page holds: exactly one of the four access paths. */
export interface PageSelection {
  /** Records in the page (at least 1). */
  limit: number;
  after?: number;
  before?: number;
  offset?: number;
  offsetFromEnd?: number;
}

/** A statement and its parameters. */
export interface CollectionSql {
  sql: string;
  params: unknown[];
  /**
   * True when the SQL varies with the client's filters: run it from the connection's
   * bounded statement cache, not the unbounded one.
   */
  varying: boolean;
}

/**
 * The statement counting the records of `scope`: one row `{ n }`, or none for a whole
 * collection never written to (read it as 0).
 *
 * @example
 * ```ts
 * import { countSql } from './collection-query.js';
 * import { SQLITE_COLLECTION_DIALECT } from './sqlite/collections.js';
 *
 * countSql({ tenantId: 1, kind: 'person' }, SQLITE_COLLECTION_DIALECT);
 * // { sql: 'SELECT n FROM record_counts WHERE tenant_id = ? AND kind = ?', params: [1, 'person'], varying: false }
 * ```
 */
export function countSql(scope: ResolvedScope, dialect: CollectionDialect): CollectionSql {
  if (
    dialect.wholeCollectionCount !== undefined &&
    scope.parentSeq === undefined &&
    !scope.filters?.length
  ) {
    // Kept by triggers (SQLite migration 1): O(1) for a million records. It knows only
    // whole collections; a sub-collection or a filter counts the matching rows.
    return {
      sql: numbered(dialect.wholeCollectionCount, dialect),
      params: [scope.tenantId, scope.kind],
      varying: false,
    };
  }
  const source = collectionSource(scope);
  return {
    sql: numbered(`SELECT count(*) AS n FROM ${source.from}`, dialect),
    params: source.params,
    varying: source.varying,
  };
}

/**
 * The statement of one page of `scope`, rows in ascending seq order whatever the path.
 */
export function pageSql(
  scope: ResolvedScope,
  page: PageSelection,
  dialect: CollectionDialect,
): CollectionSql {
  const { from, params, seq, varying } = collectionSource(scope);
  const { pageLimit, pageLimitOffset } = dialect;
  let inner: string;
  if (page.after !== undefined) {
    inner = `SELECT ${seq} FROM ${from} AND ${seq} > ? ORDER BY ${seq} ASC ${pageLimit}`;
    params.push(page.after, page.limit);
  } else if (page.before !== undefined) {
    inner = `SELECT ${seq} FROM ${from} AND ${seq} < ? ORDER BY ${seq} DESC ${pageLimit}`;
    params.push(page.before, page.limit);
  } else if (page.offsetFromEnd !== undefined) {
    inner = `SELECT ${seq} FROM ${from} ORDER BY ${seq} DESC ${pageLimitOffset}`;
    params.push(page.limit, Math.max(0, Math.floor(page.offsetFromEnd)));
  } else {
    inner = `SELECT ${seq} FROM ${from} ORDER BY ${seq} ASC ${pageLimitOffset}`;
    params.push(page.limit, Math.max(0, Math.floor(page.offset ?? 0)));
  }
  // The outer query must look rows up by seq (rowid) only: adding `r.tenant_id = ?`
  // here made SQLite scan the whole tenant and probe the subquery per row. The inner
  // query already limits to the tenant (a parent seq belongs to one tenant). Names in
  // the inner query resolve to its own `r` first, so it stays uncorrelated.
  return {
    sql: numbered(
      `SELECT ${dialect.recordColumns} FROM records r WHERE r.seq IN (${inner}) ORDER BY r.seq ASC`,
      dialect,
    ),
    params,
    varying,
  };
}

/**
 * The statement telling whether `scope` holds a record with seq greater than `seq`: a
 * row when it does.
 */
export function hasAfterSql(
  scope: ResolvedScope,
  seq: number,
  dialect: CollectionDialect,
): CollectionSql {
  const source = collectionSource(scope);
  return {
    sql: numbered(`SELECT 1 FROM ${source.from} AND ${source.seq} > ? LIMIT 1`, dialect),
    params: [...source.params, seq],
    varying: source.varying,
  };
}

/**
 * The FROM and WHERE of a collection (more conditions may follow with AND), its
 * parameters (a new array), the expression of the record's seq, and whether the SQL
 * varies with filters. A whole collection reads `records r` (the covering index
 * records_by_seq); a sub-collection reads `record_parents p`, ordered by `p.seq` so
 * that its primary key (parent_seq, kind, seq) gives the order, and joins `records r`
 * only when filters need its columns. Date filters read `r.created_date` /
 * `r.modified_date` in both scopes.
 */
function collectionSource(scope: ResolvedScope): {
  from: string;
  params: unknown[];
  seq: string;
  varying: boolean;
} {
  const filters = scope.filters ?? [];
  let from: string;
  let seq: string;
  const params: unknown[] = [];
  if (scope.parentSeq !== undefined) {
    from =
      filters.length > 0
        ? 'record_parents p JOIN records r ON r.seq = p.seq WHERE p.parent_seq = ? AND p.kind = ?'
        : 'record_parents p WHERE p.parent_seq = ? AND p.kind = ?';
    seq = 'p.seq';
    params.push(scope.parentSeq, scope.kind);
  } else {
    from = 'records r WHERE r.tenant_id = ? AND r.kind = ?';
    seq = 'r.seq';
    params.push(scope.tenantId, scope.kind);
  }
  for (const filter of filters) {
    if (isDateFilter(filter)) {
      // Own keys only: `constructor` or `toString` must not reach the prototype.
      const column = Object.hasOwn(DATE_COLUMNS, filter.column)
        ? DATE_COLUMNS[filter.column]
        : undefined;
      const op = Object.hasOwn(DATE_OPS, filter.op) ? DATE_OPS[filter.op] : undefined;
      if (column === undefined || op === undefined) {
        throw new RangeError(`unsupported date filter ${filter.column} ${filter.op}`);
      }
      // Dates are stored as toISOString() text: string order is chronological.
      from += ` AND ${column} ${op} ?`;
      params.push(filter.value);
    } else {
      // IN, not a correlated EXISTS: SQLite then seeks the few matching seqs on the
      // record_keys primary key instead of probing once per record of the collection
      // (an email among 200,000 people: ~0.1 ms instead of ~65 ms). The lookup keys of
      // a record are stored under its own tenant and kind.
      from += ` AND ${seq} IN (SELECT k.seq FROM record_keys k WHERE k.tenant_id = ? AND k.kind = ? AND k.name = ? AND k.value = ?)`;
      params.push(scope.tenantId, scope.kind, filter.key, filter.value);
    }
  }
  return { from, params, seq, varying: filters.length > 0 };
}

/**
 * `sql` with its `?` placeholders as the dialect writes them. Safe because the SQL here
 * holds no other `?`: client input is always a parameter, never text.
 */
function numbered(sql: string, dialect: CollectionDialect): string {
  if (dialect.placeholders === 'question') return sql;
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function isDateFilter(filter: RecordFilter): filter is DateFilter {
  return 'column' in filter;
}

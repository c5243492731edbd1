/**
 * Pages of a collection on SQLite: counting, listing and "is there more", for whole
 * collections and sub-collections, filtered or not. The SQL is ../collection-query.ts's
 * (shared with PostgreSQL) in SQLite's dialect; this runs it from the right statement cache.
 */
import type Database from 'better-sqlite3';
import {
  type CollectionDialect,
  type CollectionSql,
  countSql,
  hasAfterSql,
  pageSql,
  type ResolvedScope,
} from '../collection-query.js';
import type { CollectionScope, PageQuery, StoredRecord } from '../storage.js';
import type { RepositoryConnection } from './connection.js';
import { RECORD_COLUMNS, type RecordRow, toRecord } from './record-rows.js';

/**
 * SQLite's dialect of the collection SQL. LIMIT and OFFSET are `? + 0`, not a bare `?`:
 * SQLite plans a statement with the value bound to a bare `LIMIT ?`, so every run, which
 * binds it anew, prepared the statement again (6% of reading a page of 100). An
 * expression is only evaluated; the plans are the same. Whole collections are counted
 * from `record_counts`, kept by triggers.
 *
 * @example
 * ```ts
 * import { countSql } from '../collection-query.js';
 * import { SQLITE_COLLECTION_DIALECT } from './collections.js';
 *
 * countSql({ tenantId: 1, kind: 'person' }, SQLITE_COLLECTION_DIALECT).sql;
 * // 'SELECT n FROM record_counts WHERE tenant_id = ? AND kind = ?'
 * ```
 */
export const SQLITE_COLLECTION_DIALECT: CollectionDialect = {
  recordColumns: RECORD_COLUMNS,
  pageLimit: 'LIMIT ? + 0',
  pageLimitOffset: 'LIMIT ? + 0 OFFSET ? + 0',
  wholeCollectionCount: 'SELECT n FROM record_counts WHERE tenant_id = ? AND kind = ?',
  placeholders: 'question',
};

/**
 * The collection reads of a {@link SqliteStorage}.
 */
export class SqliteCollections {
  constructor(
    private readonly connection: RepositoryConnection,
    /** The seq of a sub-collection's parent. */
    private readonly seqOf: (tenantId: number, kind: string, id: string) => number | undefined,
  ) {}

  /** See {@link RecordStore.count}. */
  count(scope: CollectionScope): number {
    const resolved = this.resolve(scope);
    if (!resolved) return 0;
    const query = countSql(resolved, SQLITE_COLLECTION_DIALECT);
    const row = this.statement(query).get(...query.params) as { n: number } | undefined;
    return row?.n ?? 0;
  }

  /** See {@link RecordStore.list}. */
  list(query: PageQuery): StoredRecord[] {
    const limit = Math.max(0, Math.floor(query.limit));
    if (limit === 0) return [];
    const resolved = this.resolve(query);
    if (!resolved) return [];
    const page = pageSql(
      resolved,
      {
        limit,
        after: query.after,
        before: query.before,
        offset: query.offset,
        offsetFromEnd: query.offsetFromEnd,
      },
      SQLITE_COLLECTION_DIALECT,
    );
    const rows = this.statement(page)
      .raw()
      .all(...page.params) as RecordRow[];
    return rows.map(toRecord);
  }

  /** See {@link RecordStore.hasAfter}. */
  hasAfter(scope: CollectionScope, seq: number): boolean {
    const resolved = this.resolve(scope);
    if (!resolved) return false;
    const query = hasAfterSql(resolved, seq, SQLITE_COLLECTION_DIALECT);
    return this.statement(query).get(...query.params) !== undefined;
  }

  /** The scope with its parent's seq; undefined when that parent does not exist. */
  private resolve(scope: CollectionScope): ResolvedScope | undefined {
    if (!scope.parent) return scope;
    const parentSeq = this.seqOf(scope.tenantId, scope.parent.kind, scope.parent.id);
    if (parentSeq === undefined) return undefined;
    return { tenantId: scope.tenantId, kind: scope.kind, parentSeq, filters: scope.filters };
  }

  /** The prepared statement of `query`, from the cache its kind of SQL belongs in. */
  private statement(query: CollectionSql): Database.Statement {
    return query.varying
      ? this.connection.boundedStatement(query.sql)
      : this.connection.statement(query.sql);
  }
}

/**
 * Pages of a collection on PostgreSQL: counting, listing and "is there more", through
 * the query builder SQLite uses (../collection-query.ts) in PostgreSQL's dialect, so
 * both engines answer every page alike.
 */
import {
  type CollectionDialect,
  countSql,
  hasAfterSql,
  pageSql,
  type ResolvedScope,
} from '../collection-query.js';
import type { CollectionScope, PageQuery, StoredRecord } from '../storage.js';
import type { PostgresConnection } from './connection.js';
import { PG_RECORD_COLUMNS, type RecordRow, toRecord } from './record-rows.js';

/**
 * PostgreSQL's dialect of the collection SQL: `$n` placeholders, a plain LIMIT, and a
 * whole collection counted on its index (no counter row every writer would wait on).
 *
 * @example
 * ```ts
 * import { countSql } from '../collection-query.js';
 * import { POSTGRES_COLLECTION_DIALECT } from './collections.js';
 *
 * countSql({ tenantId: 1, kind: 'person' }, POSTGRES_COLLECTION_DIALECT).sql;
 * // 'SELECT count(*) AS n FROM records r WHERE r.tenant_id = $1 AND r.kind = $2'
 * ```
 */
export const POSTGRES_COLLECTION_DIALECT: CollectionDialect = {
  recordColumns: PG_RECORD_COLUMNS,
  pageLimit: 'LIMIT ?',
  pageLimitOffset: 'LIMIT ? OFFSET ?',
  placeholders: 'numbered',
};

/**
 * The collection reads of a {@link PostgresStorage}.
 */
export class PostgresCollections {
  constructor(
    private readonly connection: PostgresConnection,
    /** The seq of a sub-collection's parent. */
    private readonly seqOf: (
      tenantId: number,
      kind: string,
      id: string,
    ) => Promise<number | undefined>,
  ) {}

  /** See {@link RecordStore.count}. */
  async count(scope: CollectionScope): Promise<number> {
    const resolved = await this.resolve(scope);
    if (!resolved) return 0;
    const query = countSql(resolved, POSTGRES_COLLECTION_DIALECT);
    const { rows } = await this.connection.query<{ n: string }>(query.sql, query.params);
    return Number(rows[0]?.n ?? 0);
  }

  /** See {@link RecordStore.list}. */
  async list(query: PageQuery): Promise<StoredRecord[]> {
    const limit = Math.max(0, Math.floor(query.limit));
    if (limit === 0) return [];
    const resolved = await this.resolve(query);
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
      POSTGRES_COLLECTION_DIALECT,
    );
    const { rows } = await this.connection.query<RecordRow>(page.sql, page.params);
    return rows.map(toRecord);
  }

  /** See {@link RecordStore.hasAfter}. */
  async hasAfter(scope: CollectionScope, seq: number): Promise<boolean> {
    const resolved = await this.resolve(scope);
    if (!resolved) return false;
    const query = hasAfterSql(resolved, seq, POSTGRES_COLLECTION_DIALECT);
    const { rows } = await this.connection.query(query.sql, query.params);
    return rows.length > 0;
  }

  /** The scope with its parent's seq; undefined when that parent does not exist. */
  private async resolve(scope: CollectionScope): Promise<ResolvedScope | undefined> {
    if (!scope.parent) return scope;
    const parentSeq = await this.seqOf(scope.tenantId, scope.parent.kind, scope.parent.id);
    if (parentSeq === undefined) return undefined;
    return { tenantId: scope.tenantId, kind: scope.kind, parentSeq, filters: scope.filters };
  }
}

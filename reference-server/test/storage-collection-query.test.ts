/**
 * The one query builder of collections (storage/collection-query.ts): the plain
 * and the filtered paths share it, so they must give the same pages, every page query
 * carries the `LIMIT ? + 0` planner trick, and no read prepares a statement twice.
 */
import { describe, expect, it } from 'vitest';
import {
  type PageSelection,
  pageSql,
  type ResolvedScope,
} from '../src/storage/collection-query.js';
import { SQLITE_COLLECTION_DIALECT } from '../src/storage/sqlite/collections.js';
import type { SqliteEngine } from '../src/storage/sqlite.js';
import type { CollectionScope, RecordFilter } from '../src/storage/storage.js';
import { storageFixture } from './storage-fixture.js';

const { engine: memory } = storageFixture();

const BASE = Date.parse('2024-03-01T00:00:00.000Z');
const minutes = (n: number) => new Date(BASE + n * 60_000).toISOString();

/** Matches every record: the filtered path over the same rows as the plain one. */
const EVERYTHING: RecordFilter = { column: 'created_date', op: 'ge', value: minutes(-1) };

/** Every access path of a page, with a few limits and positions. */
const PAGES: PageSelection[] = [
  { limit: 7 },
  { limit: 7, offset: 5 },
  { limit: 7, offset: 40 },
  { limit: 7, offsetFromEnd: 3 },
  { limit: 50, offsetFromEnd: 0 },
  { limit: 7, after: 10 },
  { limit: 7, before: 30 },
  { limit: 1, before: 1 },
];

/**
 * 25 people, each signing petition p1, and 5 people of another tenant, on the
 * synchronous engine: these tests are about its SQL, not the async facade.
 */
function fixture(): { storage: SqliteEngine; whole: CollectionScope; sub: CollectionScope } {
  const storage = memory();
  const tenantId = storage.ensureTenant('acme').id;
  const other = storage.ensureTenant('other').id;
  const write = (tenant: number, kind: string, id: string, n: number, parent?: string) =>
    storage.insertRecord({
      tenantId: tenant,
      kind,
      id,
      doc: { n },
      created_date: minutes(n),
      modified_date: minutes(n),
      identifiers: [],
      parents: parent ? [{ kind: 'petition', id: parent }] : [],
    });
  write(tenantId, 'petition', 'p1', 0);
  for (let n = 1; n <= 25; n++) {
    write(tenantId, 'person', `person-${n}`, n);
    write(tenantId, 'signature', `signature-${n}`, n, 'p1');
  }
  for (let n = 1; n <= 5; n++) write(other, 'person', `theirs-${n}`, n);
  return {
    storage,
    whole: { tenantId, kind: 'person' },
    sub: { tenantId, kind: 'signature', parent: { kind: 'petition', id: 'p1' } },
  };
}

describe('collection queries', () => {
  it('the filtered path gives the pages, counts and next-page answers of the plain one', () => {
    const { storage, whole, sub } = fixture();
    for (const scope of [whole, sub]) {
      const filtered = { ...scope, filters: [EVERYTHING] };
      expect(storage.countRecords(scope)).toBe(25);
      expect(storage.countRecords(filtered)).toBe(25);
      for (const page of PAGES) {
        const plain = storage.listRecords({ ...scope, ...page }).map((record) => record.id);
        expect(storage.listRecords({ ...filtered, ...page }).map((record) => record.id)).toEqual(
          plain,
        );
        const last = storage.listRecords({ ...scope, ...page }).at(-1);
        if (last) {
          expect(storage.hasRecordAfter(filtered, last.seq)).toBe(
            storage.hasRecordAfter(scope, last.seq),
          );
        }
      }
      // The pages of both paths are the collection, in seq order, nothing else.
      const all = storage.listRecords({ ...filtered, limit: 100 });
      expect(all.map((record) => record.doc.n)).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    }
  });

  it('every page query binds its LIMIT as `? + 0`, plain or filtered, whole or sub-collection', () => {
    const scopes: ResolvedScope[] = [
      { tenantId: 1, kind: 'person' },
      { tenantId: 1, kind: 'person', filters: [EVERYTHING] },
      { tenantId: 1, kind: 'signature', parentSeq: 1 },
      { tenantId: 1, kind: 'signature', parentSeq: 1, filters: [{ key: 'email', value: 'a' }] },
    ];
    for (const scope of scopes) {
      for (const page of PAGES) {
        const { sql, varying } = pageSql(scope, page, SQLITE_COLLECTION_DIALECT);
        expect(sql).toContain('LIMIT ? + 0');
        // A bare `LIMIT ?` or `OFFSET ?` would be planned anew on every run.
        expect(sql).not.toMatch(/(LIMIT|OFFSET) \?(?! \+ 0)/);
        expect(varying).toBe(Boolean(scope.filters?.length));
      }
    }
  });

  it('reads a page, a count and a next-page answer again without preparing any statement', () => {
    const { storage, whole, sub } = fixture();
    const prepared: string[] = [];
    const database = storage.database;
    const prepare = database.prepare.bind(database);
    database.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof database.prepare;
    const readAll = () => {
      for (const scope of [whole, sub, { ...whole, filters: [EVERYTHING] }]) {
        storage.countRecords(scope);
        storage.hasRecordAfter(scope, 3);
        for (const page of PAGES) storage.listRecords({ ...scope, ...page });
      }
    };
    readAll();
    expect(prepared.length).toBeGreaterThan(0);
    prepared.length = 0;
    readAll();
    readAll();
    expect(prepared).toEqual([]);
  });
});

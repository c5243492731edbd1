/**
 * The one query builder of collections (storage/collection-query.ts): the plain
 * and the filtered paths share it, so they must give the same pages (on every engine),
 * every page query carries the `LIMIT ? + 0` planner trick, and no read on SQLite
 * prepares a statement twice.
 */
import { describe, expect, it } from 'vitest';
import {
  type PageSelection,
  pageSql,
  type ResolvedScope,
} from '../src/storage/collection-query.js';
import { SQLITE_COLLECTION_DIALECT } from '../src/storage/sqlite/collections.js';
import type {
  CollectionScope,
  RecordFilter,
  RecordWrite,
  Storage,
} from '../src/storage/storage.js';
import { engineStorages, STORAGE_ENGINES } from './storage-engines.js';
import { storageFixture } from './storage-fixture.js';

const { memory } = storageFixture();

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

/** 25 people, each signing petition p1, and 5 people of another tenant. */
async function fixture<S extends Storage>(
  storage: S,
): Promise<{ storage: S; whole: CollectionScope; sub: CollectionScope }> {
  const tenantId = (await storage.tenants.ensure('acme')).id;
  const other = (await storage.tenants.ensure('other')).id;
  const writes: RecordWrite[] = [];
  const write = (tenant: number, kind: string, id: string, n: number, parent?: string) =>
    writes.push({
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
  await storage.records.insertMany(writes);
  return {
    storage,
    whole: { tenantId, kind: 'person' },
    sub: { tenantId, kind: 'signature', parent: { kind: 'petition', id: 'p1' } },
  };
}

describe.each(STORAGE_ENGINES)('collection pages ($name)', (engine) => {
  const { open } = engineStorages(engine);

  it('the filtered path gives the pages, counts and next-page answers of the plain one', async () => {
    const { storage, whole, sub } = await fixture(await open());
    for (const scope of [whole, sub]) {
      const filtered = { ...scope, filters: [EVERYTHING] };
      expect(await storage.records.count(scope)).toBe(25);
      expect(await storage.records.count(filtered)).toBe(25);
      for (const page of PAGES) {
        const plain = await storage.records.list({ ...scope, ...page });
        const viaFilter = await storage.records.list({ ...filtered, ...page });
        expect(viaFilter.map((record) => record.id)).toEqual(plain.map((record) => record.id));
        const last = plain.at(-1);
        if (last) {
          expect(await storage.records.hasAfter(filtered, last.seq)).toBe(
            await storage.records.hasAfter(scope, last.seq),
          );
        }
      }
      // The pages of both paths are the collection, in seq order, nothing else.
      const all = await storage.records.list({ ...filtered, limit: 100 });
      expect(all.map((record) => record.doc.n)).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    }
  });
});

describe('collection queries on SQLite', () => {
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

  it('reads a page, a count and a next-page answer again without preparing any statement', async () => {
    const { storage, whole, sub } = await fixture(memory());
    const prepared: string[] = [];
    const database = storage.database;
    const prepare = database.prepare.bind(database);
    database.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof database.prepare;
    const readAll = async () => {
      for (const scope of [whole, sub, { ...whole, filters: [EVERYTHING] }]) {
        await storage.records.count(scope);
        await storage.records.hasAfter(scope, 3);
        for (const page of PAGES) await storage.records.list({ ...scope, ...page });
      }
    };
    await readAll();
    expect(prepared.length).toBeGreaterThan(0);
    prepared.length = 0;
    await readAll();
    await readAll();
    expect(prepared).toEqual([]);
  });
});

/**
 * PostgresStorage answers as SQLite does through the Storage interface: records and
 * their side tables, look-ups, totals, children, the four ways of paging, filters,
 * tenants and keys, settings and idempotent answers. One database for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStorage, type PostgresStorage } from '../../src/storage/postgres.js';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import {
  DuplicateIdentifierError,
  type PageQuery,
  type RecordWrite,
  type Storage,
} from '../../src/storage/storage.js';
import { type FreshDatabase, freshDatabase } from './database.js';

let db: FreshDatabase;
let pg: PostgresStorage;

beforeAll(async () => {
  db = await freshDatabase('storage_records');
  pg = await openPostgresStorage(db.url, { poolSize: 4 });
});
afterAll(async () => {
  await pg?.close();
  await db?.drop();
});

const BASE = Date.parse('2024-03-01T00:00:00.000Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

function write(
  tenantId: number,
  kind: string,
  id: string,
  extra: Partial<RecordWrite> = {},
): RecordWrite {
  return {
    tenantId,
    kind,
    id,
    doc: { name: id },
    created_date: at(0),
    modified_date: at(0),
    identifiers: [`t:${id}`],
    ...extra,
  };
}

describe('PostgresStorage', () => {
  it('opens migrated, says it created the schema once, and reads back what it wrote', async () => {
    expect(pg.engine).toBe('postgres');
    expect(pg.created).toBe(true);
    const again = await openPostgresStorage(db.url, { poolSize: 1 });
    expect(again.created).toBe(false);
    await again.close();

    const tenant = await pg.tenants.ensure('records');
    expect(await pg.tenants.ensure('records')).toEqual(tenant);
    expect(tenant.namespace).toBe('adis');
    const doc = { z: 1, a: 'ünïcødé', nested: { b: [1, 2] } };
    const stored = await pg.records.insert({ ...write(tenant.id, 'person', 'p1'), doc });
    const read = await pg.records.get(tenant.id, 'person', 'p1');
    expect(read?.seq).toBe(stored.seq);
    expect(read?.doc).toEqual(doc);
    expect(Object.keys(read?.doc ?? {})).toEqual(['z', 'a', 'nested']);
    expect(await pg.records.findByIdentifier(tenant.id, 'person', 't:p1')).toBe('p1');
    expect(await pg.records.tenantOf('person', 'p1')).toEqual(tenant);
    expect(await pg.records.tenantOf('person', 'nope')).toBeUndefined();

    const updated = await pg.records.update({
      ...write(tenant.id, 'person', 'p1'),
      doc: { v: 2 },
      modified_date: at(5),
      identifiers: ['t:p1b'],
    });
    expect(updated).toMatchObject({ seq: stored.seq, created_date: at(0), modified_date: at(5) });
    expect(await pg.records.findByIdentifier(tenant.id, 'person', 't:p1')).toBeUndefined();
    expect(await pg.records.findByIdentifier(tenant.id, 'person', 't:p1b')).toBe('p1');
    expect(await pg.records.update(write(tenant.id, 'person', 'ghost'))).toBeUndefined();
    expect(await pg.records.delete(tenant.id, 'person', 'p1')).toBe(true);
    expect(await pg.records.delete(tenant.id, 'person', 'p1')).toBe(false);
    expect(await pg.records.get(tenant.id, 'person', 'p1')).toBeUndefined();
  });

  it('refuses a taken identifier with DuplicateIdentifierError and keeps nothing of the write', async () => {
    const tenant = await pg.tenants.ensure('dup');
    await pg.records.insert(write(tenant.id, 'person', 'a', { identifiers: ['x:1', 'x:2'] }));
    const error = await pg.records
      .insert(write(tenant.id, 'person', 'b', { identifiers: ['x:3', 'x:2'] }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateIdentifierError);
    expect((error as DuplicateIdentifierError).identifier).toBe('x:2');
    expect(await pg.records.get(tenant.id, 'person', 'b')).toBeUndefined();
    expect(await pg.records.findByIdentifier(tenant.id, 'person', 'x:3')).toBeUndefined();
    // Inside a transaction the writes are held and sent together (write-buffer.ts): the
    // commit finds the identifier taken, and nothing of the transaction is kept.
    await expect(
      pg.transaction(async () => {
        await pg.records.insert(write(tenant.id, 'person', 'c'));
        await pg.records.insert(write(tenant.id, 'person', 'd', { identifiers: ['x:1'] }));
      }),
    ).rejects.toBeInstanceOf(DuplicateIdentifierError);
    expect(await pg.records.get(tenant.id, 'person', 'c')).toBeUndefined();
    // A statement that must see the held writes sends them, and finds it then; a nested
    // transaction that catches it rolls back alone.
    await pg.transaction(async () => {
      await pg.records.insert(write(tenant.id, 'person', 'c'));
      await expect(
        pg.transaction(async () => {
          await pg.records.insert(write(tenant.id, 'person', 'd', { identifiers: ['x:1'] }));
          await pg.records.count({ tenantId: tenant.id, kind: 'person' });
        }),
      ).rejects.toBeInstanceOf(DuplicateIdentifierError);
    });
    expect(await pg.records.get(tenant.id, 'person', 'c')).toBeDefined();
    expect(await pg.records.get(tenant.id, 'person', 'd')).toBeUndefined();
    // Two records of one batch with one identifier: all or nothing.
    await expect(
      pg.records.insertMany([
        write(tenant.id, 'person', 'e', { identifiers: ['y:1'] }),
        write(tenant.id, 'person', 'f', { identifiers: ['y:1'] }),
      ]),
    ).rejects.toBeInstanceOf(DuplicateIdentifierError);
    expect(await pg.records.get(tenant.id, 'person', 'e')).toBeUndefined();
    // The same identifier in another kind or tenant is free.
    const other = await pg.tenants.ensure('dup-other');
    await pg.records.insert(write(other.id, 'person', 'g', { identifiers: ['x:1'] }));
    await pg.records.insert(write(tenant.id, 'petition', 'h', { identifiers: ['x:1'] }));
  });

  it('keeps keys, parents, children and exact totals as SQLite does', async () => {
    const sqlite = new SqliteStorage(':memory:');
    try {
      for (const storage of [pg, sqlite] as Storage[]) {
        const tenant = await storage.tenants.ensure('totals');
        const t = tenant.id;
        await storage.records.insertMany([
          write(t, 'petition', 'pet', { identifiers: [] }),
          write(t, 'person', 'ana', {
            identifiers: [],
            keys: [{ name: 'email', value: 'ana@x.org' }],
          }),
        ]);
        const money = [0.1, 0.2, 19.99, 1e-4, 3.3333];
        for (const [i, amount] of money.entries()) {
          await storage.records.insert(
            write(t, 'donation', `d${i}`, {
              identifiers: [],
              parents: [
                { kind: 'person', id: 'ana' },
                { kind: 'petition', id: 'pet' },
                { kind: 'petition', id: 'missing' },
              ],
              contributions: [
                { parent: { kind: 'petition', id: 'pet' }, name: 'total_amount', value: amount },
                { parent: { kind: 'petition', id: 'pet' }, name: 'count', value: 1 },
                { parent: { kind: 'petition', id: 'pet' }, name: 'count', value: 1 },
                { parent: { kind: 'petition', id: 'missing' }, name: 'count', value: 1 },
              ],
            }),
          );
        }
        await storage.records.delete(t, 'donation', 'd4');
        await storage.records.update(
          write(t, 'donation', 'd3', {
            identifiers: [],
            parents: [{ kind: 'petition', id: 'pet' }],
            contributions: [
              { parent: { kind: 'petition', id: 'pet' }, name: 'total_amount', value: 5 },
            ],
          }),
        );
      }
      const tp = (await pg.tenants.get('totals'))?.id ?? 0;
      const ts = (await sqlite.tenants.get('totals'))?.id ?? 0;
      const pgTotals = await pg.records.totalsOf(tp, 'petition', ['pet', 'missing', 'ana']);
      expect(pgTotals).toEqual(
        await sqlite.records.totalsOf(ts, 'petition', ['pet', 'missing', 'ana']),
      );
      expect(pgTotals.get('pet')).toEqual({ count: 6, total_amount: 25.29 });
      expect(Object.keys(pgTotals.get('pet') ?? {})).toEqual(['count', 'total_amount']);
      for (const [name, args] of [
        [
          'childrenOf person',
          (s: Storage, t: number) => s.records.childrenOf(t, { kind: 'person', id: 'ana' }),
        ],
        [
          'childrenOf petition',
          (s: Storage, t: number) => s.records.childrenOf(t, { kind: 'petition', id: 'pet' }),
        ],
        [
          'findByKey',
          (s: Storage, t: number) => s.records.findByKey(t, 'person', 'email', 'ana@x.org'),
        ],
        [
          'findByParents',
          (s: Storage, t: number) =>
            s.records.findByParents(t, 'donation', [
              { kind: 'person', id: 'ana' },
              { kind: 'petition', id: 'pet' },
            ]),
        ],
        [
          'findByParents missing',
          (s: Storage, t: number) =>
            s.records.findByParents(t, 'donation', [{ kind: 'person', id: 'zed' }]),
        ],
      ] as const) {
        expect(await args(pg, tp), name).toEqual(await args(sqlite, ts));
      }
      expect(
        await pg.records.findByParents(tp, 'donation', [{ kind: 'person', id: 'ana' }]),
      ).toEqual(['d2', 'd1', 'd0']);
    } finally {
      await sqlite.close();
    }
  });

  it('pages, counts and filters every way exactly as SQLite', async () => {
    const sqlite = new SqliteStorage(':memory:');
    try {
      const scopes: { name: string; scope: (t: number) => Omit<PageQuery, 'limit'> }[] = [
        { name: 'whole', scope: (t) => ({ tenantId: t, kind: 'signature' }) },
        {
          name: 'sub',
          scope: (t) => ({
            tenantId: t,
            kind: 'signature',
            parent: { kind: 'petition', id: 'p0' },
          }),
        },
        {
          name: 'filtered',
          scope: (t) => ({
            tenantId: t,
            kind: 'signature',
            filters: [{ column: 'created_date', op: 'ge', value: at(10) }],
          }),
        },
        {
          name: 'sub filtered by key',
          scope: (t) => ({
            tenantId: t,
            kind: 'signature',
            parent: { kind: 'petition', id: 'p1' },
            filters: [
              { key: 'tag', value: 'odd' },
              { column: 'modified_date', op: 'lt', value: at(40) },
            ],
          }),
        },
        {
          name: 'missing parent',
          scope: (t) => ({
            tenantId: t,
            kind: 'signature',
            parent: { kind: 'petition', id: 'zz' },
          }),
        },
        { name: 'empty kind', scope: (t) => ({ tenantId: t, kind: 'nothing' }) },
      ];
      const ids: Record<string, number> = {};
      for (const [label, storage] of [
        ['pg', pg],
        ['sqlite', sqlite],
      ] as const) {
        const t = (await storage.tenants.ensure('paging')).id;
        ids[label] = t;
        const writes: RecordWrite[] = [write(t, 'petition', 'p0'), write(t, 'petition', 'p1')];
        for (let i = 0; i < 45; i++) {
          writes.push(
            write(t, 'signature', `s${i}`, {
              created_date: at(i),
              modified_date: at(i),
              keys: [{ name: 'tag', value: i % 2 ? 'odd' : 'even' }],
              parents: [{ kind: 'petition', id: `p${i % 2}` }],
            }),
          );
        }
        await storage.records.insertMany(writes);
      }
      const pages = [
        { limit: 7 },
        { limit: 7, offset: 5 },
        { limit: 7, offset: 40 },
        { limit: 7, offsetFromEnd: 3 },
        { limit: 50, offsetFromEnd: 0 },
        { limit: 7, after: 20 },
        { limit: 7, before: 20 },
        { limit: 7, before: 3 },
        { limit: 0 },
      ];
      const idsOf = (records: { id: string }[]) => records.map((r) => r.id);
      for (const { name, scope } of scopes) {
        const ps = scope(ids.pg ?? 0);
        const ss = scope(ids.sqlite ?? 0);
        expect(await pg.records.count(ps), name).toBe(await sqlite.records.count(ss));
        for (const page of pages) {
          // seqs differ between the databases: compare keyset positions by the record at them.
          const pgAll = await pg.records.list({ ...ps, limit: 100 });
          const sqAll = await sqlite.records.list({ ...ss, limit: 100 });
          // A pivot between two records: `before` it is before the next record, `after`
          // it is after the one before (the seqs need not be any record's).
          const translateBefore = (
            seq: number | undefined,
            from: typeof pgAll,
            to: typeof sqAll,
          ) => {
            if (seq === undefined) return undefined;
            const index = from.findIndex((r) => r.seq >= seq);
            return index < 0 ? Number.MAX_SAFE_INTEGER : to[index]?.seq;
          };
          const translateAfter = (
            seq: number | undefined,
            from: typeof pgAll,
            to: typeof sqAll,
          ) => {
            if (seq === undefined) return undefined;
            const index = from.map((r) => r.seq <= seq).lastIndexOf(true);
            return index < 0 ? 0 : to[index]?.seq;
          };
          const pgSeqs = (await pg.records.list({ ...ps, limit: 100 })).map((r) => r.seq);
          const pivot = page.after ?? page.before;
          const pgPivot = pivot === undefined ? undefined : (pgSeqs[pivot] ?? pivot);
          const pgPage = await pg.records.list({
            ...ps,
            ...page,
            after: page.after === undefined ? undefined : pgPivot,
            before: page.before === undefined ? undefined : pgPivot,
          });
          const sqPage = await sqlite.records.list({
            ...ss,
            ...page,
            after: page.after === undefined ? undefined : translateAfter(pgPivot, pgAll, sqAll),
            before: page.before === undefined ? undefined : translateBefore(pgPivot, pgAll, sqAll),
          });
          expect(idsOf(pgPage), `${name} ${JSON.stringify(page)}`).toEqual(idsOf(sqPage));
          const last = pgPage.at(-1);
          if (last) {
            const sqLast = sqPage.at(-1);
            expect(await pg.records.hasAfter(ps, last.seq)).toBe(
              await sqlite.records.hasAfter(ss, sqLast?.seq ?? 0),
            );
          }
        }
      }
      expect(await pg.records.count({ tenantId: ids.pg ?? 0, kind: 'signature' })).toBe(45);
    } finally {
      await sqlite.close();
    }
  });

  it('keeps tenants, API keys and settings apart', async () => {
    await pg.tenants.putApiKey('secret-w', 'acme', 'write', 'file');
    await pg.tenants.putApiKey('secret-r', 'acme', 'read', 'file');
    await pg.tenants.putApiKey('secret-m', 'beta', 'write');
    expect((await pg.tenants.authenticate('secret-w'))?.access).toBe('write');
    expect((await pg.tenants.authenticate('secret-r'))?.tenant.name).toBe('acme');
    expect(await pg.tenants.authenticate('nope')).toBeUndefined();
    const { rows } = await pg.connection.query<{ token_hash: string }>(
      'SELECT token_hash FROM api_keys',
    );
    expect(rows.some((row) => row.token_hash.includes('secret'))).toBe(false);
    expect(await pg.tenants.removeApiKeys('file')).toBe(2);
    expect(await pg.tenants.authenticate('secret-w')).toBeUndefined();
    expect((await pg.tenants.authenticate('secret-m'))?.tenant.name).toBe('beta');
    expect(await pg.tenants.get('nobody')).toBeUndefined();
    const custom = await pg.tenants.ensure('ns-tenant', 'custom');
    expect(custom.namespace).toBe('custom');

    expect(await pg.tenants.getSetting('theme')).toBeUndefined();
    await pg.tenants.setSetting('theme', 'dark');
    await pg.tenants.setSetting('theme', 'light');
    expect(await pg.tenants.getSetting('theme')).toBe('light');
  });

  it('files idempotent answers per tenant and caller, expiring old ones', async () => {
    const t = (await pg.tenants.ensure('idem')).id;
    const answer = {
      fingerprint: 'f1',
      status: 201,
      headers: [['content-type', 'application/json']] as const,
      body: new Uint8Array([0, 1, 2, 255]),
      createdMs: 10_000,
    };
    const ref = { tenantId: t, anonymous: false, key: 'k1' };
    await pg.unit(() => pg.idempotency.save(ref, answer, 0));
    const found = await pg.idempotency.find(ref, 5_000);
    expect(found).toMatchObject({ fingerprint: 'f1', status: 201, createdMs: 10_000 });
    expect(found?.headers).toEqual([['content-type', 'application/json']]);
    expect([...(found?.body ?? [])]).toEqual([0, 1, 2, 255]);
    expect(await pg.idempotency.find({ ...ref, anonymous: true }, 0)).toBeUndefined();
    expect(await pg.idempotency.find(ref, 10_001)).toBeUndefined();
    // A later save replaces the expired answer and sweeps old ones.
    await pg.idempotency.save({ ...ref, key: 'k0' }, { ...answer, createdMs: 1 }, 0);
    await pg.idempotency.save(ref, { ...answer, fingerprint: 'f2', createdMs: 50_000 }, 20_000);
    expect((await pg.idempotency.find(ref, 0))?.fingerprint).toBe('f2');
    expect(await pg.idempotency.find({ ...ref, key: 'k0' }, 0)).toBeUndefined();
  });

  it('rolls back a throwing transaction or unit, keeps a caught savepoint apart, commits otherwise', async () => {
    const t = (await pg.tenants.ensure('units')).id;
    await expect(
      pg.transaction(async () => {
        await pg.records.insert(write(t, 'person', 'u1'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await pg.records.get(t, 'person', 'u1')).toBeUndefined();
    await expect(
      pg.unit(async () => {
        await pg.records.insert(write(t, 'person', 'u2'));
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error('late');
      }),
    ).rejects.toThrow('late');
    expect(await pg.records.get(t, 'person', 'u2')).toBeUndefined();
    await pg.unit(async () => {
      await pg.records.insert(write(t, 'person', 'u3'));
      await pg
        .transaction(async () => {
          await pg.records.insert(write(t, 'person', 'u4'));
          throw new Error('inner');
        })
        .catch(() => undefined);
      expect(pg.connection.inTransaction()).toBe(true);
      // A detached unit is its own transaction, committed on its own.
      await pg.unit(() => pg.records.insert(write(t, 'person', 'u5')), { detached: true });
    });
    expect(await pg.records.get(t, 'person', 'u3')).toBeDefined();
    expect(await pg.records.get(t, 'person', 'u4')).toBeUndefined();
    expect(await pg.records.get(t, 'person', 'u5')).toBeDefined();
    expect(pg.commitMark()).toBe(0);
    await pg.durable(0);
    await pg.flush();
  });

  it('analyze() gives the record tables statistics: a look-up by id then plans on the unique index', async () => {
    const t = (await pg.tenants.ensure('analyzed')).id;
    await pg.transaction(async () => {
      for (let n = 0; n < 400; n++) await pg.records.insert(write(t, 'person', `a${n}`));
    });
    await pg.analyze();
    const { rows } = await pg.connection.query<{ relname: string }>(
      `SELECT relname FROM pg_stat_user_tables
       WHERE schemaname = current_schema() AND last_analyze IS NOT NULL ORDER BY relname`,
      [],
      { readOnly: true },
    );
    expect(rows.map((row) => row.relname)).toEqual([
      'identifiers',
      'record_contributions',
      'record_keys',
      'record_parents',
      'records',
    ]);
    // The plan a prepared look-up keeps (generic): with statistics, the unique index on
    // (kind, id, tenant_id), not an index on (tenant_id, kind, …) filtering on the id.
    const plan = await pg.connection.unit(async () => {
      await pg.connection.query('SET LOCAL plan_cache_mode = force_generic_plan');
      const explained = await pg.connection.query<{ 'QUERY PLAN': string }>(
        'EXPLAIN SELECT seq FROM records WHERE kind = $1 AND id = $2 AND tenant_id = $3',
        ['person', 'a7', t],
      );
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('records_by_id');
  });
});

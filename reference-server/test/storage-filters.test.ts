import { describe, expect, it } from 'vitest';
import type {
  CollectionScope,
  DateFilter,
  ParentRef,
  RecordFilter,
  RecordWrite,
  Storage,
  StoredRecord,
} from '../src/storage/storage.js';
import { engineStorages, STORAGE_ENGINES } from './storage-engines.js';

const BASE = Date.parse('2024-03-01T00:00:00.000Z');
const minutes = (n: number) => new Date(BASE + n * 60_000).toISOString();
const days = (n: number) => new Date(BASE + n * 86_400_000).toISOString();

/**
 * 30 people: person i created at minute i and last modified on day (i * 7) % 30, so the
 * two dates order the records differently. Every third person shares an email address.
 * 20 signatures alternate between petitions p1 and p2, with people interleaved.
 */
async function filled(storage: Storage) {
  const tenant = (await storage.tenants.ensure('acme')).id;
  const other = (await storage.tenants.ensure('other')).id;
  const record = (
    tenantId: number,
    kind: string,
    id: string,
    created: string,
    modified: string,
    extra: Partial<RecordWrite> = {},
  ): RecordWrite => ({
    tenantId,
    kind,
    id,
    doc: { id },
    created_date: created,
    modified_date: modified,
    identifiers: [`test:${kind}-${id}`],
    ...extra,
  });
  // One batch, in this order (seq follows it): a write per round trip would be slow on
  // PostgreSQL and add nothing.
  const writes: RecordWrite[] = [
    record(tenant, 'petition', 'p1', minutes(0), minutes(0)),
    record(tenant, 'petition', 'p2', minutes(0), minutes(0)),
  ];
  for (let i = 0; i < 30; i++) {
    const email = i % 3 === 0 ? 'shared@example.org' : `person${i}@example.org`;
    writes.push(
      record(tenant, 'person', `u${i}`, minutes(i), days((i * 7) % 30), {
        keys: [
          { name: 'email', value: email },
          { name: 'phone', value: `+100${i}` },
        ],
      }),
    );
    if (i < 20) {
      const petition: ParentRef = { kind: 'petition', id: i % 2 === 0 ? 'p1' : 'p2' };
      writes.push(
        record(tenant, 'signature', `s${i}`, minutes(i), days((i * 7) % 30), {
          parents: [petition, { kind: 'person', id: `u${i}` }],
          keys: [{ name: 'email', value: email }],
        }),
      );
    }
  }
  // The same key and dates in another tenant and another kind must never match.
  writes.push(
    record(other, 'person', 'u0', minutes(0), days(0), {
      keys: [{ name: 'email', value: 'shared@example.org' }],
    }),
  );
  writes.push(
    record(tenant, 'contact', 'c0', minutes(0), days(0), {
      keys: [{ name: 'email', value: 'shared@example.org' }],
    }),
  );
  expect(await storage.records.insertMany(writes)).toBe(writes.length);
  return { storage, tenant, other };
}

/** Ids of the records in order. */
const ids = (records: readonly StoredRecord[]) => records.map((r) => r.id);

async function everything(storage: Storage, scope: CollectionScope): Promise<StoredRecord[]> {
  return storage.records.list({ ...scope, filters: undefined, limit: 1000 });
}

/** What the filters should select, worked out in JavaScript from the whole collection. */
async function expected(
  storage: Storage,
  scope: CollectionScope,
  matches: (record: StoredRecord) => boolean,
): Promise<StoredRecord[]> {
  return (await everything(storage, scope)).filter(matches);
}

/**
 * Every access path of listRecords, countRecords and hasRecordAfter give the same
 * records as `want` (ascending seq).
 */
async function expectPaging(storage: Storage, scope: CollectionScope, want: StoredRecord[]) {
  const n = want.length;
  expect(await storage.records.count(scope)).toBe(n);
  // The limits side by side: each read stands alone, and PostgreSQL answers them on
  // several connections at once.
  const limits = [1, 3, 7, 100].map(async (limit) => {
    const offsets = Array.from({ length: n + 2 }, async (_, offset) => {
      const label = `limit ${limit} offset ${offset}`;
      const [fromStart, fromEnd] = await Promise.all([
        storage.records.list({ ...scope, limit, offset }),
        storage.records.list({ ...scope, limit, offsetFromEnd: offset }),
      ]);
      expect(ids(fromStart), label).toEqual(ids(want.slice(offset, offset + limit)));
      expect(ids(fromEnd), label).toEqual(
        ids(want.slice(Math.max(0, n - offset - limit), Math.max(0, n - offset))),
      );
    });
    await Promise.all(offsets);
    // Walking forward with `after` and backward with `before` visits every record once.
    const forward: StoredRecord[] = [];
    let page = await storage.records.list({ ...scope, limit, after: 0 });
    while (page.length > 0) {
      forward.push(...page);
      const last = page[page.length - 1] as StoredRecord;
      expect(await storage.records.hasAfter(scope, last.seq)).toBe(forward.length < n);
      page = await storage.records.list({ ...scope, limit, after: last.seq });
    }
    expect(ids(forward), `after, limit ${limit}`).toEqual(ids(want));
    const backward: StoredRecord[] = [];
    page = await storage.records.list({ ...scope, limit, before: Number.MAX_SAFE_INTEGER });
    while (page.length > 0) {
      backward.unshift(...page);
      page = await storage.records.list({ ...scope, limit, before: (page[0] as StoredRecord).seq });
    }
    expect(ids(backward), `before, limit ${limit}`).toEqual(ids(want));
  });
  await Promise.all(limits);
  expect(await storage.records.hasAfter(scope, 0)).toBe(n > 0);
}

describe.each(STORAGE_ENGINES)('date filters ($name)', (engine) => {
  // The tests only read: one fixture for the suite.
  const fixture = engineStorages(engine).shared(filled);

  const ops: readonly [DateFilter['op'], (a: string, b: string) => boolean][] = [
    ['eq', (a, b) => a === b],
    ['ne', (a, b) => a !== b],
    ['gt', (a, b) => a > b],
    ['ge', (a, b) => a >= b],
    ['lt', (a, b) => a < b],
    ['le', (a, b) => a <= b],
  ];

  it('compare created_date with each operator', async () => {
    const { storage, tenant } = await fixture();
    const scope = { tenantId: tenant, kind: 'person' };
    const pivot = minutes(10); // person u10's creation
    const counts = { eq: 1, ne: 29, gt: 19, ge: 20, lt: 10, le: 11 };
    for (const [op, holds] of ops) {
      const filtered = { ...scope, filters: [{ column: 'created_date', op, value: pivot }] };
      expect(await storage.records.count(filtered as CollectionScope), op).toBe(counts[op]);
      await expectPaging(
        storage,
        filtered as CollectionScope,
        await expected(storage, scope, (r) => holds(r.created_date, pivot)),
      );
    }
    expect(
      ids(
        await storage.records.list({
          ...scope,
          filters: [{ column: 'created_date', op: 'eq', value: pivot }],
          limit: 10,
        }),
      ),
    ).toEqual(['u10']);
  });

  it('compare modified_date with each operator', async () => {
    const { storage, tenant } = await fixture();
    const scope = { tenantId: tenant, kind: 'person' };
    // Modified on day (i * 7) % 30: days 0..29 once each; day 14 is person u2.
    const pivot = days(14);
    const counts = { eq: 1, ne: 29, gt: 15, ge: 16, lt: 14, le: 15 };
    for (const [op, holds] of ops) {
      const filtered: CollectionScope = {
        ...scope,
        filters: [{ column: 'modified_date', op, value: pivot }],
      };
      expect(await storage.records.count(filtered), op).toBe(counts[op]);
      const want = await expected(storage, scope, (r) => holds(r.modified_date, pivot));
      await expectPaging(storage, filtered, want);
    }
    expect(
      ids(
        await storage.records.list({
          ...scope,
          filters: [{ column: 'modified_date', op: 'eq', value: pivot }],
          limit: 10,
        }),
      ),
    ).toEqual(['u2']);
  });

  it('combine with AND, including a range on one column', async () => {
    const { storage, tenant } = await fixture();
    const scope = { tenantId: tenant, kind: 'person' };
    const filters: RecordFilter[] = [
      { column: 'created_date', op: 'ge', value: minutes(5) },
      { column: 'created_date', op: 'lt', value: minutes(25) },
      { column: 'modified_date', op: 'gt', value: days(10) },
    ];
    const want = await expected(
      storage,
      scope,
      (r) =>
        r.created_date >= minutes(5) && r.created_date < minutes(25) && r.modified_date > days(10),
    );
    // Neither empty nor everything, so the conditions really narrow each other.
    expect(want.length).toBeGreaterThan(3);
    expect(want.length).toBeLessThan(15);
    await expectPaging(storage, { ...scope, filters }, want);
    // Contradictory conditions select nothing.
    const none: CollectionScope = {
      ...scope,
      filters: [
        { column: 'created_date', op: 'gt', value: minutes(20) },
        { column: 'created_date', op: 'lt', value: minutes(10) },
      ],
    };
    await expectPaging(storage, none, []);
    expect(await storage.records.list({ ...none, limit: 10 })).toEqual([]);
  });

  it('accept only the known columns and operators', async () => {
    const { storage, tenant } = await fixture();
    const bad = (filter: unknown) =>
      storage.records.count({ tenantId: tenant, kind: 'person', filters: [filter as DateFilter] });
    await expect(bad({ column: 'doc', op: 'eq', value: 'x' })).rejects.toThrow(RangeError);
    await expect(
      bad({ column: 'created_date; DROP TABLE records', op: 'eq', value: 'x' }),
    ).rejects.toThrow(RangeError);
    await expect(bad({ column: 'constructor', op: 'eq', value: 'x' })).rejects.toThrow(RangeError);
    await expect(bad({ column: 'created_date', op: 'like', value: 'x' })).rejects.toThrow(
      RangeError,
    );
    await expect(bad({ column: 'created_date', op: 'toString', value: 'x' })).rejects.toThrow(
      RangeError,
    );
    expect(await storage.records.count({ tenantId: tenant, kind: 'person' })).toBe(30);
  });
});

describe.each(STORAGE_ENGINES)('key filters ($name)', (engine) => {
  // The tests only read: one fixture for the suite.
  const fixture = engineStorages(engine).shared(filled);

  it('select the records with that lookup key, only of the tenant and kind', async () => {
    const { storage, tenant, other } = await fixture();
    const scope = { tenantId: tenant, kind: 'person' };
    const shared: CollectionScope = {
      ...scope,
      filters: [{ key: 'email', value: 'shared@example.org' }],
    };
    expect(ids(await storage.records.list({ ...shared, limit: 100 }))).toEqual(
      Array.from({ length: 10 }, (_, i) => `u${i * 3}`),
    );
    await expectPaging(
      storage,
      shared,
      await expected(storage, scope, (r) => Number(r.id.slice(1)) % 3 === 0),
    );
    expect(
      ids(
        await storage.records.list({
          ...scope,
          filters: [{ key: 'email', value: 'person4@example.org' }],
          limit: 10,
        }),
      ),
    ).toEqual(['u4']);
    // The value belongs to another key name, or to nobody.
    expect(
      await storage.records.count({
        ...scope,
        filters: [{ key: 'phone', value: 'shared@example.org' }],
      }),
    ).toBe(0);
    expect(
      await storage.records.count({
        ...scope,
        filters: [{ key: 'email', value: 'nobody@example.org' }],
      }),
    ).toBe(0);
    const otherShared = { ...shared, tenantId: other };
    expect(ids(await storage.records.list({ ...otherShared, limit: 10 }))).toEqual(['u0']);
    expect(await storage.records.count({ ...shared, kind: 'contact' })).toBe(1);
  });

  it('combine with date filters', async () => {
    const { storage, tenant } = await fixture();
    const scope = { tenantId: tenant, kind: 'person' };
    const filters: RecordFilter[] = [
      { key: 'email', value: 'shared@example.org' },
      { column: 'created_date', op: 'gt', value: minutes(6) },
      { column: 'modified_date', op: 'le', value: days(21) },
    ];
    // Shared email: u0, u3, …, u27; created after minute 6: u9 … u27; modified on day
    // (i * 7) % 30 ≤ 21: u9 (3), u12 (24 no), u15 (15), u18 (6), u21 (27 no), u24 (18),
    // u27 (9).
    expect(ids(await storage.records.list({ ...scope, filters, limit: 100 }))).toEqual([
      'u9',
      'u15',
      'u18',
      'u24',
      'u27',
    ]);
    await expectPaging(
      storage,
      { ...scope, filters },
      await expected(
        storage,
        scope,
        (r) =>
          Number(r.id.slice(1)) % 3 === 0 &&
          r.created_date > minutes(6) &&
          r.modified_date <= days(21),
      ),
    );
  });
});

describe.each(STORAGE_ENGINES)('filters in a sub-collection ($name)', (engine) => {
  // The tests only read: one fixture for the suite.
  const fixture = engineStorages(engine).shared(filled);

  it('apply to the records under the parent only', async () => {
    const { storage, tenant } = await fixture();
    const scope: CollectionScope = {
      tenantId: tenant,
      kind: 'signature',
      parent: { kind: 'petition', id: 'p1' },
    };
    // p1 has the even signatures s0, s2, …, s18.
    expect(ids(await everything(storage, scope))).toEqual(
      Array.from({ length: 10 }, (_, i) => `s${i * 2}`),
    );
    const byDate: CollectionScope = {
      ...scope,
      filters: [{ column: 'created_date', op: 'ge', value: minutes(7) }],
    };
    expect(ids(await storage.records.list({ ...byDate, limit: 100 }))).toEqual([
      's8',
      's10',
      's12',
      's14',
      's16',
      's18',
    ]);
    await expectPaging(
      storage,
      byDate,
      await expected(storage, scope, (r) => r.created_date >= minutes(7)),
    );
    const byModified: CollectionScope = {
      ...scope,
      filters: [{ column: 'modified_date', op: 'lt', value: days(15) }],
    };
    await expectPaging(
      storage,
      byModified,
      await expected(storage, scope, (r) => r.modified_date < days(15)),
    );
    // Shared email among p1's signatures: s0, s6, s12, s18; then created before minute 15.
    const byKey: CollectionScope = {
      ...scope,
      filters: [
        { key: 'email', value: 'shared@example.org' },
        { column: 'created_date', op: 'lt', value: minutes(15) },
      ],
    };
    expect(ids(await storage.records.list({ ...byKey, limit: 100 }))).toEqual(['s0', 's6', 's12']);
    await expectPaging(
      storage,
      byKey,
      await expected(
        storage,
        scope,
        (r) => ['s0', 's6', 's12', 's18'].includes(r.id) && r.created_date < minutes(15),
      ),
    );
    // A person's signatures are a sub-collection too.
    const mine: CollectionScope = {
      tenantId: tenant,
      kind: 'signature',
      parent: { kind: 'person', id: 'u3' },
      filters: [{ key: 'email', value: 'shared@example.org' }],
    };
    expect(ids(await storage.records.list({ ...mine, limit: 10 }))).toEqual(['s3']);
  });

  it('select nothing under a parent that does not exist', async () => {
    const { storage, tenant } = await fixture();
    const scope: CollectionScope = {
      tenantId: tenant,
      kind: 'signature',
      parent: { kind: 'petition', id: 'missing' },
      filters: [{ column: 'created_date', op: 'ge', value: minutes(0) }],
    };
    expect(await storage.records.count(scope)).toBe(0);
    expect(await storage.records.list({ ...scope, limit: 10 })).toEqual([]);
    expect(await storage.records.hasAfter(scope, 0)).toBe(false);
  });
});

describe.each(STORAGE_ENGINES)('without filters ($name)', (engine) => {
  // The tests only read: one fixture for the suite.
  const fixture = engineStorages(engine).shared(filled);

  it('collections are unchanged, and an empty filter list is no filter', async () => {
    const { storage, tenant } = await fixture();
    const people = { tenantId: tenant, kind: 'person' };
    const all = await everything(storage, people);
    expect(ids(all)).toEqual(Array.from({ length: 30 }, (_, i) => `u${i}`));
    await expectPaging(storage, people, all);
    await expectPaging(storage, { ...people, filters: [] }, all);
    const sub: CollectionScope = {
      tenantId: tenant,
      kind: 'signature',
      parent: { kind: 'petition', id: 'p2' },
    };
    const signatures = await everything(storage, sub);
    expect(ids(signatures)).toEqual(Array.from({ length: 10 }, (_, i) => `s${i * 2 + 1}`));
    await expectPaging(storage, sub, signatures);
    await expectPaging(storage, { ...sub, filters: [] }, signatures);
  });

  it('a filter matching everything gives the same pages as no filter', async () => {
    const { storage, tenant } = await fixture();
    const people = { tenantId: tenant, kind: 'person' };
    const all = await everything(storage, people);
    const always: CollectionScope = {
      ...people,
      filters: [{ column: 'created_date', op: 'ge', value: minutes(0) }],
    };
    await expectPaging(storage, always, all);
    expect(await storage.records.list({ ...always, limit: 5, offset: 3 })).toEqual(
      await storage.records.list({ ...people, limit: 5, offset: 3 }),
    );
  });
});

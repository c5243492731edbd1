import { describe, expect, it } from 'vitest';
import { MIGRATIONS, openStorage } from '../src/storage/sqlite.js';
import type { Contribution, ParentRef, RecordWrite } from '../src/storage/storage.js';
import { oldDatabase } from './old-database.js';
import { engineStorages, STORAGE_ENGINES } from './storage-engines.js';
import { storageFixture } from './storage-fixture.js';

const { opened, dirs } = storageFixture();

let clock = Date.parse('2024-01-01T00:00:00.000Z');
function write(
  tenantId: number,
  kind: string,
  id: string,
  extra: { parents?: ParentRef[]; contributions?: Contribution[] } = {},
): RecordWrite {
  const date = new Date(clock++).toISOString();
  return {
    tenantId,
    kind,
    id,
    doc: { id },
    created_date: date,
    modified_date: date,
    identifiers: [`test:${kind}-${id}`],
    ...extra,
  };
}

const petition = (id: string): ParentRef => ({ kind: 'petition', id });
const signs = (id: string, value = 1): Contribution => ({
  parent: petition(id),
  name: 'total_signatures',
  value,
});

describe.each(STORAGE_ENGINES)('record totals ($name)', (engine) => {
  const { open, rows } = engineStorages(engine);

  it('sums the contributions of every record into its parent', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'petition', 'p1'));
    expect(await storage.records.totalsOf(t, 'petition', ['p1'])).toEqual(new Map());
    for (let i = 0; i < 5; i++) {
      await storage.records.insert(
        write(t, 'signature', `s${i}`, { contributions: [signs('p1')] }),
      );
    }
    expect(await storage.records.totalsOf(t, 'petition', ['p1'])).toEqual(
      new Map([['p1', { total_signatures: 5 }]]),
    );
  });

  it('an update replaces the contributions: the total moves by the difference', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'page', 'pg'));
    const amount = (value: number) => [
      { parent: { kind: 'page', id: 'pg' }, name: 'amount', value },
    ];
    await storage.records.insert(write(t, 'donation', 'd1', { contributions: amount(10) }));
    await storage.records.insert(write(t, 'donation', 'd2', { contributions: amount(25) }));
    expect((await storage.records.totalsOf(t, 'page', ['pg'])).get('pg')).toEqual({ amount: 35 });
    await storage.records.update(write(t, 'donation', 'd1', { contributions: amount(12.5) }));
    expect((await storage.records.totalsOf(t, 'page', ['pg'])).get('pg')).toEqual({ amount: 37.5 });
    // An update without contributions withdraws them.
    await storage.records.update(write(t, 'donation', 'd2'));
    expect((await storage.records.totalsOf(t, 'page', ['pg'])).get('pg')).toEqual({ amount: 12.5 });
    // The same value again leaves the total unchanged (subtract, then add).
    await storage.records.update(write(t, 'donation', 'd1', { contributions: amount(12.5) }));
    expect((await storage.records.totalsOf(t, 'page', ['pg'])).get('pg')).toEqual({ amount: 12.5 });
  });

  it('a delete subtracts; the last contribution gone, the total is absent', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'petition', 'p1'));
    await storage.records.insert(write(t, 'signature', 'a', { contributions: [signs('p1')] }));
    await storage.records.insert(write(t, 'signature', 'b', { contributions: [signs('p1')] }));
    expect(await storage.records.delete(t, 'signature', 'a')).toBe(true);
    expect((await storage.records.totalsOf(t, 'petition', ['p1'])).get('p1')).toEqual({
      total_signatures: 1,
    });
    expect(await storage.records.delete(t, 'signature', 'a')).toBe(false);
    expect((await storage.records.totalsOf(t, 'petition', ['p1'])).get('p1')).toEqual({
      total_signatures: 1,
    });
    expect(await storage.records.delete(t, 'signature', 'b')).toBe(true);
    expect((await storage.records.totalsOf(t, 'petition', ['p1'])).has('p1')).toBe(false);
    expect(await rows(storage, 'record_contributions')).toBe(0);
  });

  it('a total that sums to zero stays present while contributions exist', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'page', 'pg'));
    const to = (value: number) => [{ parent: { kind: 'page', id: 'pg' }, name: 'net', value }];
    await storage.records.insert(write(t, 'donation', 'plus', { contributions: to(5) }));
    await storage.records.insert(write(t, 'donation', 'minus', { contributions: to(-5) }));
    expect((await storage.records.totalsOf(t, 'page', ['pg'])).get('pg')).toEqual({ net: 0 });
  });

  it('sums fractional money exactly', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'page', 'pg'));
    const to = (value: number) => [{ parent: { kind: 'page', id: 'pg' }, name: 'amount', value }];
    let floating = 0;
    for (let i = 0; i < 10; i++) {
      await storage.records.insert(write(t, 'donation', `a${i}`, { contributions: to(0.1) }));
      await storage.records.insert(write(t, 'donation', `b${i}`, { contributions: to(0.2) }));
      floating += 0.1;
      floating += 0.2;
    }
    // Plain floating point drifts; the stored integers do not.
    expect(floating).not.toBe(3);
    expect((await storage.records.totalsOf(t, 'page', ['pg'])).get('pg')).toEqual({ amount: 3 });
    await storage.records.insert(write(t, 'donation', 'c', { contributions: to(0.0001) }));
    expect((await storage.records.totalsOf(t, 'page', ['pg'])).get('pg')?.amount).toBe(3.0001);
  });

  it('keeps several names on several parents apart; repeats in one write add up', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'event', 'e1'));
    await storage.records.insert(write(t, 'event', 'e2'));
    const ticket = (event: string, name: string, value: number): Contribution => ({
      parent: { kind: 'event', id: event },
      name,
      value,
    });
    await storage.records.insert(
      write(t, 'ticket', 't1', {
        contributions: [
          ticket('e1', 'total_tickets', 2),
          ticket('e1', 'ticket_levels.VIP.total_tickets', 2),
          ticket('e1', 'total_amount', 99.9),
          ticket('e2', 'total_tickets', 1),
          ticket('e1', 'total_tickets', 3),
        ],
      }),
    );
    await storage.records.insert(
      write(t, 'ticket', 't2', { contributions: [ticket('e2', 'total_tickets', 4)] }),
    );
    expect(await storage.records.totalsOf(t, 'event', ['e1', 'e2', 'e3'])).toEqual(
      new Map([
        ['e1', { total_tickets: 5, 'ticket_levels.VIP.total_tickets': 2, total_amount: 99.9 }],
        ['e2', { total_tickets: 5 }],
      ]),
    );
    // Another kind with the same id is another record.
    expect((await storage.records.totalsOf(t, 'petition', ['e1'])).size).toBe(0);
  });

  it('skips a contribution to a parent that does not exist', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'petition', 'p1'));
    await storage.records.insert(
      write(t, 'signature', 's1', { contributions: [signs('missing'), signs('p1')] }),
    );
    expect(await storage.records.totalsOf(t, 'petition', ['p1', 'missing'])).toEqual(
      new Map([['p1', { total_signatures: 1 }]]),
    );
    // Created later, the parent starts at nothing: the skipped contribution was not kept.
    await storage.records.insert(write(t, 'petition', 'missing'));
    expect((await storage.records.totalsOf(t, 'petition', ['missing'])).size).toBe(0);
  });

  it('never counts another tenant’s records', async () => {
    const storage = await open();
    const a = (await storage.tenants.ensure('a')).id;
    const b = (await storage.tenants.ensure('b')).id;
    await storage.records.insert(write(a, 'petition', 'p1'));
    await storage.records.insert(write(b, 'petition', 'p1'));
    await storage.records.insert(write(a, 'signature', 's1', { contributions: [signs('p1')] }));
    await storage.records.insert(write(b, 'signature', 's1', { contributions: [signs('p1', 7)] }));
    await storage.records.insert(write(b, 'signature', 's2', { contributions: [signs('p1', 7)] }));
    expect((await storage.records.totalsOf(a, 'petition', ['p1'])).get('p1')).toEqual({
      total_signatures: 1,
    });
    expect((await storage.records.totalsOf(b, 'petition', ['p1'])).get('p1')).toEqual({
      total_signatures: 14,
    });
    // A contribution to a parent only another tenant has is skipped.
    await storage.records.insert(write(b, 'petition', 'only-b'));
    await storage.records.insert(write(a, 'signature', 's2', { contributions: [signs('only-b')] }));
    expect((await storage.records.totalsOf(b, 'petition', ['only-b'])).size).toBe(0);
  });

  it('answers for many ids at once', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    const ids = Array.from({ length: 1200 }, (_, i) => `p${i}`);
    await storage.records.insertMany(ids.map((id) => write(t, 'petition', id)));
    // Every third petition gets (index % 5) + 1 signatures.
    const writes: RecordWrite[] = [];
    ids.forEach((id, i) => {
      if (i % 3 !== 0) return;
      for (let n = 0; n <= i % 5; n++) {
        writes.push(write(t, 'signature', `${id}-${n}`, { contributions: [signs(id)] }));
      }
    });
    await storage.records.insertMany(writes);
    const totals = await storage.records.totalsOf(t, 'petition', ids);
    expect(totals.size).toBe(400);
    ids.forEach((id, i) => {
      expect(totals.get(id)).toEqual(i % 3 === 0 ? { total_signatures: (i % 5) + 1 } : undefined);
    });
    expect(await storage.records.totalsOf(t, 'petition', [])).toEqual(new Map());
  });

  it('refuses an amount it cannot store exactly', async () => {
    const storage = await open();
    const t = (await storage.tenants.ensure('acme')).id;
    await storage.records.insert(write(t, 'petition', 'p1'));
    await expect(
      storage.records.insert(write(t, 'signature', 's1', { contributions: [signs('p1', NaN)] })),
    ).rejects.toThrow(RangeError);
    await expect(
      storage.records.insert(write(t, 'signature', 's2', { contributions: [signs('p1', 1e15)] })),
    ).rejects.toThrow(RangeError);
    // All or nothing: the failed writes left neither records nor totals behind.
    expect(await storage.records.get(t, 'signature', 's1')).toBeUndefined();
    expect((await storage.records.totalsOf(t, 'petition', ['p1'])).size).toBe(0);
  });
});

describe.each(STORAGE_ENGINES)('childrenOf ($name)', (engine) => {
  const { open } = engineStorages(engine);

  it('lists the children of every kind, oldest first, and only the tenant’s', async () => {
    const storage = await open();
    const a = (await storage.tenants.ensure('a')).id;
    const b = (await storage.tenants.ensure('b')).id;
    const person: ParentRef = { kind: 'person', id: 'x' };
    await storage.records.insert(write(a, 'person', 'x'));
    await storage.records.insert(write(b, 'person', 'x'));
    await storage.records.insert(write(a, 'signature', 's1', { parents: [person] }));
    await storage.records.insert(write(b, 'signature', 'other', { parents: [person] }));
    await storage.records.insert(
      write(a, 'donation', 'd1', { parents: [person, petition('none')] }),
    );
    await storage.records.insert(write(a, 'attendance', 'at1', { parents: [person] }));
    await storage.records.insert(write(a, 'signature', 's2', { parents: [person] }));
    await storage.records.insert(write(a, 'signature', 'unrelated'));
    expect(await storage.records.childrenOf(a, person)).toEqual([
      { kind: 'signature', id: 's1' },
      { kind: 'donation', id: 'd1' },
      { kind: 'attendance', id: 'at1' },
      { kind: 'signature', id: 's2' },
    ]);
    expect(await storage.records.childrenOf(b, person)).toEqual([
      { kind: 'signature', id: 'other' },
    ]);
    expect(await storage.records.childrenOf(a, { kind: 'person', id: 'nobody' })).toEqual([]);
    // An update that drops the parent drops the child; a delete does too.
    await storage.records.update(write(a, 'donation', 'd1'));
    await storage.records.delete(a, 'signature', 's1');
    expect(await storage.records.childrenOf(a, person)).toEqual([
      { kind: 'attendance', id: 'at1' },
      { kind: 'signature', id: 's2' },
    ]);
  });
});

describe('migration 2 (SQLite)', () => {
  it('upgrades a version-1 database and keeps its records', async () => {
    const path = oldDatabase(1, '2023-01-01T00:00:00.000Z', dirs);

    const storage = openStorage(path);
    opened.push(storage);
    expect(storage.created).toBe(false);
    // Later migrations run too: the database ends at the newest version.
    expect(storage.database.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const tables = storage.database
      .prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'trigger') ORDER BY name")
      .all()
      .map((row) => (row as { name: string }).name);
    expect(tables).toEqual(
      expect.arrayContaining([
        'record_contributions',
        'record_totals',
        'record_contributions_insert',
        'record_contributions_delete',
      ]),
    );
    expect((await storage.records.get(1, 'petition', 'p1'))?.doc).toEqual({ title: 'Old' });
    expect(await storage.records.count({ tenantId: 1, kind: 'petition' })).toBe(1);
    await storage.records.insert(write(1, 'signature', 's1', { contributions: [signs('p1')] }));
    expect((await storage.records.totalsOf(1, 'petition', ['p1'])).get('p1')).toEqual({
      total_signatures: 1,
    });
  });
});

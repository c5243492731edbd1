import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SqliteEngine } from '../src/storage/sqlite.js';
import type { Contribution, ParentRef, RecordWrite } from '../src/storage/storage.js';
import { oldDatabase } from './old-database.js';
import { storageFixture } from './storage-fixture.js';

const { engine: memory, opened, dirs } = storageFixture();

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

describe('record totals', () => {
  it('sums the contributions of every record into its parent', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'petition', 'p1'));
    expect(storage.totalsOf(t, 'petition', ['p1'])).toEqual(new Map());
    for (let i = 0; i < 5; i++) {
      storage.insertRecord(write(t, 'signature', `s${i}`, { contributions: [signs('p1')] }));
    }
    expect(storage.totalsOf(t, 'petition', ['p1'])).toEqual(
      new Map([['p1', { total_signatures: 5 }]]),
    );
  });

  it('an update replaces the contributions: the total moves by the difference', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'page', 'pg'));
    const amount = (value: number) => [
      { parent: { kind: 'page', id: 'pg' }, name: 'amount', value },
    ];
    storage.insertRecord(write(t, 'donation', 'd1', { contributions: amount(10) }));
    storage.insertRecord(write(t, 'donation', 'd2', { contributions: amount(25) }));
    expect(storage.totalsOf(t, 'page', ['pg']).get('pg')).toEqual({ amount: 35 });
    storage.updateRecord(write(t, 'donation', 'd1', { contributions: amount(12.5) }));
    expect(storage.totalsOf(t, 'page', ['pg']).get('pg')).toEqual({ amount: 37.5 });
    // An update without contributions withdraws them.
    storage.updateRecord(write(t, 'donation', 'd2'));
    expect(storage.totalsOf(t, 'page', ['pg']).get('pg')).toEqual({ amount: 12.5 });
    // The same value again leaves the total unchanged (subtract, then add).
    storage.updateRecord(write(t, 'donation', 'd1', { contributions: amount(12.5) }));
    expect(storage.totalsOf(t, 'page', ['pg']).get('pg')).toEqual({ amount: 12.5 });
  });

  it('a delete subtracts; the last contribution gone, the total is absent', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'petition', 'p1'));
    storage.insertRecord(write(t, 'signature', 'a', { contributions: [signs('p1')] }));
    storage.insertRecord(write(t, 'signature', 'b', { contributions: [signs('p1')] }));
    expect(storage.deleteRecord(t, 'signature', 'a')).toBe(true);
    expect(storage.totalsOf(t, 'petition', ['p1']).get('p1')).toEqual({ total_signatures: 1 });
    expect(storage.deleteRecord(t, 'signature', 'a')).toBe(false);
    expect(storage.totalsOf(t, 'petition', ['p1']).get('p1')).toEqual({ total_signatures: 1 });
    expect(storage.deleteRecord(t, 'signature', 'b')).toBe(true);
    expect(storage.totalsOf(t, 'petition', ['p1']).has('p1')).toBe(false);
    const left = storage.database.prepare('SELECT count(*) AS n FROM record_contributions').get();
    expect(left).toEqual({ n: 0 });
  });

  it('a total that sums to zero stays present while contributions exist', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'page', 'pg'));
    const to = (value: number) => [{ parent: { kind: 'page', id: 'pg' }, name: 'net', value }];
    storage.insertRecord(write(t, 'donation', 'plus', { contributions: to(5) }));
    storage.insertRecord(write(t, 'donation', 'minus', { contributions: to(-5) }));
    expect(storage.totalsOf(t, 'page', ['pg']).get('pg')).toEqual({ net: 0 });
  });

  it('sums fractional money exactly', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'page', 'pg'));
    const to = (value: number) => [{ parent: { kind: 'page', id: 'pg' }, name: 'amount', value }];
    let floating = 0;
    for (let i = 0; i < 10; i++) {
      storage.insertRecord(write(t, 'donation', `a${i}`, { contributions: to(0.1) }));
      storage.insertRecord(write(t, 'donation', `b${i}`, { contributions: to(0.2) }));
      floating += 0.1;
      floating += 0.2;
    }
    // Plain floating point drifts; the stored integers do not.
    expect(floating).not.toBe(3);
    expect(storage.totalsOf(t, 'page', ['pg']).get('pg')).toEqual({ amount: 3 });
    storage.insertRecord(write(t, 'donation', 'c', { contributions: to(0.0001) }));
    expect(storage.totalsOf(t, 'page', ['pg']).get('pg')?.amount).toBe(3.0001);
  });

  it('keeps several names on several parents apart; repeats in one write add up', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'event', 'e1'));
    storage.insertRecord(write(t, 'event', 'e2'));
    const ticket = (event: string, name: string, value: number): Contribution => ({
      parent: { kind: 'event', id: event },
      name,
      value,
    });
    storage.insertRecord(
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
    storage.insertRecord(
      write(t, 'ticket', 't2', { contributions: [ticket('e2', 'total_tickets', 4)] }),
    );
    expect(storage.totalsOf(t, 'event', ['e1', 'e2', 'e3'])).toEqual(
      new Map([
        ['e1', { total_tickets: 5, 'ticket_levels.VIP.total_tickets': 2, total_amount: 99.9 }],
        ['e2', { total_tickets: 5 }],
      ]),
    );
    // Another kind with the same id is another record.
    expect(storage.totalsOf(t, 'petition', ['e1']).size).toBe(0);
  });

  it('skips a contribution to a parent that does not exist', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'petition', 'p1'));
    storage.insertRecord(
      write(t, 'signature', 's1', { contributions: [signs('missing'), signs('p1')] }),
    );
    expect(storage.totalsOf(t, 'petition', ['p1', 'missing'])).toEqual(
      new Map([['p1', { total_signatures: 1 }]]),
    );
    // Created later, the parent starts at nothing: the skipped contribution was not kept.
    storage.insertRecord(write(t, 'petition', 'missing'));
    expect(storage.totalsOf(t, 'petition', ['missing']).size).toBe(0);
  });

  it('never counts another tenant’s records', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const b = storage.ensureTenant('b').id;
    storage.insertRecord(write(a, 'petition', 'p1'));
    storage.insertRecord(write(b, 'petition', 'p1'));
    storage.insertRecord(write(a, 'signature', 's1', { contributions: [signs('p1')] }));
    storage.insertRecord(write(b, 'signature', 's1', { contributions: [signs('p1', 7)] }));
    storage.insertRecord(write(b, 'signature', 's2', { contributions: [signs('p1', 7)] }));
    expect(storage.totalsOf(a, 'petition', ['p1']).get('p1')).toEqual({ total_signatures: 1 });
    expect(storage.totalsOf(b, 'petition', ['p1']).get('p1')).toEqual({ total_signatures: 14 });
    // A contribution to a parent only another tenant has is skipped.
    storage.insertRecord(write(b, 'petition', 'only-b'));
    storage.insertRecord(write(a, 'signature', 's2', { contributions: [signs('only-b')] }));
    expect(storage.totalsOf(b, 'petition', ['only-b']).size).toBe(0);
  });

  it('answers for many ids at once', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    const ids = Array.from({ length: 1200 }, (_, i) => `p${i}`);
    storage.insertRecords(ids.map((id) => write(t, 'petition', id)));
    // Every third petition gets (index % 5) + 1 signatures.
    const writes: RecordWrite[] = [];
    ids.forEach((id, i) => {
      if (i % 3 !== 0) return;
      for (let n = 0; n <= i % 5; n++) {
        writes.push(write(t, 'signature', `${id}-${n}`, { contributions: [signs(id)] }));
      }
    });
    storage.insertRecords(writes);
    const totals = storage.totalsOf(t, 'petition', ids);
    expect(totals.size).toBe(400);
    ids.forEach((id, i) => {
      expect(totals.get(id)).toEqual(i % 3 === 0 ? { total_signatures: (i % 5) + 1 } : undefined);
    });
    expect(storage.totalsOf(t, 'petition', [])).toEqual(new Map());
  });

  it('refuses an amount it cannot store exactly', () => {
    const storage = memory();
    const t = storage.ensureTenant('acme').id;
    storage.insertRecord(write(t, 'petition', 'p1'));
    expect(() =>
      storage.insertRecord(write(t, 'signature', 's1', { contributions: [signs('p1', NaN)] })),
    ).toThrow(RangeError);
    expect(() =>
      storage.insertRecord(write(t, 'signature', 's2', { contributions: [signs('p1', 1e15)] })),
    ).toThrow(RangeError);
    // All or nothing: the failed writes left neither records nor totals behind.
    expect(storage.getRecord(t, 'signature', 's1')).toBeUndefined();
    expect(storage.totalsOf(t, 'petition', ['p1']).size).toBe(0);
  });
});

describe('childrenOf', () => {
  it('lists the children of every kind, oldest first, and only the tenant’s', () => {
    const storage = memory();
    const a = storage.ensureTenant('a').id;
    const b = storage.ensureTenant('b').id;
    const person: ParentRef = { kind: 'person', id: 'x' };
    storage.insertRecord(write(a, 'person', 'x'));
    storage.insertRecord(write(b, 'person', 'x'));
    storage.insertRecord(write(a, 'signature', 's1', { parents: [person] }));
    storage.insertRecord(write(b, 'signature', 'other', { parents: [person] }));
    storage.insertRecord(write(a, 'donation', 'd1', { parents: [person, petition('none')] }));
    storage.insertRecord(write(a, 'attendance', 'at1', { parents: [person] }));
    storage.insertRecord(write(a, 'signature', 's2', { parents: [person] }));
    storage.insertRecord(write(a, 'signature', 'unrelated'));
    expect(storage.childrenOf(a, person)).toEqual([
      { kind: 'signature', id: 's1' },
      { kind: 'donation', id: 'd1' },
      { kind: 'attendance', id: 'at1' },
      { kind: 'signature', id: 's2' },
    ]);
    expect(storage.childrenOf(b, person)).toEqual([{ kind: 'signature', id: 'other' }]);
    expect(storage.childrenOf(a, { kind: 'person', id: 'nobody' })).toEqual([]);
    // An update that drops the parent drops the child; a delete does too.
    storage.updateRecord(write(a, 'donation', 'd1'));
    storage.deleteRecord(a, 'signature', 's1');
    expect(storage.childrenOf(a, person)).toEqual([
      { kind: 'attendance', id: 'at1' },
      { kind: 'signature', id: 's2' },
    ]);
  });
});

describe('migration 2', () => {
  it('upgrades a version-1 database and keeps its records', () => {
    const path = oldDatabase(1, '2023-01-01T00:00:00.000Z', dirs);

    const storage = new SqliteEngine(path);
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
    expect(storage.getRecord(1, 'petition', 'p1')?.doc).toEqual({ title: 'Old' });
    expect(storage.countRecords({ tenantId: 1, kind: 'petition' })).toBe(1);
    storage.insertRecord(write(1, 'signature', 's1', { contributions: [signs('p1')] }));
    expect(storage.totalsOf(1, 'petition', ['p1']).get('p1')).toEqual({ total_signatures: 1 });
  });
});

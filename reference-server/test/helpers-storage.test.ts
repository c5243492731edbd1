import { describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../src/domain/catalog.js';
import { RecordService } from '../src/domain/records/index.js';
import { KindRegistry, openStorage, signUpPerson } from '../src/index.js';

describe('storage for helpers', () => {
  it('tenantOfRecord finds the tenant of a record by kind and id, through an index', async () => {
    const storage = openStorage(':memory:');
    const acme = await storage.tenants.ensure('acme', 'acme');
    const other = await storage.tenants.ensure('other');
    const write = (tenantId: number, id: string) =>
      storage.records.insert({
        tenantId,
        kind: 'petition',
        id,
        doc: {},
        created_date: '2026-01-01T00:00:00.000Z',
        modified_date: '2026-01-01T00:00:00.000Z',
        identifiers: [],
      });
    await write(acme.id, 'p1');
    await write(other.id, 'p2');
    expect(await storage.records.tenantOf('petition', 'p1')).toEqual(acme);
    expect(await storage.records.tenantOf('petition', 'p2')).toEqual(other);
    expect(await storage.records.tenantOf('signature', 'p1')).toBeUndefined();
    expect(await storage.records.tenantOf('petition', 'p3')).toBeUndefined();
    const plan = storage.database
      .prepare('EXPLAIN QUERY PLAN SELECT tenant_id FROM records WHERE kind = ? AND id = ?')
      .all('petition', 'p1')
      .map((row) => (row as { detail: string }).detail)
      .join(' ');
    expect(plan).toContain('INDEX records_by_id (kind=? AND id=?)');
    await storage.close();
  });

  it('signUpPerson (library use) runs the action functions, hrefs read by their path', async () => {
    const storage = openStorage(':memory:');
    const tenant = await storage.tenants.ensure('acme');
    const registry = new KindRegistry();
    for (const kind of ALL_KINDS) registry.register(kind);
    const records = new RecordService(storage, registry);
    const tag = await records.create(tenant, registry.bySingular('tag')!, { name: 'volunteer' });
    const first = await signUpPerson(
      { storage, registry, tenant },
      {
        person: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
        add_tags_uri: [`https://elsewhere.example/api/v1/tags/${tag.id}`],
        add_lists: ['missing'],
      },
    );
    expect(first.created).toBe(true);
    expect(first.parts.map((part) => part.response_code)).toEqual([201, 400]);
    const again = await signUpPerson(
      { storage, registry, tenant },
      {
        person: { email_addresses: [{ address: 'ANA@example.org' }], family_name: 'Diaz' },
      },
    );
    expect(again).toMatchObject({ created: false, parts: [] });
    expect(again.record.id).toBe(first.record.id);
    expect(again.record.doc.family_name).toBe('Diaz');
    await storage.close();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { RecordService } from '../src/domain/records/index.js';
import { defaultRegistry } from '../src/http/app.js';
import { Urls } from '../src/http/links.js';
import { renderRecord } from '../src/http/render.js';
import { recordBytes, renderRecordJson, splitStoredDoc } from '../src/http/render-json.js';
import { seedPeople } from '../src/seed.js';
import { seedActivity } from '../src/seed-activity.js';
import { recordFromJson, storedDocJson } from '../src/storage/doc-json.js';
import { openStorage, type SqliteStorage } from '../src/storage/sqlite.js';

const opened: SqliteStorage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

async function seeded() {
  const storage = openStorage(':memory:');
  opened.push(storage);
  await seedPeople(storage, { tenant: 'demo', count: 80, seed: 3 });
  await seedActivity(storage, {
    tenant: 'demo',
    seed: 3,
    now: new Date('2026-04-15T16:00:00.000Z'),
  });
  const registry = defaultRegistry();
  const tenant = await storage.tenants.ensure('demo');
  return { storage, registry, tenant, records: new RecordService(storage, registry) };
}

describe('renderRecordJson', () => {
  it('gives exactly the text of renderRecord for every record of every kind', async () => {
    const { storage, registry, tenant, records } = await seeded();
    // A root that JSON must escape, and one that it need not.
    for (const urls of [new Urls('http://adis.test'), new Urls('http://h"\\x.test:81')]) {
      let spliced = 0;
      let splicedWithRefs = 0;
      for (const kind of registry.all()) {
        const page = () =>
          storage.records.list({
            tenantId: tenant.id,
            kind: kind.singular,
            limit: 1000,
            offset: 0,
          });
        const fresh = await page();
        const parsed = await page();
        const totals = await records.totals(
          tenant,
          kind,
          fresh.map((r) => r.id),
        );
        fresh.forEach((record, index) => {
          const other = parsed[index];
          if (!other) throw new Error('pages differ');
          const sum = totals.get(record.id);
          const stored = storedDocJson(record);
          if (stored !== undefined && !kind.view && !kind.renderTotals) {
            spliced++;
            if (stored.includes('"_refs"')) splicedWithRefs++;
          }
          for (const withCuries of [false, true]) {
            const json = renderRecordJson({
              urls,
              registry,
              kind,
              record,
              totals: sum,
              withCuries,
            });
            const expected = renderRecord({
              urls,
              registry,
              kind,
              record: other,
              totals: sum,
              withCuries,
            });
            expect(recordBytes(json).toString()).toBe(JSON.stringify(expected));
            expect(json.href).toBe(urls.record(kind.plural, record.id));
          }
        });
      }
      // The comparison covered the splice, not only the fallback.
      expect(spliced).toBeGreaterThan(100);
      expect(splicedWithRefs).toBeGreaterThan(50);
    }
  });

  it('renders a document changed after it was read, not the stored text', async () => {
    const { storage, registry, tenant } = await seeded();
    const person = registry.bySingular('person');
    if (!person) throw new Error('no person kind');
    const [record] = await storage.records.list({ tenantId: tenant.id, kind: 'person', limit: 1 });
    if (!record) throw new Error('no person');
    record.doc.given_name = 'Changed';
    const json = renderRecordJson({
      urls: new Urls('http://h'),
      registry,
      kind: person,
      record,
      totals: undefined,
      withCuries: true,
    });
    expect(JSON.parse(recordBytes(json).toString()).given_name).toBe('Changed');
    const copy = { ...record, doc: { ...record.doc, family_name: 'Copied' } };
    const copied = renderRecordJson({
      urls: new Urls('http://h'),
      registry,
      kind: person,
      record: copy,
      totals: undefined,
      withCuries: true,
    });
    expect(JSON.parse(recordBytes(copied).toString()).family_name).toBe('Copied');
  });
});

describe('stored documents as JSON', () => {
  const fields = { seq: 1, kind: 'person', id: 'p1', created_date: 'c', modified_date: 'm' };
  const bytes = (text: string) => Buffer.from(text);
  const split = (text: string) => {
    const cut = splitStoredDoc(bytes(text));
    return cut && { body: cut.body.toString(), refs: cut.refs };
  };

  it('keeps the JSON until the document is read or replaced', () => {
    const read = recordFromJson(fields, bytes('{"a":"é"}'));
    expect(storedDocJson(read)?.toString()).toBe('{"a":"é"}');
    expect(read.doc).toEqual({ a: 'é' });
    expect(storedDocJson(read)).toBeUndefined();
    const replaced = recordFromJson(fields, bytes('{"a":1}'));
    replaced.doc = { a: 2 };
    expect(storedDocJson(replaced)).toBeUndefined();
    expect(replaced.doc).toEqual({ a: 2 });
  });

  it('copies the parsed document, never the JSON, into a spread copy', () => {
    const record = recordFromJson(fields, bytes('{"a":1}'));
    const copy = { ...record };
    expect(Object.keys(copy)).toEqual([
      'seq',
      'kind',
      'id',
      'doc',
      'created_date',
      'modified_date',
    ]);
    expect(copy.doc).toEqual({ a: 1 });
    expect(storedDocJson(copy)).toBeUndefined();
  });

  it('cuts _refs only where renderRecord drops it', () => {
    const refs = '{"person":{"kind":"person","id":"p1"}}';
    expect(split(`{"a":"ü","_refs":${refs}}`)).toEqual({
      body: '{"a":"ü"',
      refs: { person: { kind: 'person', id: 'p1' } },
    });
    expect(split('{"a":1}')).toEqual({ body: '{"a":1', refs: {} });
    // Not the last member, first member, nested only, or a _links member: not cut.
    expect(split(`{"a":1,"_refs":${refs},"b":2}`)).toBeUndefined();
    expect(split(`{"_refs":${refs}}`)).toBeUndefined();
    expect(split(`{"a":{"x":1,"_refs":${refs}}}`)).toBeUndefined();
    expect(split('{"a":1,"_links":{}}')).toBeUndefined();
    // Inside a string, quotes are escaped: `,"_refs":` there is no member name.
    expect(split('{"a":",\\"_refs\\":{}"}')?.body).toBe('{"a":",\\"_refs\\":{}"');
    // A value "_refs" is no member either; as the last one it is not cut.
    expect(split('{"a":"_refs"}')).toBeUndefined();
    expect(split('{"a":"x_links"}')?.body).toBe('{"a":"x_links"');
  });
});

/**
 * What the Action Network preset changes about records and their answers: the self link
 * of a record that lives under a parent at its nested address (and the `Location` of
 * its create, a helper's answer, the links of pages, the short answer), native ids of
 * what a record links to, lists and items read only, a `next` link on every page with
 * records of a collection without totals, DELETE answered with a notice; and the plain
 * server keeping the specification's answers to the same requests.
 */
import { describe, expect, it } from 'vitest';
import { RecordService } from '../src/domain/records/index.js';
import { defaultRegistry } from '../src/http/app.js';
import { backgroundIdle } from '../src/http/background.js';
import { Urls } from '../src/http/links.js';
import { renderRecord } from '../src/http/render.js';
import { recordBytes, renderRecordJson } from '../src/http/render-json.js';
import { deleteNoticeOf } from '../src/http/routes/deleted.js';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { withNativeIds } from '../src/presets/native-ids.js';
import { recordHomes } from '../src/presets/record-homes.js';
import { SPECIFICATION_PRESET } from '../src/presets/specification.js';
import { seedPeople } from '../src/seed.js';
import { seedActivity } from '../src/seed-activity.js';
import { type Harness, harness, type Json, presetHarness } from './helpers.js';

const AN = '/api/v2';
const PLAIN = '/api/v1';

function an(): Harness {
  return presetHarness(ACTION_NETWORK_PRESET, { anonymousRateLimit: false });
}

function plain(): Harness {
  return harness({ anonymousRateLimit: false });
}

/** The path of an absolute href. */
function pathOf(href: string): string {
  return new URL(href).pathname;
}

/** The id at the end of a record's self href. */
function idOf(doc: Json): string {
  return pathOf(doc._links.self.href).split('/').pop() as string;
}

async function created(h: Harness, path: string, body: Json): Promise<Json> {
  const res = await h.json('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A person of the tenant, created at the prefix's people collection. */
async function newPerson(h: Harness, prefix: string, email: string): Promise<Json> {
  const body =
    prefix === AN
      ? { person: { given_name: 'Rosa', email_addresses: [{ address: email }] } }
      : { given_name: 'Rosa', email_addresses: [{ address: email }] };
  return created(h, `${prefix}/people`, body);
}

/** The tenant of the harness keys with demo people and activity (lists and items among it). */
async function seedTenant(
  h: Harness,
  registry = defaultRegistry(ACTION_NETWORK_PRESET),
): Promise<void> {
  await seedPeople(h.storage, { tenant: 'acme', count: 12, seed: 5 });
  await seedActivity(h.storage, { tenant: 'acme', seed: 5, people: 12, registry });
}

/** Waits until the background work accepted so far has run and committed. */
function settle(h: Harness): Promise<void> {
  return backgroundIdle(h.storage);
}

describe('self links at the nested address (action-network preset)', () => {
  it('gives a signature its petition address in self, Location, pages and the short answer', async () => {
    const h = an();
    const p = await newPerson(h, AN, 'ines@example.org');
    const petition = await created(h, `${AN}/petitions`, { title: 'Save the orchard' });
    const parent = pathOf(petition._links.self.href);
    const res = await h.json('POST', `${parent}/signatures`, {
      body: { comments: 'yes', _links: { 'osdi:person': { href: p._links.self.href } } },
    });
    expect(res.status).toBe(201);
    const own = `${parent}/signatures/${idOf(res.body)}`;
    expect(pathOf(res.body._links.self.href)).toBe(own);
    expect(pathOf(res.res.headers.get('Location') ?? '')).toBe(own);
    // The flat address serves it too, with the same self link.
    const flat = await h.json('GET', `${AN}/signatures/${idOf(res.body)}`);
    expect(pathOf(flat.body._links.self.href)).toBe(own);

    // Pages list it at its own address, under the petition and under the person alike.
    for (const page of [
      `${parent}/signatures`,
      `${pathOf(p._links.self.href)}/signatures`,
      `${AN}/signatures`,
    ]) {
      const body = (await h.json('GET', page)).body;
      expect(body._links['osdi:signatures'].map((l: Json) => pathOf(l.href))).toEqual([own]);
      expect(pathOf(body._embedded['osdi:signatures'][0]._links.self.href)).toBe(own);
    }

    const short = await h.json('PUT', own, {
      body: { comments: 'sure', 'osdi:control': { return_response: false } },
    });
    expect(short.status).toBe(200);
    expect(pathOf(short.body._links.self.href)).toBe(own);
    expect(Object.keys(short.body).sort()).toEqual(['_links', 'identifiers']);
  });

  it("answers a record helper's call with the new record at its nested address", async () => {
    const h = an();
    const event = await created(h, `${AN}/events`, { title: 'Seed swap' });
    const attendances = `${pathOf(event._links.self.href)}/attendances`;
    const res = await h.json('POST', attendances, {
      body: { person: { given_name: 'Sam', email_addresses: [{ address: 'sam@example.org' }] } },
    });
    expect(res.status).toBe(201);
    const own = `${attendances}/${idOf(res.body)}`;
    expect(pathOf(res.body._links.self.href)).toBe(own);
    expect(pathOf(res.res.headers.get('Location') ?? '')).toBe(own);
    const short = await h.json('POST', attendances, {
      body: {
        person: { given_name: 'Lu', email_addresses: [{ address: 'lu@example.org' }] },
        'osdi:control': { return_response: false },
      },
    });
    expect(short.status).toBe(201);
    expect(pathOf(short.body._links.self.href)).toBe(`${attendances}/${idOf(short.body)}`);
  });

  it('takes back a record as it was read, self link at its nested address included', async () => {
    const h = an();
    const p = await newPerson(h, AN, 'tomas@example.org');
    const tag = await created(h, `${AN}/tags`, { name: 'Gardener' });
    const tagging = await created(h, `${pathOf(tag._links.self.href)}/taggings`, {
      _links: { 'osdi:person': { href: p._links.self.href } },
    });
    const self = tagging._links.self.href;
    const put = await h.json('PUT', self, { body: { ...tagging, identifiers: ['crm:t-1'] } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body._links.self.href).toBe(self);
    expect(put.body.identifiers).toContain('crm:t-1');
  });

  it('renders every seeded record as renderRecord does, the nested kinds at their parents', async () => {
    const h = an();
    const registry = defaultRegistry(ACTION_NETWORK_PRESET);
    await seedTenant(h, registry);
    const tenant = await h.storage.tenants.ensure('acme');
    const records = new RecordService(h.storage, registry);
    const homes = recordHomes(ACTION_NETWORK_PRESET, registry);
    const urls = new Urls('http://an.test', 'osdi', AN, ['action_network'], {}, homes);
    let nested = 0;
    for (const kind of registry.all()) {
      const list = await h.storage.records.list({
        tenantId: tenant.id,
        kind: kind.singular,
        limit: 1000,
        offset: 0,
      });
      const totals = await records.totals(
        tenant,
        kind,
        list.map((r) => r.id),
      );
      for (const record of list) {
        const what = { urls, registry, kind, record, totals: totals.get(record.id) };
        const json = recordBytes(renderRecordJson({ ...what, withCuries: true })).toString();
        expect(json).toBe(JSON.stringify(renderRecord({ ...what, withCuries: true })));
        const home = homes[kind.plural];
        if (home) {
          nested++;
          const self = pathOf((JSON.parse(json) as Json)._links.self.href);
          expect(self).toMatch(new RegExp(`^${AN}/${home.parent}/[^/]+/${home.sub}/${record.id}$`));
        }
      }
    }
    expect(nested).toBeGreaterThan(50);
  });

  it('finds the home of each kind the preset names, and refuses a parent without the kind', () => {
    const registry = defaultRegistry(ACTION_NETWORK_PRESET);
    expect(recordHomes(ACTION_NETWORK_PRESET, registry)).toMatchObject({
      signatures: { parent: 'petitions', sub: 'signatures', via: 'petition' },
      taggings: { parent: 'tags', sub: 'taggings', via: 'tag' },
      items: { parent: 'lists', sub: 'items', via: 'list' },
    });
    expect(recordHomes(SPECIFICATION_PRESET, defaultRegistry())).toEqual({});
    const wrong = { ...ACTION_NETWORK_PRESET, recordsUnderParents: { signature: 'tag' } };
    expect(() => recordHomes(wrong, registry)).toThrow(/tags has no sub-collection of signatures/);
  });
});

describe('native ids (action-network preset)', () => {
  it('stores the ids of the person and the petition, on pages as on the record', async () => {
    const h = an();
    const p = await newPerson(h, AN, 'mina@example.org');
    const petition = await created(h, `${AN}/petitions`, { title: 'Quiet room' });
    const parent = pathOf(petition._links.self.href);
    const signature = await created(h, `${parent}/signatures`, {
      'action_network:person_id': 'made-up',
      _links: { 'osdi:person': { href: p._links.self.href } },
    });
    const ids = {
      'action_network:person_id': idOf(p),
      'action_network:petition_id': idOf(petition),
    };
    expect(signature).toMatchObject(ids);
    const page = (await h.json('GET', `${AN}/signatures`)).body;
    expect(page._embedded['osdi:signatures'][0]).toMatchObject(ids);
    // A person's own document carries no native id of itself.
    expect((await h.json('GET', p._links.self.href)).body).not.toHaveProperty(
      'action_network:person_id',
    );
  });

  it('follows the links: moving a signature to another person changes its person id', async () => {
    const h = an();
    const first = await newPerson(h, AN, 'a@example.org');
    const second = await newPerson(h, AN, 'b@example.org');
    const petition = await created(h, `${AN}/petitions`, { title: 'Longer hours' });
    const signature = await created(h, `${pathOf(petition._links.self.href)}/signatures`, {
      _links: { 'osdi:person': { href: first._links.self.href } },
    });
    const moved = await h.json('PUT', signature._links.self.href, {
      body: { _links: { 'osdi:person': { href: second._links.self.href } } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body['action_network:person_id']).toBe(idOf(second));
  });

  it('derives each member from the reference, and drops one whose reference is gone', () => {
    const registry = defaultRegistry();
    const tagging = registry.bySingular('tagging');
    if (!tagging) throw new Error('no tagging kind');
    const served = withNativeIds(tagging, ACTION_NETWORK_PRESET);
    expect(served.readOnly).toEqual(
      expect.arrayContaining(['action_network:person_id', 'action_network:tag_id']),
    );
    expect(
      served.derive?.(
        { 'action_network:person_id': 'old' },
        { tag: { kind: 'tag', id: 't1' }, organization: { kind: 'organization', id: 'o1' } },
      ),
    ).toEqual({ item_type: 'organization', 'action_network:tag_id': 't1' });
    expect(withNativeIds(tagging, SPECIFICATION_PRESET)).toBe(tagging);
  });

  it('stays off the plain server', async () => {
    const h = plain();
    const p = await newPerson(h, PLAIN, 'ana@example.org');
    const petition = await created(h, `${PLAIN}/petitions`, { title: 'Plain' });
    const signature = await created(h, `${pathOf(petition._links.self.href)}/signatures`, {
      _links: { 'std:person': { href: p._links.self.href } },
    });
    expect(Object.keys(signature).filter((key) => key.includes(':'))).toEqual([]);
  });
});

describe('lists and items read only (action-network preset)', () => {
  it('refuses writes to lists and items with 405, serves the seeded ones, items without totals', async () => {
    const h = an();
    await seedTenant(h);
    const lists = (await h.json('GET', `${AN}/lists`)).body._embedded['osdi:lists'];
    expect(lists.length).toBeGreaterThan(0);
    const list = pathOf(lists[0]._links.self.href);
    const post = await h.json('POST', `${AN}/lists`, { body: { name: 'New list' } });
    expect(post.status).toBe(405);
    expect(post.res.headers.get('Allow')).toBe('GET');
    expect(post.body['osdi:error']).toBeDefined();
    expect((await h.json('DELETE', list)).status).toBe(405);
    expect((await h.json('PUT', list, { body: { name: 'Renamed' } })).status).toBe(405);
    const items = await h.json('GET', `${list}/items`);
    expect(items.body).not.toHaveProperty('total_records');
    expect(items.body).not.toHaveProperty('total_pages');
    const item = items.body._embedded['osdi:items'][0];
    expect(pathOf(item._links.self.href)).toBe(`${list}/items/${idOf(item)}`);
    expect((await h.json('POST', `${list}/items`, { body: {} })).status).toBe(405);
    for (const path of [pathOf(item._links.self.href), `${AN}/items/${idOf(item)}`]) {
      expect((await h.json('PUT', path, { body: { identifiers: ['x:1'] } })).status).toBe(405);
      expect((await h.json('DELETE', path)).status).toBe(405);
    }
    expect((await h.json('GET', `${AN}/lists`)).body.total_records).toBe(lists.length);
  });

  it('lets the plain server write lists and items, with totals', async () => {
    const h = plain();
    const list = await created(h, `${PLAIN}/lists`, { name: 'Phone bank' });
    const p = await newPerson(h, PLAIN, 'abel@example.org');
    await created(h, `${pathOf(list._links.self.href)}/items`, {
      _links: { 'std:person': { href: p._links.self.href } },
    });
    const items = await h.json('GET', `${pathOf(list._links.self.href)}/items`);
    expect(items.body).toMatchObject({ total_records: 1, total_pages: 1 });
  });
});

describe('next links of collections without totals (action-network preset)', () => {
  it('links a next page from every page with records, the last one included', async () => {
    const h = an();
    for (const name of ['a', 'b', 'c']) await newPerson(h, AN, `${name}@example.org`);
    const whole = (await h.json('GET', `${AN}/people?per_page=3`)).body;
    expect(whole._embedded['osdi:people']).toHaveLength(3);
    const after = (await h.json('GET', whole._links.next.href)).body;
    expect(after._embedded['osdi:people']).toEqual([]);
    expect(after._links['osdi:people']).toEqual([]);
    expect(after._links.next).toBeUndefined();
    expect(after._links.previous).toBeDefined();

    const first = (await h.json('GET', `${AN}/people?per_page=2`)).body;
    const last = (await h.json('GET', first._links.next.href)).body;
    expect(last._embedded['osdi:people']).toHaveLength(1);
    expect(last._links.next.href).toMatch(/[?&]page=3\b/);
    expect((await h.json('GET', last._links.next.href)).body._links.next).toBeUndefined();
  });

  it('keeps collections with totals, and the plain server, without next on the last page', async () => {
    const h = an();
    await created(h, `${AN}/tags`, { name: 'one' });
    expect((await h.json('GET', `${AN}/tags`)).body._links.next).toBeUndefined();
    const p = plain();
    await newPerson(p, PLAIN, 'ana@example.org');
    const page = (await p.json('GET', `${PLAIN}/people`)).body;
    expect(page._embedded['std:people']).toHaveLength(1);
    expect(page._links.next).toBeUndefined();
  });
});

describe('DELETE answers (action-network preset)', () => {
  it('answers 200 with a notice naming the kind in words', async () => {
    const h = an();
    const tag = await created(h, `${AN}/tags`, { name: 'Gone soon' });
    const removed = await h.json('DELETE', tag._links.self.href);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ notice: 'This tag was successfully deleted.' });
    const page = await created(h, `${AN}/fundraising_pages`, { title: 'Fund' });
    expect((await h.json('DELETE', page._links.self.href)).body).toEqual({
      notice: 'This fundraising page was successfully deleted.',
    });
  });

  it("answers 200 {} in the background (a tagging's, as docs/v2/ lists), the notice at once elsewhere", async () => {
    const h = an();
    const p = await newPerson(h, AN, 'ines@example.org');
    const tag = await created(h, `${AN}/tags`, { name: 'Later' });
    const tagging = await created(h, `${pathOf(tag._links.self.href)}/taggings`, {
      _links: { 'osdi:person': { href: p._links.self.href } },
    });
    const accepted = await h.json('DELETE', `${tagging._links.self.href}?background_request=true`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    await settle(h);
    expect((await h.json('GET', tagging._links.self.href)).status).toBe(404);
    // A tag's DELETE is not in the list: done at once, with its notice.
    const removed = await h.json('DELETE', `${tag._links.self.href}?background_request=true`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ notice: 'This tag was successfully deleted.' });
  });

  it('keeps 204 without a body on the plain server', async () => {
    const h = plain();
    const tag = await created(h, `${PLAIN}/tags`, { name: 'Plain' });
    const removed = await h.call('DELETE', tag._links.self.href);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    const registry = defaultRegistry();
    const tagKind = registry.bySingular('tag');
    if (!tagKind) throw new Error('no tag kind');
    expect(deleteNoticeOf(SPECIFICATION_PRESET.deleteNotice, tagKind)).toBeUndefined();
  });
});

describe('the plain server keeps flat self links', () => {
  it('answers a signature at signatures/{id}, Location included', async () => {
    const h = plain();
    const p = await newPerson(h, PLAIN, 'ana@example.org');
    const petition = await created(h, `${PLAIN}/petitions`, { title: 'Plain' });
    const res = await h.json('POST', `${pathOf(petition._links.self.href)}/signatures`, {
      body: { _links: { 'std:person': { href: p._links.self.href } } },
    });
    const own = `${PLAIN}/signatures/${idOf(res.body)}`;
    expect(pathOf(res.body._links.self.href)).toBe(own);
    expect(pathOf(res.res.headers.get('Location') ?? '')).toBe(own);
  });
});

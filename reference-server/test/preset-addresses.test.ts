/**
 * The Action Network preset's addresses and writes: records at their nested addresses,
 * POST to the people collection as the signup upsert, record helpers at their
 * sub-collections, `background_request` on the writes Action Network lists, people pages
 * without totals; and the plain server keeping the specification's answers to the same
 * requests.
 */
import { describe, expect, it } from 'vitest';
import { backgroundIdle } from '../src/http/background.js';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { type Harness, harness, type Json, OTHER, presetHarness } from './helpers.js';

const AN = '/api/v2';

function an(): Harness {
  return presetHarness(ACTION_NETWORK_PRESET, { anonymousRateLimit: false });
}

/** The error descriptions of a `std:error` body, as the preset names it (`osdi:error`). */
function errorOf(body: Json): Json[] {
  return body['osdi:error'].resource_status[0].error_descriptions;
}

/** Checks that an update's members are in `doc` (identifiers sent are added to its own). */
function expectChanged(doc: Json, change: Json): void {
  for (const [member, value] of Object.entries(change)) {
    if (member === 'identifiers')
      expect(doc.identifiers).toEqual(expect.arrayContaining(value as unknown[]));
    else expect(doc[member]).toEqual(value);
  }
}

/** The path of an absolute href. */
function pathOf(href: string): string {
  return new URL(href).pathname;
}

/** The id at the end of a record's self href. */
function idOf(doc: Json): string {
  return pathOf(doc._links.self.href).split('/').pop() as string;
}

/** A person of the tenant, through the people collection (the preset's upsert). */
async function person(h: Harness, email: string): Promise<Json> {
  const res = await h.json('POST', `${AN}/people`, {
    body: { person: { given_name: 'Rosa', email_addresses: [{ address: email }] } },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function created(h: Harness, path: string, body: Json): Promise<Json> {
  const res = await h.json('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Waits until the background work accepted so far has run and committed. */
function settle(h: Harness): Promise<void> {
  return backgroundIdle(h.storage);
}

const personLink = (doc: Json) => ({ 'osdi:person': { href: doc._links.self.href } });

/**
 * One record under each of its parents, for every sub-collection below: the parent's
 * path, the path of the parent its own address is under (its home: a signature's
 * petition, also when it is read under its person), the member a PUT changes, and its
 * kind in words (the DELETE notice names it).
 */
interface NestedCase {
  name: string;
  make(h: Harness): Promise<{ parent: string; home: string; record: Json; change: Json }>;
  words: string;
}

const CASES: NestedCase[] = [
  {
    name: 'petitions/{p}/signatures/{id}',
    async make(h) {
      const p = await person(h, 'ines@example.org');
      const petition = await created(h, `${AN}/petitions`, { title: 'Save the orchard' });
      const parent = pathOf(petition._links.self.href);
      const record = await created(h, `${parent}/signatures`, {
        comments: 'yes',
        _links: personLink(p),
      });
      return { parent, home: parent, record, change: { comments: 'absolutely' } };
    },
    words: 'signature',
  },
  {
    name: 'people/{p}/signatures/{id}',
    async make(h) {
      const p = await person(h, 'oskar@example.org');
      const petition = await created(h, `${AN}/petitions`, { title: 'Light the towpath' });
      const home = pathOf(petition._links.self.href);
      const record = await created(h, `${home}/signatures`, { _links: personLink(p) });
      return { parent: pathOf(p._links.self.href), home, record, change: { comments: 'lit' } };
    },
    words: 'signature',
  },
  {
    name: 'tags/{t}/taggings/{id}',
    async make(h) {
      const p = await person(h, 'tomas@example.org');
      const tag = await created(h, `${AN}/tags`, { name: 'Gardener' });
      const parent = pathOf(tag._links.self.href);
      const record = await created(h, `${parent}/taggings`, { _links: personLink(p) });
      return { parent, home: parent, record, change: { identifiers: ['crm:tagging-1'] } };
    },
    words: 'tagging',
  },
  {
    name: 'events/{e}/attendances/{id}',
    async make(h) {
      const p = await person(h, 'wanda@example.org');
      const event = await created(h, `${AN}/events`, { title: 'Seed swap' });
      const parent = pathOf(event._links.self.href);
      const record = await created(h, `${parent}/attendances`, {
        status: 'accepted',
        _links: personLink(p),
      });
      return { parent, home: parent, record, change: { status: 'declined' } };
    },
    words: 'attendance',
  },
  {
    name: 'forms/{f}/submissions/{id}',
    async make(h) {
      const p = await person(h, 'yusuf@example.org');
      const form = await created(h, `${AN}/forms`, { title: 'Volunteer sign-up' });
      const parent = pathOf(form._links.self.href);
      const record = await created(h, `${parent}/submissions`, { _links: personLink(p) });
      return { parent, home: parent, record, change: { identifiers: ['crm:submission-1'] } };
    },
    words: 'submission',
  },
  {
    name: 'advocacy_campaigns/{a}/outreaches/{id}',
    async make(h) {
      const p = await person(h, 'zora@example.org');
      const campaign = await created(h, `${AN}/advocacy_campaigns`, { title: 'Call the council' });
      const parent = pathOf(campaign._links.self.href);
      const record = await created(h, `${parent}/outreaches`, {
        type: 'phone',
        _links: personLink(p),
      });
      return { parent, home: parent, record, change: { duration: 90 } };
    },
    words: 'outreach',
  },
  {
    name: 'fundraising_pages/{f}/donations/{id}',
    async make(h) {
      const p = await person(h, 'bruna@example.org');
      const page = await created(h, `${AN}/fundraising_pages`, { title: 'Orchard fund' });
      const parent = pathOf(page._links.self.href);
      const record = await created(h, `${parent}/donations`, {
        amount: '12.50',
        recipients: [{ display_name: 'Orchard fund', amount: '12.50' }],
        _links: personLink(p),
      });
      return { parent, home: parent, record, change: { identifiers: ['crm:donation-1'] } };
    },
    words: 'donation',
  },
];

describe('nested record addresses (action-network preset)', () => {
  for (const nestedCase of CASES) {
    it(`serves ${nestedCase.name}: GET, PUT and DELETE, its self link under its own parent`, async () => {
      const h = an();
      const { parent, home, record, change } = await nestedCase.make(h);
      const own = pathOf(record._links.self.href);
      const sub = own.split('/').at(-2);
      const id = idOf(record);
      // Its own address is the nested one under its home parent, as Action Network
      // documents it; the flat address and the other parent's keep answering.
      expect(own).toBe(`${home}/${sub}/${id}`);
      const flat = `${AN}/${sub}/${id}`;
      const nested = `${parent}/${sub}/${id}`;

      const read = await h.json('GET', nested);
      expect(read.status).toBe(200);
      expect(read.body).toEqual((await h.json('GET', flat)).body);
      expect(read.body).toEqual((await h.json('GET', own)).body);
      expect(pathOf(read.body._links.self.href)).toBe(own);

      const put = await h.json('PUT', nested, { body: change });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(pathOf(put.body._links.self.href)).toBe(own);
      expectChanged((await h.json('GET', flat)).body, change);

      const removed = await h.json('DELETE', nested);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({
        notice: `This ${nestedCase.words} was successfully deleted.`,
      });
      expect((await h.json('GET', flat)).status).toBe(404);
      expect((await h.json('GET', nested)).status).toBe(404);
    });
  }

  it('takes PATCH at a nested address, and answers 405 to other methods', async () => {
    const h = an();
    const { parent, record } = await CASES[0]!.make(h);
    const nested = `${parent}/signatures/${idOf(record)}`;
    const patched = await h.json('PATCH', nested, { body: { comments: 'patched' } });
    expect(patched.status).toBe(200);
    expect(patched.body.comments).toBe('patched');
    const post = await h.json('POST', nested, { body: {} });
    expect(post.status).toBe(405);
    expect(post.res.headers.get('Allow')).toBe('GET, PUT, PATCH, DELETE');
  });

  it('answers 404 when the record belongs to another parent, or is not of the sub-collection', async () => {
    const h = an();
    const { record } = await CASES[0]!.make(h);
    const other = await created(h, `${AN}/petitions`, { title: 'Another petition' });
    const otherPath = pathOf(other._links.self.href);
    const id = idOf(record);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const wrongParent = await h.json(method, `${otherPath}/signatures/${id}`, {
        ...(method === 'PUT' ? { body: { comments: 'moved?' } } : {}),
      });
      expect(wrongParent.status).toBe(404);
      expect(errorOf(wrongParent.body)[0]?.error_code).toBe('NOT_FOUND');
    }
    expect((await h.json('GET', `${otherPath}/taggings/${id}`)).status).toBe(404);
    expect((await h.json('GET', `${otherPath}/comments/${id}`)).status).toBe(404);
    expect((await h.json('GET', `${AN}/petitions/no-such/signatures/${id}`)).status).toBe(404);
    expect((await h.json('GET', `${AN}/unknown/x/signatures/${id}`)).status).toBe(404);
    // Nothing changed by the refused calls.
    expect((await h.json('GET', record._links.self.href)).body.comments).toBe('yes');
  });

  it("keeps another tenant's records 404 at flat and nested addresses", async () => {
    const h = an();
    const { parent, record } = await CASES[0]!.make(h);
    const flat = pathOf(record._links.self.href);
    const nested = `${parent}/signatures/${idOf(record)}`;
    for (const path of [flat, nested, parent]) {
      expect((await h.json('GET', path, { key: OTHER })).status).toBe(404);
      const put = await h.json('PUT', path, { key: OTHER, body: { comments: 'mine now' } });
      expect(put.status).toBe(404);
      expect((await h.call('DELETE', path, { key: OTHER })).status).toBe(404);
    }
    expect((await h.json('GET', flat)).body.comments).toBe('yes');
  });
});

describe('POST to the people collection is the signup upsert (action-network preset)', () => {
  it('creates (201) then updates the person with the same email (200), adding tags', async () => {
    const h = an();
    await created(h, `${AN}/tags`, { name: 'Volunteer' });
    const first = await h.json('POST', `${AN}/people`, {
      body: {
        person: { given_name: 'Lena', email_addresses: [{ address: 'lena@example.org' }] },
        add_tags: ['Volunteer'],
      },
    });
    expect(first.status).toBe(201);
    expect(first.res.headers.get('Location')).toBe(first.body._links.self.href);
    const again = await h.json('POST', `${AN}/people`, {
      body: {
        person: {
          family_name: 'Okafor',
          email_addresses: [{ address: 'LENA@example.org' }],
        },
      },
    });
    expect(again.status).toBe(200);
    expect(again.body._links.self.href).toBe(first.body._links.self.href);
    expect(again.body).toMatchObject({ given_name: 'Lena', family_name: 'Okafor' });
    const taggings = await h.json('GET', `${pathOf(first.body._links.self.href)}/taggings`);
    expect(taggings.body._embedded['osdi:taggings']).toHaveLength(1);
    expect((await h.json('GET', `${AN}/people`)).body._embedded['osdi:people']).toHaveLength(1);
  });

  it('takes a bare person body as the upsert of that person', async () => {
    const h = an();
    const bare = { given_name: 'Noor', email_addresses: [{ address: 'noor@example.org' }] };
    const first = await h.json('POST', `${AN}/people`, { body: bare });
    expect(first.status).toBe(201);
    expect(first.body.given_name).toBe('Noor');
    const again = await h.json('POST', `${AN}/people`, { body: { ...bare, given_name: 'Nour' } });
    expect(again.status).toBe(200);
    expect(again.body.given_name).toBe('Nour');
  });

  it('refuses a body that is no signup (400) and keeps GET on the collection', async () => {
    const h = an();
    const bad = await h.json('POST', `${AN}/people`, { body: { person: 'Ana' } });
    expect(bad.status).toBe(400);
    const list = await h.json('GET', `${AN}/people`);
    expect(list.status).toBe(200);
    expect((await h.json('DELETE', `${AN}/people`)).status).toBe(405);
  });

  it('links the signup helper from the entry point at the people collection', async () => {
    const h = an();
    const entry = await h.json('GET', `${AN}/`);
    expect(pathOf(entry.body._links['osdi:person_signup_helper'].href)).toBe(`${AN}/people`);
  });
});

describe('record helpers at their sub-collections (action-network preset)', () => {
  it('links the record signature helper to the signatures collection', async () => {
    const h = an();
    const petition = await created(h, `${AN}/petitions`, { title: 'Open the library' });
    const links = petition._links;
    expect(links['osdi:record_signature_helper'].href).toBe(links['osdi:signatures'].href);
    expect(
      (await h.json('POST', `${pathOf(links.self.href)}/record_signature_helper`, { body: {} }))
        .status,
    ).toBe(404);
  });

  it('links every record helper to its sub-collection, and answers it there', async () => {
    const h = an();
    const helpers = [
      ['events', { title: 'Picnic' }, 'record_attendance_helper', 'attendances'],
      ['forms', { title: 'Survey' }, 'record_submission_helper', 'submissions'],
      ['fundraising_pages', { title: 'Fund' }, 'record_donation_helper', 'donations'],
      ['advocacy_campaigns', { title: 'Write in' }, 'record_outreach_helper', 'outreaches'],
    ] as const;
    for (const [plural, body, rel, sub] of helpers) {
      const parent = await created(h, `${AN}/${plural}`, body);
      const href = parent._links[`osdi:${rel}`].href;
      expect(href).toBe(parent._links[`osdi:${sub}`].href);
      const call = await h.json('POST', href, {
        body: {
          person: { given_name: 'Sam', email_addresses: [{ address: 'sam@example.org' }] },
          ...(sub === 'donations'
            ? { amount: '5.00', recipients: [{ display_name: 'Fund', amount: '5.00' }] }
            : {}),
        },
      });
      expect(call.status, `${rel}: ${JSON.stringify(call.body)}`).toBe(201);
      const own = pathOf(call.body._links.self.href);
      expect(own).toBe(`${pathOf(parent._links.self.href)}/${sub}/${idOf(call.body)}`);
      expect(pathOf(call.res.headers.get('Location') ?? '')).toBe(own);
    }
  });

  it('takes a body with person as the helper call, one without as a create', async () => {
    const h = an();
    const petition = await created(h, `${AN}/petitions`, { title: 'Open the library' });
    const signatures = pathOf(petition._links['osdi:record_signature_helper'].href);
    const helped = await h.json('POST', signatures, {
      body: {
        person: { given_name: 'Ada', email_addresses: [{ address: 'ada@example.org' }] },
        comments: 'Long overdue',
      },
    });
    expect(helped.status).toBe(201);
    expect(helped.body.comments).toBe('Long overdue');
    const ada = helped.body._links['osdi:person'].href;
    expect((await h.json('GET', ada)).body.given_name).toBe('Ada');

    const other = await person(h, 'grace@example.org');
    const plain = await h.json('POST', signatures, {
      body: { comments: 'Count me in', _links: personLink(other) },
    });
    expect(plain.status).toBe(201);
    expect(plain.body._links['osdi:person'].href).toBe(other._links.self.href);
    expect(pathOf(plain.body._links['osdi:petition'].href)).toBe(pathOf(petition._links.self.href));
    expect((await h.json('GET', petition._links.self.href)).body.total_signatures).toBe(2);
    expect((await h.json('GET', signatures)).status).toBe(200);
  });

  it('lets a caller without a key call the helper there, but not create', async () => {
    const h = an();
    const petition = await created(h, `${AN}/petitions`, { title: 'Plant trees' });
    const signatures = `${pathOf(petition._links.self.href)}/signatures`;
    const helped = await h.json('POST', signatures, {
      key: null,
      body: { person: { given_name: 'Kim', email_addresses: [{ address: 'kim@example.org' }] } },
    });
    expect(helped.status).toBe(200);
    expect(helped.body).toEqual({});
    const p = await person(h, 'lee@example.org');
    const create = await h.json('POST', signatures, { key: null, body: { _links: personLink(p) } });
    expect(create.status).toBe(401);
    expect(errorOf(create.body)[0]?.error_code).toBe('UNAUTHORIZED');
    expect((await h.json('GET', signatures, { key: null })).status).toBe(401);
    expect((await h.json('GET', petition._links.self.href)).body.total_signatures).toBe(1);
  });

  it('answers a repeated keyless helper call with its first answer (Idempotency-Key)', async () => {
    const h = an();
    const petition = await created(h, `${AN}/petitions`, { title: 'Fix the bridge' });
    const signatures = `${pathOf(petition._links.self.href)}/signatures`;
    const send = () =>
      h.json('POST', signatures, {
        key: null,
        headers: { 'Idempotency-Key': 'sig-1' },
        body: { person: { given_name: 'Mo', email_addresses: [{ address: 'mo@example.org' }] } },
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.res.headers.get('Idempotent-Replayed')).toBe('true');
  });
});

describe('background_request on the writes docs/v2/ lists (action-network preset)', () => {
  it("answers 200 {} to a signature's create and update, then does them; a petition's at once", async () => {
    const h = an();
    const p = await person(h, 'ines@example.org');
    // Creating the petition is not in the list: done at once, the record answered.
    const petition = await h.json('POST', `${AN}/petitions?background_request=true`, {
      body: { title: 'Now petition' },
    });
    expect(petition.status).toBe(201);
    expect(petition.body.title).toBe('Now petition');
    const parent = pathOf(petition.body._links.self.href);

    const accepted = await h.json('POST', `${parent}/signatures?background_request=true`, {
      body: { comments: 'later', _links: personLink(p) },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({});
    await settle(h);
    const listed = (await h.json('GET', `${parent}/signatures`)).body._embedded['osdi:signatures'];
    expect(listed.map((s: Json) => s.comments)).toEqual(['later']);

    const path = pathOf(listed[0]._links.self.href);
    const put = await h.json('PUT', `${path}?background_request=true`, {
      body: { comments: 'later still' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({});
    await settle(h);
    expect((await h.json('GET', path)).body.comments).toBe('later still');
  });

  it('does the people upsert in the background; a signature delete, not listed, at once', async () => {
    const h = an();
    const upsert = await h.json('POST', `${AN}/people?background_request=true`, {
      body: { person: { given_name: 'Uma', email_addresses: [{ address: 'uma@example.org' }] } },
    });
    expect(upsert.status).toBe(200);
    expect(upsert.body).toEqual({});
    await settle(h);
    expect((await h.json('GET', `${AN}/people`)).body._embedded['osdi:people']).toHaveLength(1);

    const { parent, record } = await CASES[0]!.make(h);
    const nested = `${parent}/signatures/${idOf(record)}`;
    const gone = await h.json('DELETE', `${nested}?background_request=true`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ notice: 'This signature was successfully deleted.' });
    expect((await h.json('GET', nested)).status).toBe(404);
  });

  it('checks a listed write at once: 404 and 400 as usual, nothing written', async () => {
    const h = an();
    const missing = await h.json('PUT', `${AN}/people/nope?background_request=true`, {
      body: { given_name: 'x' },
    });
    expect(missing.status).toBe(404);
    const badLink = await h.json('POST', `${AN}/taggings?background_request=true`, {
      body: { _links: { 'osdi:person': { href: `${AN}/people/nobody` } } },
    });
    expect(badLink.status).toBe(400);
    const badValue = await h.json('POST', `${AN}/taggings?background_request=maybe`, {
      body: { _links: { 'osdi:person': { href: `${AN}/people/nobody` } } },
    });
    expect(badValue.status).toBe(400);
    expect(errorOf(badValue.body)[0]?.properties).toEqual(['background_request']);
    await settle(h);
    expect((await h.json('GET', `${AN}/taggings`)).body._embedded['osdi:taggings']).toHaveLength(0);
  });
});

describe('people pages without totals (action-network preset)', () => {
  it('leaves total_records and total_pages out of people pages only, paging on', async () => {
    const h = an();
    for (const name of ['a', 'b', 'c']) await person(h, `${name}@example.org`);
    const first = await h.json('GET', `${AN}/people?per_page=2`);
    expect(first.body).not.toHaveProperty('total_records');
    expect(first.body).not.toHaveProperty('total_pages');
    expect(first.body).toMatchObject({ page: 1, per_page: 2 });
    const next = await h.json('GET', first.body._links.next.href);
    expect(next.body._embedded['osdi:people']).toHaveLength(1);
    expect(next.body._links.previous).toBeDefined();
    expect(next.body).not.toHaveProperty('total_records');
    const tags = await h.json('GET', `${AN}/tags`);
    expect(tags.body).toMatchObject({ total_records: 0, total_pages: 0 });
  });
});

describe('the plain server keeps the specification', () => {
  it('answers 404 at nested addresses and takes no person member in a signatures POST', async () => {
    const h = harness({ anonymousRateLimit: false });
    const p = await h.json('POST', '/api/v1/people', { body: { given_name: 'Ana' } });
    expect(p.status).toBe(201);
    const petition = await h.json('POST', '/api/v1/petitions', { body: { title: 'Plain' } });
    const parent = pathOf(petition.body._links.self.href);
    const sig = await h.json('POST', `${parent}/signatures`, {
      body: { _links: { 'std:person': { href: p.body._links.self.href } } },
    });
    expect(sig.status).toBe(201);
    expect((await h.json('GET', `${parent}/signatures/${idOf(sig.body)}`)).status).toBe(404);
    expect(
      (await h.json('PUT', `${parent}/signatures/${idOf(sig.body)}`, { body: {} })).status,
    ).toBe(404);
    expect(pathOf(petition.body._links['std:record_signature_helper'].href)).toBe(
      `${parent}/record_signature_helper`,
    );
    const helperBody = await h.json('POST', `${parent}/signatures`, {
      body: { person: { given_name: 'Bo' } },
    });
    expect(helperBody.status).toBe(400);
  });

  it('keeps POST /people the create, with totals on its pages', async () => {
    const h = harness({ anonymousRateLimit: false });
    const upsertBody = await h.json('POST', '/api/v1/people', {
      body: { person: { given_name: 'Ana' }, add_tags: ['x'] },
    });
    expect(upsertBody.status).toBe(400);
    const first = await h.json('POST', '/api/v1/people', {
      body: { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org' }] },
    });
    expect(first.status).toBe(201);
    const page = await h.json('GET', '/api/v1/people');
    expect(page.body).toMatchObject({ total_records: 1, total_pages: 1 });
  });

  it('ignores background_request and background_processing on plain writes', async () => {
    const h = harness({ anonymousRateLimit: false });
    for (const spelling of ['background_request', 'background_processing']) {
      const res = await h.json('POST', `/api/v1/tags?${spelling}=true`, {
        body: { name: spelling },
      });
      expect(res.status, spelling).toBe(201);
      expect(res.body.name).toBe(spelling);
    }
  });
});

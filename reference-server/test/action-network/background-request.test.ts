/**
 * Background processing as Action Network's general principles page documents it
 * (`docs/v2/`, "Background Processing and Queueing"): `background_request=true` on the
 * operations its table lists gets an immediate `200 OK {}`, the work done afterwards;
 * every other call that sends it is done at once, as if it had not been sent. The
 * older spelling, `background_processing`, is taken the same way. Each accepted call's
 * work is held at a gate until the test has seen that nothing was done yet.
 */
import { describe, expect, it } from 'vitest';
import { backgroundIdle } from '../../src/http/background.js';
import { defaultRegistry } from '../../src/index.js';
import { ACTION_NETWORK_BACKGROUND } from '../../src/presets/action-network/background.js';
import { ACTION_NETWORK_PRESET } from '../../src/presets/index.js';
import { type BackgroundGate, backgroundGate } from '../background-gate.js';
import {
  type ActionNetworkServer,
  type Answer,
  API,
  actionNetworkServer,
  type Json,
  nativeId,
  personHash,
  read,
  written,
} from './an-server.js';

/** A gate shut again for each call: a background gate opens for good. */
interface Gates {
  current: BackgroundGate;
}

/** A server whose accepted work waits at a gate, one per accepted call. */
function gated(): { an: ActionNetworkServer; gate: Gates } {
  const gate: Gates = { current: backgroundGate() };
  const an = actionNetworkServer({
    app: { scheduleBackground: (start) => gate.current.schedule(start) },
  });
  return { an, gate };
}

/** `path` asking for the background under `spelling`. */
function queued(path: string, spelling = 'background_request'): string {
  return `${path}${path.includes('?') ? '&' : '?'}${spelling}=true`;
}

/**
 * Checks that `answer` is Action Network's immediate success (`200 OK {}`), that the
 * work is held and `before` still holds, then lets the work run and waits for it.
 */
async function acceptedLater(
  an: ActionNetworkServer,
  gate: Gates,
  answer: Answer,
  before: () => Promise<void>,
): Promise<void> {
  expect(answer.status, JSON.stringify(answer.body)?.slice(0, 400)).toBe(200);
  expect(answer.body).toEqual({});
  expect(answer.res.headers.get('Location')).toBeNull();
  await gate.current.holding(1);
  await before();
  gate.current.open();
  await backgroundIdle(an.storage);
  gate.current = backgroundGate();
}

async function newRecord(an: ActionNetworkServer, plural: string, body: Json): Promise<string> {
  return nativeId(written(await an.post(plural, body)));
}

async function newPerson(an: ActionNetworkServer, given: string): Promise<string> {
  const email = `${given.toLowerCase()}@alder.example.org`;
  return newRecord(an, 'people', { person: personHash(given, 'Rivera', email) });
}

/** One action of the page's table, under its parent (the sub-collection clients POST to). */
interface ActionCase {
  plural: string;
  parent: string;
  parentBody: Json;
  /** Members of a record created by POST (beside its person link). */
  fields: Json;
  /** A PUT's change, read back from the record. */
  change: Json;
}

const ACTIONS: ActionCase[] = [
  {
    plural: 'signatures',
    parent: 'petitions',
    parentBody: { title: 'Keep the branch open' },
    fields: { comments: 'Yes' },
    change: { comments: 'Absolutely' },
  },
  {
    plural: 'attendances',
    parent: 'events',
    parentBody: { title: 'Seed swap' },
    fields: { status: 'accepted' },
    change: { status: 'declined' },
  },
  {
    plural: 'submissions',
    parent: 'forms',
    parentBody: { title: 'Volunteer sign-up' },
    fields: {},
    change: { identifiers: ['crm:submission-bg'] },
  },
  {
    plural: 'outreaches',
    parent: 'advocacy_campaigns',
    parentBody: { title: 'Call the council' },
    fields: { type: 'phone' },
    change: { duration: 90 },
  },
  {
    plural: 'donations',
    parent: 'fundraising_pages',
    parentBody: { title: 'New shelves' },
    fields: { recipients: [{ display_name: 'Alder Library Friends', amount: '12.50' }] },
    change: { identifiers: ['payments:tx-bg'] },
  },
];

/** Checks that a record holds `change`, or with `held: false` not yet (identifiers sent are added to its own). */
function expectChanged(record: Json, change: Json, held = true): void {
  for (const [member, value] of Object.entries(change)) {
    const seen =
      member === 'identifiers'
        ? (value as string[]).every((identifier) => record.identifiers.includes(identifier))
        : JSON.stringify(record[member]) === JSON.stringify(value);
    expect(seen, `${member} in ${JSON.stringify(record).slice(0, 300)}`).toBe(held);
  }
}

describe('the operations docs/v2/ lists answer 200 {} and are done afterwards', () => {
  for (const action of ACTIONS) {
    it(`${action.plural}: POST, PUT and the record helper`, async () => {
      const { an, gate } = gated();
      const parentId = await newRecord(an, action.parent, action.parentBody);
      const sub = `${action.parent}/${parentId}/${action.plural}`;
      const count = async () => read(await an.get(sub))._embedded[`osdi:${action.plural}`].length;
      const personId = await newPerson(an, 'Ola');

      // POST: the record itself, linked to a person.
      const posted = await an.post(queued(sub), {
        ...action.fields,
        _links: { 'osdi:person': { href: `${API}/people/${personId}` } },
      });
      await acceptedLater(an, gate, posted, async () => expect(await count()).toBe(0));
      expect(await count()).toBe(1);

      // The record helper: the same address with a person hash.
      const helped = await an.post(queued(sub), {
        ...action.fields,
        person: personHash('Ivo', 'Petrov', 'ivo.petrov@alder.example.org'),
      });
      await acceptedLater(an, gate, helped, async () => expect(await count()).toBe(1));
      expect(await count()).toBe(2);

      // PUT at the record's own (nested) address.
      const [first] = read(await an.get(sub))._embedded[`osdi:${action.plural}`];
      const path = `${sub}/${nativeId(first)}`;
      const put = await an.put(queued(path), action.change);
      await acceptedLater(an, gate, put, async () =>
        expectChanged(read(await an.get(path)), action.change, false),
      );
      expectChanged(read(await an.get(path)), action.change);
    });
  }

  it('people: PUT and the person signup helper (POST to people)', async () => {
    const { an, gate } = gated();
    const filter = encodeURIComponent("email_address eq 'uma.okafor@alder.example.org'");
    const found = async () =>
      read(await an.get(`people?filter=${filter}`))._embedded['osdi:people'];
    const signup = await an.post(queued('people'), {
      person: personHash('Uma', 'Okafor', 'uma.okafor@alder.example.org'),
    });
    await acceptedLater(an, gate, signup, async () => expect(await found()).toEqual([]));
    const [uma] = await found();
    expect(uma?.given_name).toBe('Uma');

    const path = `people/${nativeId(uma)}`;
    const put = await an.put(queued(path), { family_name: 'Okafor-Reyes' });
    await acceptedLater(an, gate, put, async () => {
      expect(read(await an.get(path)).family_name).toBe('Okafor');
    });
    expect(read(await an.get(path)).family_name).toBe('Okafor-Reyes');
  });

  it('taggings: POST and DELETE', async () => {
    const { an, gate } = gated();
    const tagId = await newRecord(an, 'tags', { name: 'volunteer' });
    const personId = await newPerson(an, 'Bea');
    const taggings = `tags/${tagId}/taggings`;
    const listed = async () => read(await an.get(taggings))._embedded['osdi:taggings'];
    const posted = await an.post(queued(taggings), {
      _links: { 'osdi:person': { href: `${API}/people/${personId}` } },
    });
    await acceptedLater(an, gate, posted, async () => expect(await listed()).toEqual([]));
    const [tagging] = await listed();
    expect(tagging).toBeDefined();

    const path = `${taggings}/${nativeId(tagging)}`;
    const removed = await an.delete(queued(path));
    await acceptedLater(an, gate, removed, async () =>
      expect((await an.get(path)).status).toBe(200),
    );
    expect((await an.get(path)).status).toBe(404);
  });

  it('takes the older spelling, background_processing, the same way', async () => {
    const { an, gate } = gated();
    const filter = encodeURIComponent("email_address eq 'noor@alder.example.org'");
    const found = async () =>
      read(await an.get(`people?filter=${filter}`))._embedded['osdi:people'];
    const signup = await an.post(queued('people', 'background_processing'), {
      person: personHash('Noor', 'Haddad', 'noor@alder.example.org'),
    });
    await acceptedLater(an, gate, signup, async () => expect(await found()).toEqual([]));
    expect(await found()).toHaveLength(1);
  });

  it('checks the call first: a bad value, a bad body, a missing record, nothing written', async () => {
    const an = actionNetworkServer();
    const petitionId = await newRecord(an, 'petitions', { title: 'Checked first' });
    const signatures = `petitions/${petitionId}/signatures`;
    const signer = { person: personHash('Kai', 'Berg', 'kai@alder.example.org') };
    for (const [query, property] of [
      ['background_request=yes', 'background_request'],
      ['background_request=true&background_processing=maybe', 'background_processing'],
      ['background_request=true&background_request=true', 'background_request'],
    ] as const) {
      const refused = await an.post(`${signatures}?${query}`, signer);
      expect(refused.status, query).toBe(400);
      expect(refused.body['osdi:error'].resource_status[0].error_descriptions[0]).toMatchObject({
        error_code: 'INVALID_PARAMETER',
        properties: [property],
      });
    }
    const badBody = await an.post(queued(signatures), { ...signer, mood: 'fine' });
    expect(badBody.status).toBe(400);
    const missing = await an.put(queued('people/6c1f0000-0000-4000-8000-000000000000'), {
      family_name: 'Nobody',
    });
    expect(missing.status).toBe(404);
    await backgroundIdle(an.storage);
    expect(read(await an.get(signatures))._embedded['osdi:signatures']).toEqual([]);
  });
});

describe('what docs/v2/ does not list is done at once, as if the parameter was not sent', () => {
  for (const spelling of ['background_request', 'background_processing']) {
    it(`creating a petition with ${spelling}=true answers the petition itself, already there`, async () => {
      const an = actionNetworkServer();
      const created = written(
        await an.post(queued('petitions', spelling), { identifiers: ['crm:now-1'], title: 'Now' }),
      );
      expect(created.title).toBe('Now');
      const id = nativeId(created);
      // No work was queued: the petition is there without waiting for any.
      expect(read(await an.get(`petitions/${id}`)).title).toBe('Now');
      // Its update, a tag's create and a signature's delete are not listed either.
      const renamed = await an.put(queued(`petitions/${id}`, spelling), { title: 'Renamed' });
      expect(written(renamed).title).toBe('Renamed');
      const tag = await an.post(queued('tags', spelling), { name: 'at-once' });
      expect(written(tag).name).toBe('at-once');
      const signature = written(
        await an.post(`petitions/${id}/signatures`, {
          person: personHash('Lu', 'Chen', 'lu.chen@alder.example.org'),
        }),
      );
      const removed = await an.delete(
        queued(`petitions/${id}/signatures/${nativeId(signature)}`, spelling),
      );
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ notice: 'This signature was successfully deleted.' });
    });
  }

  it('ignores the parameter there, whatever its value', async () => {
    const an = actionNetworkServer();
    for (const query of ['background_request=maybe', 'background_processing=maybe']) {
      const created = await an.post(`petitions?${query}`, { title: query });
      expect(created.status, query).toBe(201);
      expect(created.body.title).toBe(query);
    }
  });
});

describe("the preset's list is docs/v2/'s table", () => {
  it('names kinds the preset serves (responses aside: no such collection here)', () => {
    const registry = defaultRegistry(ACTION_NETWORK_PRESET);
    const listed = Object.keys(ACTION_NETWORK_BACKGROUND.operations).filter(
      (plural) => plural !== 'responses',
    );
    expect(listed.filter((plural) => !registry.byPlural(plural))).toEqual([]);
    expect(ACTION_NETWORK_PRESET.background).toBe(ACTION_NETWORK_BACKGROUND);
    expect(ACTION_NETWORK_BACKGROUND.status).toBe(200);
  });
});

/**
 * A call without a key is a stranger: it may add an act and fill what is empty, nothing
 * else (docs/helpers.md, "What a call without a key may do"). One test per way such a
 * call was found to harm a person, under both presets (and, through the harnesses, on
 * both engines).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../src/index.js';
import { openStorage } from '../src/storage/sqlite.js';
import type { Json } from './helpers.js';
import {
  ANA,
  type KeylessScene,
  keyedOk,
  keylessScene,
  listed,
  reread,
  SITE_NAMES,
  tagNamesOf,
} from './keyless-sites.js';

const MALLORY = 'mallory@attacker.example.net';

/** What matches a person, and what is stored about her, as read. */
function matchKeys(person: Json) {
  return {
    emails: person.email_addresses,
    phones: person.phone_numbers,
    postal: person.postal_addresses,
    identifiers: person.identifiers,
    names: [person.given_name, person.family_name],
  };
}

describe.each(SITE_NAMES)('a call without a key, under the %s preset', (name) => {
  let s: KeylessScene;
  beforeEach(async () => {
    s = await keylessScene(name);
  });

  it('never gives a matched person a new email, phone or identifier, nor overwrites her (finding 1)', async () => {
    const before = await reread(s.site, s.ana);
    const answer = await s.sign({
      comments: 'Signed for Ana',
      person: {
        given_name: 'Mallory',
        identifiers: ['crm:mallory'],
        email_addresses: [{ address: ANA }, { address: MALLORY, primary: true }],
        phone_numbers: [{ number: '447700900999', primary: true }],
        postal_addresses: [
          { locality: 'Elsewhere', postal_code: '00001', country: 'US', primary: true },
        ],
        custom_fields: { team: 'south', shift: 'am' },
      },
    });
    expect(answer).toEqual({ status: 200, body: {} });
    const after = await reread(s.site, s.ana);
    expect(matchKeys(after)).toEqual(matchKeys(before));
    // Only what was empty is filled.
    expect(after.custom_fields).toEqual({ team: 'north', shift: 'am' });
    // The stranger's address matches nobody: a keyed signup with it makes a new person,
    // and Ana keeps her name and primary address.
    const signup = await keyedOk(s.site, 'POST', s.site.personSignup, {
      person: { given_name: 'Mal', email_addresses: [{ address: MALLORY, primary: true }] },
    });
    expect(signup._links.self.href).not.toBe(s.ana._links.self.href);
    expect(matchKeys(await reread(s.site, s.ana))).toEqual(matchKeys(before));
    // The signature was recorded, on Ana.
    const signatures = await listed(
      s.site,
      after._links[`${s.site.prefix}:signatures`].href,
      'signatures',
    );
    expect(signatures).toHaveLength(1);
  });

  it('never changes a stored subscription status, either way (finding 1)', async () => {
    await s.sign({ person: { email_addresses: [{ address: ANA, status: 'unsubscribed' }] } });
    expect((await reread(s.site, s.ana)).email_addresses[0].status).toBe('subscribed');
    await keyedOk(s.site, 'POST', s.site.personSignup, {
      person: { email_addresses: [{ address: ANA, status: 'unsubscribed' }] },
    });
    await s.sign({ person: { email_addresses: [{ address: ANA, status: 'subscribed' }] } });
    expect((await reread(s.site, s.ana)).email_addresses[0].status).toBe('unsubscribed');
  });

  it('gives a person it creates only the statuses a person chooses (finding 1)', async () => {
    const stranger = 'new.person@example.org';
    await s.sign({ person: { email_addresses: [{ address: stranger, status: 'bouncing' }] } });
    const people = await listed(s.site, s.site.collection('people'), 'people');
    const created = people.find((p) => p.email_addresses?.[0]?.address === stranger);
    expect(created?.email_addresses[0].status).not.toBe('bouncing');
  });

  it('removes nothing: remove_tags is refused and Ana keeps her tag (finding 2)', async () => {
    const answer = await s.sign({
      person: { email_addresses: [{ address: ANA }] },
      remove_tags: ['member'],
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(JSON.stringify(answer.body)).toContain('remove_tags');
    expect(await tagNamesOf(s.site, s.ana)).toEqual(['member']);
    // Refused before anything is written: no signature either.
    const read = await reread(s.site, s.ana);
    expect(
      await listed(s.site, read._links[`${s.site.prefix}:signatures`].href, 'signatures'),
    ).toHaveLength(0);
  });

  it('answers the same whether the email is on file or new (finding 3)', async () => {
    const body = (address: string) => ({
      person: { given_name: 'Ana', email_addresses: [{ address }] },
      add_tags: ['volunteer', 'no-such-tag'],
    });
    const known = await s.sign(body(ANA));
    const fresh = await s.sign(body('somebody.new@example.org'));
    expect(known.status).toBe(400);
    expect(fresh).toEqual(known);
    // The failed part only: never the person, the signature, or a part that succeeded.
    expect(JSON.stringify(known.body)).not.toMatch(/person|signature/);
    expect(known.body[`${s.site.prefix}:error`].resource_status).toHaveLength(1);
    // Signing again (the signature exists now) answers the same too.
    expect(await s.sign(body(ANA))).toEqual(known);
  });

  it('applies only the tags the operator opened; a closed tag is refused as a missing one (finding 4)', async () => {
    const closed = await s.sign({
      person: { email_addresses: [{ address: ANA }] },
      add_tags: ['staff'],
    });
    const missing = await s.sign({
      person: { email_addresses: [{ address: ANA }] },
      add_tags: ['nonexistent'],
    });
    expect(closed.status).toBe(400);
    expect(JSON.stringify(closed.body).replaceAll('staff', 'X')).toBe(
      JSON.stringify(missing.body).replaceAll('nonexistent', 'X'),
    );
    // By href: the same refusal as an href that names nothing.
    const tags = await listed(s.site, s.site.collection('tags'), 'tags');
    const staff = tags.find((tag) => tag.name === 'staff');
    const byHref = await s.sign({
      person: { email_addresses: [{ address: ANA }] },
      add_tags_uri: [staff._links.self.href],
    });
    const nowhere = await s.sign({
      person: { email_addresses: [{ address: ANA }] },
      add_tags_uri: [`${staff._links.self.href}0`],
    });
    expect(byHref.status).toBe(400);
    expect(JSON.stringify(byHref.body).replaceAll(staff._links.self.href, 'X')).toBe(
      JSON.stringify(nowhere.body).replaceAll(`${staff._links.self.href}0`, 'X'),
    );
    // The open tag is applied, the closed ones never were.
    expect(
      await s.sign({ person: { email_addresses: [{ address: ANA }] }, add_tags: ['Volunteer'] }),
    ).toEqual({ status: 200, body: {} });
    expect(await tagNamesOf(s.site, s.ana)).toEqual(['member', 'volunteer']);
  });

  it('applies no list unless opened (finding 4)', async () => {
    await keyedOk(s.site, 'POST', s.site.collection('lists'), { name: 'Major donors' }).catch(
      () => undefined,
    );
    const answer = await s.sign({
      person: { email_addresses: [{ address: ANA }] },
      add_lists: ['Major donors'],
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('LIST_NAME_DOES_NOT_EXIST');
  });

  it('still counts a signature by a new and by a known email once each (the widget)', async () => {
    for (const address of [ANA, 'first.timer@example.org']) {
      for (let i = 0; i < 2; i++) {
        expect(await s.sign({ person: { email_addresses: [{ address }] } })).toEqual({
          status: 200,
          body: {},
        });
      }
    }
    expect((await reread(s.site, s.petition)).total_signatures).toBe(2);
  });
});

describe('what the operator opens', () => {
  it('refuses an opening that names nothing, when the app is made', async () => {
    const storage = openStorage(':memory:');
    for (const keylessOpen of [
      { tags: [' '] },
      { lists: [''] },
      { tags: [7 as unknown as string] },
    ]) {
      expect(() => createApp({ storage, keylessOpen }), JSON.stringify(keylessOpen)).toThrow(
        /must be a tag or list name/,
      );
    }
    expect(() => createApp({ storage, keylessOpen: { tags: ['volunteer'] } })).not.toThrow();
    await storage.close();
  });

  it('nothing by default: every add_tags from a page is refused', async () => {
    const s = await keylessScene('reference', { tags: [], lists: [] });
    const answer = await s.sign({
      person: { email_addresses: [{ address: ANA }] },
      add_tags: ['volunteer'],
    });
    expect(answer.status).toBe(400);
    expect(await tagNamesOf(s.site, s.ana)).toEqual(['member']);
  });

  it('a keyed call applies any tag, and removes', async () => {
    const s = await keylessScene('action-network');
    const helper = s.site.signatureHelper(s.petition);
    await keyedOk(s.site, 'POST', helper, {
      person: { email_addresses: [{ address: ANA }] },
      add_tags: ['staff'],
      remove_tags: ['member'],
    });
    expect(await tagNamesOf(s.site, s.ana)).toEqual(['staff']);
  });
});

describe('every helper a page may call keeps the rule', () => {
  /** Each helper the spec opens to calls without a key: the record it acts on, and a body. */
  const HELPERS = [
    {
      rel: 'record_outreach_helper',
      plural: 'advocacy_campaigns',
      record: { title: 'Call the council' },
      body: { type: 'phone' },
    },
    {
      rel: 'record_attendance_helper',
      plural: 'events',
      record: { title: 'Picnic', type: 'open' },
      body: { status: 'accepted' },
    },
    {
      rel: 'record_donation_helper',
      plural: 'fundraising_pages',
      record: { title: 'Park fund', currency: 'USD' },
      body: { amount: 10 },
    },
  ];

  it.each(HELPERS)(
    '$rel: no new email or phone, no closed tag, no removal, the same answer',
    async (helper) => {
      const s = await keylessScene('reference');
      const record = await keyedOk(s.site, 'POST', s.site.collection(helper.plural), helper.record);
      const href = record._links[`std:${helper.rel}`].href;
      const before = await reread(s.site, s.ana);
      const call = (address: string) =>
        s.site.keyless('POST', href, {
          ...helper.body,
          person: {
            email_addresses: [{ address }, { address: MALLORY }],
            phone_numbers: [{ number: '447700900999' }],
          },
          add_tags: ['staff'],
        });
      const known = await call(ANA);
      expect(known.status).toBe(400);
      expect(await call('someone.else@example.org')).toEqual(known);
      expect(matchKeys(await reread(s.site, s.ana))).toEqual(matchKeys(before));
      expect(await tagNamesOf(s.site, s.ana)).toEqual(['member']);
    },
  );

  it('record_canvass_helper: the target gets no closed tag', async () => {
    const s = await keylessScene('reference');
    const href = s.ana._links['std:record_canvass_helper'].href;
    const answer = await s.site.keyless('POST', href, {
      canvass: { contact_type: 'door', success: true },
      add_tags: ['staff'],
    });
    expect(answer.status).toBe(400);
    expect(await tagNamesOf(s.site, s.ana)).toEqual(['member']);
    const removal = await s.site.keyless('POST', href, {
      canvass: { contact_type: 'door' },
      remove_tags: ['member'],
    });
    expect(removal.status).toBe(400);
    expect(await tagNamesOf(s.site, s.ana)).toEqual(['member']);
  });
});

describe('acting again without a key is judged as a first act', () => {
  it.each(SITE_NAMES)(
    '%s: a ticketed event answers the same whether the person attends already',
    async (name) => {
      const s = await keylessScene(name);
      const event = await keyedOk(s.site, 'POST', s.site.collection('events'), {
        title: 'Gala',
        type: 'ticketed',
        ticket_levels: [{ title: 'Adult', amount: 10, currency: 'USD', limit: 1 }],
      });
      const href =
        name === 'reference'
          ? event._links['std:record_attendance_helper'].href
          : `${event._links.self.href}/attendances`;
      const rsvp = (address: string, title: string) =>
        s.site.keyless('POST', href, {
          person: { email_addresses: [{ address }] },
          tickets: [{ title }],
        });
      expect(await rsvp(ANA, 'Adult')).toEqual({ status: 200, body: {} });
      // A ticket level the event lacks, and the sold-out level: Ana (who attends) and a
      // newcomer get the same refusal.
      for (const title of ['Kid', 'Adult']) {
        const known = await rsvp(ANA, title);
        expect(known.status).toBe(400);
        expect(await rsvp('newcomer@example.org', title)).toEqual(known);
      }
    },
  );
});

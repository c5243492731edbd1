/**
 * Subscription statuses of the people helpers write, under ACTION_NETWORK_PRESET
 * (`signupStatuses`): a new email address is subscribed unless `unsubscribed` is sent,
 * a new phone number unsubscribed unless `subscribed` is sent, a stored status changes
 * only when one of those two is sent, and the first email and phone of a person are
 * primary. The record helpers take a person the same way. The plain server stores what
 * is sent. Data invented for the tests.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_NETWORK_PRESET } from '../src/presets/action-network.js';
import { type Harness, harness, type Json, presetHarness } from './helpers.js';

const AN = '/api/v2';

function actionNetwork(): Harness {
  return presetHarness(ACTION_NETWORK_PRESET);
}

/** The upsert at Action Network's people collection; answers the person written. */
async function upsert(h: Harness, person: Json): Promise<Json> {
  const answer = await h.json('POST', `${AN}/people`, { body: { person } });
  expect([200, 201], JSON.stringify(answer.body)).toContain(answer.status);
  return answer.body;
}

/** The id at the end of a self href. */
function idOf(record: Json): string {
  return String(record._links.self.href).split('/').pop() ?? '';
}

async function person(h: Harness, id: string): Promise<Json> {
  const answer = await h.json('GET', `${AN}/people/${id}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

const EMAIL = 'noor.haddad@example.org';
const PHONE = '15035550188';

describe('a new person under the preset', () => {
  it('gets a subscribed, primary email and an unsubscribed, primary phone when no status is sent', async () => {
    const h = actionNetwork();
    const written = await upsert(h, {
      given_name: 'Noor',
      email_addresses: [{ address: EMAIL }],
      phone_numbers: [{ number: PHONE }],
    });
    expect(written.email_addresses).toEqual([
      { address: EMAIL, status: 'subscribed', primary: true },
    ]);
    expect(written.phone_numbers).toEqual([
      { number: PHONE, status: 'unsubscribed', primary: true },
    ]);
  });

  it('takes unsubscribed for the email and subscribed for the phone when sent', async () => {
    const h = actionNetwork();
    const written = await upsert(h, {
      email_addresses: [{ address: EMAIL, status: 'unsubscribed' }],
      phone_numbers: [{ number: PHONE, status: 'subscribed' }],
    });
    expect(written.email_addresses[0].status).toBe('unsubscribed');
    expect(written.phone_numbers[0].status).toBe('subscribed');
  });

  it('does not take another status: the default instead', async () => {
    const h = actionNetwork();
    const written = await upsert(h, {
      email_addresses: [{ address: EMAIL, status: 'bouncing' }],
      phone_numbers: [{ number: PHONE, status: 'previous bounce' }],
    });
    expect(written.email_addresses[0].status).toBe('subscribed');
    expect(written.phone_numbers[0].status).toBe('unsubscribed');
  });

  it('keeps primary: false when sent', async () => {
    const h = actionNetwork();
    const written = await upsert(h, { email_addresses: [{ address: EMAIL, primary: false }] });
    expect(written.email_addresses[0].primary).toBe(false);
  });
});

describe('a person already there, under the preset', () => {
  it('keeps a stored status when another status is sent', async () => {
    const h = actionNetwork();
    const id = idOf(
      await upsert(h, {
        email_addresses: [{ address: EMAIL, status: 'unsubscribed' }],
        phone_numbers: [{ number: PHONE, status: 'subscribed' }],
      }),
    );
    for (const status of ['bouncing', 'previous bounce', 'spam complaint']) {
      const again = await upsert(h, {
        family_name: 'Haddad',
        email_addresses: [{ address: EMAIL, status }],
        phone_numbers: [{ number: PHONE, status }],
      });
      expect(idOf(again)).toBe(id);
      expect(again.email_addresses[0].status, status).toBe('unsubscribed');
      expect(again.phone_numbers[0].status, status).toBe('subscribed');
    }
    // Nor does a call without a status change it.
    await upsert(h, { email_addresses: [{ address: EMAIL }], phone_numbers: [{ number: PHONE }] });
    const stored = await person(h, id);
    expect(stored.family_name).toBe('Haddad');
    expect(stored.email_addresses[0].status).toBe('unsubscribed');
    expect(stored.phone_numbers[0].status).toBe('subscribed');
  });

  it('changes a status when subscribed or unsubscribed is sent', async () => {
    const h = actionNetwork();
    const id = idOf(await upsert(h, { email_addresses: [{ address: EMAIL }] }));
    await upsert(h, { email_addresses: [{ address: EMAIL, status: 'unsubscribed' }] });
    expect((await person(h, id)).email_addresses[0].status).toBe('unsubscribed');
    await upsert(h, {
      email_addresses: [{ address: EMAIL, status: 'subscribed' }],
      phone_numbers: [{ number: PHONE, status: 'subscribed' }],
    });
    const stored = await person(h, id);
    expect(stored.email_addresses[0].status).toBe('subscribed');
    // A phone new to the person: the status sent, and primary as the person's first.
    expect(stored.phone_numbers).toEqual([{ number: PHONE, status: 'subscribed', primary: true }]);
  });

  it('a PUT is not the helper: it stores the status sent', async () => {
    const h = actionNetwork();
    const id = idOf(await upsert(h, { email_addresses: [{ address: EMAIL }] }));
    const put = await h.json('PUT', `${AN}/people/${id}`, {
      body: { email_addresses: [{ address: EMAIL, status: 'bouncing' }] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect((await person(h, id)).email_addresses[0].status).toBe('bouncing');
  });
});

describe('record helpers take a person the same way', () => {
  it('a signature by a new person, then by the same person with another status', async () => {
    const h = actionNetwork();
    const petition = await h.json('POST', `${AN}/petitions`, { body: { title: 'Open the pool' } });
    expect(petition.status).toBe(201);
    const signatures = `${AN}/petitions/${idOf(petition.body)}/signatures`;
    const first = await h.json('POST', signatures, {
      body: {
        person: { email_addresses: [{ address: EMAIL }], phone_numbers: [{ number: PHONE }] },
      },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const id = String(first.body._links['osdi:person'].href).split('/').pop() ?? '';
    const created = await person(h, id);
    expect(created.email_addresses[0]).toMatchObject({ status: 'subscribed', primary: true });
    expect(created.phone_numbers[0]).toMatchObject({ status: 'unsubscribed', primary: true });

    const again = await h.json('POST', signatures, {
      body: { person: { email_addresses: [{ address: EMAIL, status: 'spam complaint' }] } },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await person(h, id)).email_addresses[0].status).toBe('subscribed');
  });
});

describe('the plain server', () => {
  it('stores the members as sent: no status or primary added, another status taken', async () => {
    const h = harness();
    const signup = '/api/v1/people/person_signup_helper';
    const created = await h.json('POST', signup, {
      body: {
        person: { email_addresses: [{ address: EMAIL }], phone_numbers: [{ number: PHONE }] },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.email_addresses).toEqual([{ address: EMAIL }]);
    expect(created.body.phone_numbers).toEqual([{ number: PHONE }]);
    const again = await h.json('POST', signup, {
      body: { person: { email_addresses: [{ address: EMAIL, status: 'bouncing' }] } },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.email_addresses).toEqual([{ address: EMAIL, status: 'bouncing' }]);
  });
});

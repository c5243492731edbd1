import { describe, expect, it } from 'vitest';
import type { Harness, Json } from './helpers.js';
import { callHelper, count, create, helperHarness, helperOf, person } from './helpers-setup.js';

async function signing(h: Harness): Promise<string> {
  const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
  return helperOf(petition, 'record_signature_helper');
}

async function people(h: Harness): Promise<Json[]> {
  return (await h.json('GET', '/api/v1/people')).body._embedded['std:people'];
}

describe('person matching in record helpers', () => {
  it('the same email twice is one person (any case); a new email is a new person', async () => {
    const h = helperHarness();
    const href = await signing(h);
    const first = await callHelper(h, href, { person: person('Ana', 'ana@example.org') });
    const second = await callHelper(h, href, { person: person('Ana', 'ANA@Example.org') });
    expect(second.body._embedded['std:person']._links.self.href).toBe(
      first.body._embedded['std:person']._links.self.href,
    );
    expect(await count(h, 'people')).toBe(1);
    await callHelper(h, href, { person: person('Ana', 'ana@work.example.org') });
    expect(await count(h, 'people')).toBe(2);
    // One signature per person and petition: the second call updated the first.
    expect(await count(h, 'signatures')).toBe(2);
  });

  it('email plus phone: the person found by phone gets the new email', async () => {
    const h = helperHarness();
    const href = await signing(h);
    await callHelper(h, href, { person: person('Bo', undefined, '447700900123') });
    const again = await callHelper(h, href, {
      person: person('Bo', 'bo@example.org', '447700900123'),
    });
    // Bo had signed: the signature is updated (200), not added.
    expect(again.status).toBe(200);
    expect(await count(h, 'people')).toBe(1);
    expect(again.body._embedded['std:person'].email_addresses).toEqual([
      { address: 'bo@example.org' },
    ]);
    // The email just added matches from now on.
    await callHelper(h, href, { person: person('Bo', 'BO@example.org') });
    expect(await count(h, 'people')).toBe(1);
  });

  it('a keyed call matches by identifier first and overwrites what it sends', async () => {
    const h = helperHarness();
    const href = await signing(h);
    await callHelper(h, href, {
      person: { ...person('Cy', 'cy@example.org'), family_name: 'Old', identifiers: ['crm:9'] },
    });
    await create(h, 'people', person('Other', 'other@example.org'));
    const keyed = await callHelper(h, href, {
      person: {
        identifiers: ['crm:9'],
        given_name: 'Cyril',
        email_addresses: [{ address: 'other@example.org', primary: true }],
      },
    });
    const cy = keyed.body._embedded['std:person'];
    expect(cy).toMatchObject({ given_name: 'Cyril', family_name: 'Old' });
    expect(cy.identifiers).toContain('crm:9');
    expect(cy.email_addresses).toEqual([
      { address: 'cy@example.org' },
      { address: 'other@example.org', primary: true },
    ]);
  });

  it('an anonymous call never overwrites: fills gaps, adds no email or phone, ignores identifiers', async () => {
    const h = helperHarness();
    const href = await signing(h);
    const stored = await create(h, 'people', {
      given_name: 'Dee',
      birthdate: { year: 1990 },
      email_addresses: [{ address: 'dee@example.org', primary: true, status: 'subscribed' }],
      custom_fields: { team: 'north' },
    });
    const modified = stored.modified_date;
    const anonymous = await callHelper(
      h,
      href,
      {
        person: {
          identifiers: ['crm:evil'],
          given_name: 'Mallory',
          family_name: 'Diaz',
          birthdate: { year: 1970, month: 5 },
          email_addresses: [
            { address: 'DEE@example.org', status: 'unsubscribed' },
            { address: 'dee@new.example.org', primary: true },
          ],
          phone_numbers: [{ number: '12025550123', primary: true }],
          custom_fields: { team: 'south', shift: 'am' },
        },
      },
      null,
    );
    expect(anonymous).toMatchObject({ status: 200, body: {} });
    const [dee] = await people(h);
    expect(dee.given_name).toBe('Dee');
    expect(dee.family_name).toBe('Diaz');
    expect(dee.birthdate).toEqual({ year: 1990, month: 5 });
    expect(dee.identifiers).toEqual(stored.identifiers);
    // Her address as stored (its status too); the stranger's address and phone dropped.
    expect(dee.email_addresses).toEqual([
      { address: 'dee@example.org', primary: true, status: 'subscribed' },
    ]);
    expect(dee.phone_numbers).toBeUndefined();
    expect(dee.custom_fields).toEqual({ team: 'north', shift: 'am' });
    expect(dee.modified_date >= modified).toBe(true);
    // An anonymous identifier does not match either: a new person.
    await callHelper(
      h,
      href,
      { person: { identifiers: stored.identifiers, given_name: 'X' } },
      null,
    );
    expect(await count(h, 'people')).toBe(2);
  });

  it('an anonymous call with nothing new leaves the person untouched', async () => {
    const h = helperHarness();
    const href = await signing(h);
    const stored = await create(h, 'people', person('Eve', 'eve@example.org'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await callHelper(h, href, { person: person('Evelyn', 'eve@example.org') }, null);
    const read = await h.json('GET', stored._links.self.href);
    expect(read.body.given_name).toBe('Eve');
    expect(read.body.modified_date).toBe(stored.modified_date);
    expect(await count(h, read.body._links['std:signatures'].href)).toBe(1);
  });
});

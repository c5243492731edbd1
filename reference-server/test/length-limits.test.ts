import { describe, expect, it } from 'vitest';
import { errorOf, type Harness, type Json } from './helpers.js';
import { callHelper, count, create, helperHarness, helperOf } from './helpers-setup.js';

// Length limits on what the server stores: an email address within RFC 5321 (64
// characters before the @, 254 in all), a name of at most 255 characters. Each is
// refused with a 400 whose description names the member and says the limit, through the
// people collection and through a helper called without a key, and nothing is stored.

/** An address of `local` characters before the @ and `total` characters in all. */
function address(local: number, total: number): string {
  return `${'a'.repeat(local)}@${'d'.repeat(total - local - 5)}.org`;
}

const LOCAL_TOO_LONG = 'must have at most 64 characters before the @';
const ADDRESS_TOO_LONG = 'must be at most 254 characters';
const NAME_TOO_LONG = 'must be at most 255 characters';

/** The three people the issue names, each with the member and message it is refused for. */
const TOO_LONG: [string, Json, string, string][] = [
  [
    'a 65-character local part',
    { given_name: 'Ana', email_addresses: [{ address: address(65, 90) }] },
    'email_addresses[0].address',
    LOCAL_TOO_LONG,
  ],
  [
    'a 255-character address',
    { given_name: 'Ana', email_addresses: [{ address: address(40, 255) }] },
    'email_addresses[0].address',
    ADDRESS_TOO_LONG,
  ],
  [
    'a 256-character given name',
    { given_name: 'A'.repeat(256), email_addresses: [{ address: 'ana@example.org' }] },
    'given_name',
    NAME_TOO_LONG,
  ],
];

/** The one description of a refusal, checked to be a 400 that names `property`. */
function refusal(answer: { status: number; body: Json }, property: string): Json {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  const descriptions = errorOf(answer.body);
  expect(descriptions).toHaveLength(1);
  expect(descriptions[0]).toMatchObject({
    error_code: 'INVALID_PROPERTY',
    properties: [property],
  });
  return descriptions[0];
}

async function signing(h: Harness): Promise<string> {
  return helperOf(
    await create(h, 'petitions', { title: 'Save Elm Park' }),
    'record_signature_helper',
  );
}

describe('length limits', () => {
  it.each(TOO_LONG)('POST /people refuses %s, naming the member', async (_, body, member, why) => {
    const h = helperHarness();
    const answer = await h.json('POST', '/api/v1/people', { body });
    expect(refusal(answer, member).description).toBe(`${member}: ${why}`);
    expect(await count(h, 'people')).toBe(0);
  });

  it.each(TOO_LONG)(
    'the signature helper without a key refuses %s',
    async (_, body, member, why) => {
      const h = helperHarness();
      const href = await signing(h);
      const answer = await callHelper(h, href, { person: body, comments: 'Yes!' }, null);
      expect(Object.keys(answer.body)).toEqual(['std:error']);
      expect(refusal(answer, `person.${member}`).description).toBe(`person.${member}: ${why}`);
      expect(await count(h, 'people')).toBe(0);
      expect(await count(h, 'signatures')).toBe(0);
    },
  );

  it('the issue’s 5,000-character local part is refused, both limits said', async () => {
    const h = helperHarness();
    const body = { email_addresses: [{ address: address(5000, 5020) }] };
    const answer = await h.json('POST', '/api/v1/people', { body });
    expect(answer.status).toBe(400);
    expect(errorOf(answer.body).map((e: Json) => e.description)).toEqual([
      `email_addresses[0].address: ${ADDRESS_TOO_LONG}`,
      `email_addresses[0].address: ${LOCAL_TOO_LONG}`,
    ]);
    expect(await count(h, 'people')).toBe(0);
  });

  it('takes an address and a name at the limits, through both routes', async () => {
    const h = helperHarness();
    const longest = {
      given_name: 'A'.repeat(255),
      email_addresses: [{ address: address(64, 254) }],
    };
    const stored = await create(h, 'people', longest);
    expect(stored).toMatchObject(longest);
    const href = await signing(h);
    const signer = {
      given_name: 'B'.repeat(255),
      email_addresses: [{ address: address(64, 200) }],
    };
    // A call without a key that went through is answered 200 with an empty body.
    expect(await callHelper(h, href, { person: signer }, null)).toMatchObject({
      status: 200,
      body: {},
    });
    expect(await count(h, 'people')).toBe(2);
    expect(await count(h, 'signatures')).toBe(1);
  });

  it('an update is held to the same limits, and leaves the person as it was', async () => {
    const h = helperHarness();
    const ana = await create(h, 'people', { given_name: 'Ana' });
    const self = ana._links.self.href;
    const answer = await h.json('PUT', self, { body: { family_name: 'L'.repeat(300) } });
    expect(refusal(answer, 'family_name').description).toBe(`family_name: ${NAME_TOO_LONG}`);
    const after = await h.json('GET', self);
    expect(after.body.family_name).toBeUndefined();
    expect(after.body.given_name).toBe('Ana');
  });

  it('an event contact’s email_address is held to RFC 5321 too', async () => {
    const h = helperHarness();
    const contact = { name: 'Ana', email_address: address(65, 90) };
    const answer = await h.json('POST', '/api/v1/events', { body: { title: 'Rally', contact } });
    expect(refusal(answer, 'contact.email_address').description).toBe(
      `contact.email_address: ${LOCAL_TOO_LONG}`,
    );
    expect(await count(h, 'events')).toBe(0);
  });
});

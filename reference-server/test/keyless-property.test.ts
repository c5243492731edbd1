/**
 * The keyless rule as properties, over random bodies a page could send: against a person
 * on file, whatever the body, her match keys and stored values never change and her
 * tags only gain open ones; and the answer is the same whether the email is on file or
 * new, whether the closed tags named exist or not. Both presets; both engines through
 * the harnesses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json } from './helpers.js';
import {
  ANA,
  ANA_PHONE,
  keylessScene,
  reread,
  SITE_NAMES,
  type Site,
  tagNamesOf,
} from './keyless-sites.js';

const OPEN = ['volunteer'];
/** Tags that exist and are closed, and names no tag has: swapped to compare answers. */
const CLOSED = ['member', 'staff'];
const GHOSTS = ['ghost-one', 'ghost-two'];

/** The random part of a body; the email it is sent with is chosen by the test. */
const bodies = fc.record(
  {
    given_name: fc.constantFrom('Ana', 'Mallory', ''),
    family_name: fc.constantFrom('Moreno', 'Smith'),
    extraEmail: fc.option(fc.constantFrom('mallory@attacker.example.net', 'ana@work.example.org'), {
      nil: undefined,
    }),
    status: fc.option(fc.constantFrom('subscribed', 'unsubscribed', 'bouncing'), {
      nil: undefined,
    }),
    primary: fc.option(fc.boolean(), { nil: undefined }),
    phone: fc.option(fc.constantFrom(ANA_PHONE, '447700900999'), { nil: undefined }),
    postal: fc.boolean(),
    custom: fc.option(
      fc.dictionary(fc.constantFrom('team', 'shift', 'role'), fc.constantFrom('a', 'b')),
      {
        nil: undefined,
      },
    ),
    identifiers: fc.boolean(),
    tags: fc.subarray([...OPEN, ...CLOSED, 'no-such-tag']),
    lists: fc.subarray(['Newsletter', 'no-such-list']),
    comments: fc.option(fc.constantFrom('Yes!', 'Save it'), { nil: undefined }),
  },
  { requiredKeys: ['given_name', 'family_name', 'postal', 'identifiers', 'tags', 'lists'] },
);
type Drawn = typeof bodies extends fc.Arbitrary<infer T> ? T : never;

/** The body a page sends, for the person `email`, naming `closed` for the closed tags. */
function bodyOf(drawn: Drawn, email: string, closed: readonly string[]): Json {
  const emails: Json[] = [
    {
      address: email,
      ...(drawn.status ? { status: drawn.status } : {}),
      ...(drawn.primary === undefined ? {} : { primary: drawn.primary }),
    },
  ];
  if (drawn.extraEmail) emails.push({ address: drawn.extraEmail, primary: true });
  const tags = drawn.tags.map((tag) => {
    const at = CLOSED.indexOf(tag);
    return at >= 0 ? (closed[at] as string) : tag;
  });
  return {
    ...(drawn.comments ? { comments: drawn.comments } : {}),
    person: {
      given_name: drawn.given_name,
      family_name: drawn.family_name,
      email_addresses: emails,
      ...(drawn.phone ? { phone_numbers: [{ number: drawn.phone, primary: true }] } : {}),
      ...(drawn.postal
        ? {
            postal_addresses: [
              { locality: 'Elsewhere', postal_code: '00001', country: 'US', primary: true },
            ],
          }
        : {}),
      ...(drawn.custom ? { custom_fields: drawn.custom } : {}),
      ...(drawn.identifiers ? { identifiers: ['crm:stranger-1'] } : {}),
    },
    ...(tags.length > 0 ? { add_tags: tags } : {}),
    ...(drawn.lists.length > 0 ? { add_lists: drawn.lists } : {}),
  };
}

/** An answer with the names that differ between two calls put back to one spelling. */
function normalised(
  answer: { status: number; body: Json },
  email: string,
  closed: readonly string[],
) {
  let text = JSON.stringify(answer.body).replaceAll(email, '<email>');
  closed.forEach((name, at) => {
    text = text
      .replaceAll(`"${name}"`, `"<closed ${at}>"`)
      .replaceAll(`\\"${name}\\"`, `\\"<closed ${at}>\\"`);
  });
  return { status: answer.status, body: text };
}

/** What must never change about a person a stranger names. */
function stored(person: Json) {
  const { modified_date: _m, custom_fields, _links, ...rest } = person;
  return { rest, custom: custom_fields ?? {} };
}

/** Ana on file, unsubscribed (so a page's `subscribed` would show). */
const seeded = (name: Site['name']) => keylessScene(name, { tags: OPEN }, 'unsubscribed');

describe.each(SITE_NAMES)('the keyless rule as properties, under the %s preset', (name) => {
  it('a person on file: match keys and stored values never change, tags only gain open ones', async () => {
    const { site, ana, sign } = await seeded(name);
    await fc.assert(
      fc.asyncProperty(bodies, async (drawn) => {
        const before = await reread(site, ana);
        const tagsBefore = await tagNamesOf(site, ana);
        const answer = await sign(bodyOf(drawn, ANA, CLOSED));
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(500);
        const after = await reread(site, ana);
        expect(stored(after).rest).toEqual(stored(before).rest);
        expect(stored(after).custom).toMatchObject(stored(before).custom);
        const tagsAfter = await tagNamesOf(site, ana);
        expect(tagsAfter).toEqual(expect.arrayContaining(tagsBefore));
        for (const tag of tagsAfter) if (!tagsBefore.includes(tag)) expect(OPEN).toContain(tag);
      }),
      { numRuns: 25, seed: 44 },
    );
  });

  it('the answer never depends on what is stored: a known or new email, closed tags that exist or not', async () => {
    const { sign } = await seeded(name);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(bodies, async (drawn) => {
        run++;
        const fresh = `new.${run}@example.org`;
        const calls = [
          [ANA, CLOSED],
          [fresh, CLOSED],
          [ANA, GHOSTS],
          [`ghost.${fresh}`, GHOSTS],
        ] as const;
        const answers = [];
        for (const [email, closed] of calls) {
          answers.push(normalised(await sign(bodyOf(drawn, email, closed)), email, closed));
        }
        for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
      }),
      { numRuns: 25, seed: 44 },
    );
  });
});

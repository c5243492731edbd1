/**
 * The canvasser of a canvass: inlined (matched or created like any helper person), or
 * as a link to an existing person inside `canvass` (`_links: { "std:canvasser": … }`,
 * any prefix), checked like every write's links: same tenant, must exist, a person.
 */
import { describe, expect, it } from 'vitest';
import { errorOf, harness, type Json, OTHER } from './helpers.js';
import { callHelper, count, create, helperHarness, helperOf, person } from './helpers-setup.js';

async function setup() {
  const h = helperHarness();
  const target = await create(h, 'people', person('Tia', 'tia@example.org'));
  const cal = await create(h, 'people', person('Cal', 'cal@example.org'));
  return { h, target, cal, href: helperOf(target, 'record_canvass_helper') };
}

describe('the canvasser of a canvass', () => {
  it.each(['std:canvasser', 'osdi:canvasser'])(
    'as a link %s to an existing person',
    async (rel) => {
      const { h, cal, href } = await setup();
      const { status, body } = await callHelper(h, href, {
        canvass: {
          contact_type: 'door',
          success: true,
          _links: { [rel]: { href: cal._links.self.href } },
        },
      });
      expect(status, JSON.stringify(body)).toBe(201);
      expect(body._links['std:canvasser'].href).toBe(cal._links.self.href);
      // Linked as it is: no person created, Cal unchanged.
      expect(await count(h, 'people')).toBe(2);
      const stored = await h.json('GET', cal._links.self.href);
      expect(stored.body.modified_date).toBe(cal.modified_date);
    },
  );

  it('inline, matched by email like any helper person', async () => {
    const { h, cal, href } = await setup();
    const { status, body } = await callHelper(h, href, {
      canvass: { contact_type: 'door', canvasser: person('Cal', 'CAL@example.org') },
    });
    expect(status).toBe(201);
    expect(body._links['std:canvasser'].href).toBe(cal._links.self.href);
    expect(await count(h, 'people')).toBe(2);
  });

  it('refuses a link to no person of the tenant, and the canvasser given twice', async () => {
    const { h, target, cal, href } = await setup();
    const tag = await create(h, 'tags', { name: 'volunteer' });
    const stranger = await create(h, 'people', person('Sam'), OTHER);
    const hrefs = [
      tag._links.self.href,
      stranger._links.self.href,
      'http://adis.test/api/v1/people/00000000-0000-4000-8000-000000000000',
      'https://elsewhere.example/api/v1/people/1',
    ];
    for (const link of hrefs) {
      const refused = await callHelper(h, href, {
        canvass: { contact_type: 'door', _links: { 'std:canvasser': { href: link } } },
      });
      expect(refused.status, link).toBe(400);
      expect(errorOf(refused.body)[0]).toMatchObject({
        error_code: 'INVALID_LINK',
        properties: ['canvass._links.std:canvasser'],
      });
    }
    const twice = await callHelper(h, href, {
      canvass: {
        canvasser: person('Cal', 'cal@example.org'),
        _links: { 'std:canvasser': { href: cal._links.self.href } },
      },
    });
    expect(twice.status).toBe(400);
    expect(errorOf(twice.body)[0]?.error_code).toBe('INVALID_PROPERTY');
    const unknown = await callHelper(h, href, {
      canvass: { _links: { 'std:target': { href: target._links.self.href } } },
    });
    expect(unknown.status).toBe(400);
    // Nothing was written.
    expect(await count(h, 'canvasses')).toBe(0);
    expect(await count(h, 'people')).toBe(2);
  });

  it('on a server whose curie prefix is osdi', async () => {
    const h = harness({ anonymousRateLimit: false, curiePrefix: 'osdi' });
    const create = async (plural: string, body: Json): Promise<Json> => {
      const created = await h.json('POST', `/api/v1/${plural}`, { body });
      expect(created.status).toBe(201);
      return created.body;
    };
    const target = await create('people', person('Tia'));
    const cal = await create('people', person('Cal'));
    const href = target._links['osdi:record_canvass_helper'].href;
    const { status, body } = await callHelper(h, href, {
      canvass: { _links: { 'osdi:canvasser': { href: cal._links.self.href } } },
    });
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body._links['osdi:canvasser'].href).toBe(cal._links.self.href);
  });
});

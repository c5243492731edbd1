import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerKind,
  attendanceKind,
  type Collection,
  donationKind,
  formKind,
  fundraisingPageKind,
  isResourceOf,
  itemKind,
  linkTo,
  outreachKind,
  type PersonResource,
  petitionKind,
  type Resource,
  sharePageKind,
  signatureKind,
  submissionKind,
  type TaggingResource,
  type TagResource,
  taggingKind,
  wrapperKind,
} from '../../src/index.js';
import {
  type Fixture,
  httpError,
  links,
  newPerson,
  problems,
  rawRequest,
  startFixture,
} from './fixtures.js';

let f: Fixture;
let ana: PersonResource;
let ben: PersonResource;

beforeAll(async () => {
  f = await startFixture();
  [ana, ben] = await Promise.all([newPerson(f.client, 'Ana'), newPerson(f.client, 'Ben')]);
});
afterAll(() => f.server.close());

async function urlsOf<W extends Resource<object, never>>(
  collection: Collection<W>,
): Promise<string[]> {
  return (await collection.toArray()).map((record) => record.url);
}

describe('petitions and signatures', () => {
  it('signs a petition through its sub-collection and navigates both ways', async () => {
    const petition = await f.client.petitions.create({ title: 'Save the park' });
    expect(petition.data.total_signatures).toBe(0);
    const signature = await petition
      .signatures()
      .create({ comments: 'Yes!', _links: { 'std:person': linkTo(ana) } });
    expect(f.statuses.last('POST')).toBe(201);
    expect(isResourceOf(signature, signatureKind)).toBe(true);
    expect(signature.data.comments).toBe('Yes!');
    expect(signature.link('std:petition')?.url()).toBe(petition.url);

    const signer = await signature.person();
    expect(signer.url).toBe(ana.url);
    expect(signer.data.given_name).toBe('Ana');
    const signed = await signature.petition();
    expect(isResourceOf(signed, petitionKind)).toBe(true);
    expect(signed.data).toMatchObject({ title: 'Save the park', total_signatures: 1 });
    expect(await signature.organization()).toBeUndefined();

    const ofPerson = await ana.signatures().toArray();
    expect(ofPerson.every((s) => isResourceOf(s, signatureKind))).toBe(true);
    expect(ofPerson.map((s) => s.url)).toContain(signature.url);
    expect(await urlsOf(petition.signatures())).toEqual([signature.url]);
    expect(await urlsOf(f.client.signatures)).toContain(signature.url);
  });

  it('answers a sub-collection POST with 201 and a Location', async () => {
    const petition = await f.client.petitions.create({ title: 'Raw petition' });
    const href = petition.link('std:signatures')?.url() ?? '';
    const response = await rawRequest(f.server, 'POST', href, {
      _links: { 'std:person': { href: ana.url } },
    });
    expect(response.status).toBe(201);
    const location = response.headers.get('location') ?? '';
    expect(location).toMatch(/\/signatures\/[^/]+$/);
    const signature = await f.client.signatures.get(location);
    expect(signature.link('std:petition')?.url()).toBe(petition.url);
  });

  it('pages a petition with more signatures than fit on a page', async () => {
    const petition = await f.client.petitions.create({ title: 'Popular petition' });
    // 105 signers: one signature per person and petition (a second would update the first).
    const signers = await Promise.all(
      Array.from({ length: 105 }, (_, i) => newPerson(f.client, `Signer ${i}`)),
    );
    const urls = await Promise.all(
      signers.map((signer, i) =>
        petition
          .signatures()
          .create(
            { comments: `#${i}`, _links: { 'std:person': linkTo(signer) } },
            { returnResponse: false },
          ),
      ),
    );
    const pages = [];
    for await (const page of petition.signatures().pages()) pages.push(page);
    expect(pages.map((page) => page.items.length)).toEqual([100, 5]);
    expect(pages[0]?.totalRecords).toBe(105);
    const listed = pages.flatMap((page) => page.items.map((s) => s.url));
    expect(new Set(listed)).toEqual(new Set(urls));
    expect((await petition.refresh()).data.total_signatures).toBe(105);
  });

  it('keeps total_signatures exact under concurrent writes', async () => {
    const petition = await f.client.petitions.create({ title: 'Busy petition' });
    const signers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => newPerson(f.client, `Signer ${i}`)),
    );
    const signatures = await Promise.all(
      signers.map((signer, i) =>
        petition.signatures().create({
          comments: `signature ${i}`,
          _links: { 'std:person': linkTo(signer) },
        }),
      ),
    );
    expect(new Set(signatures.map((s) => s.url)).size).toBe(40);
    expect((await petition.refresh()).data.total_signatures).toBe(40);
    expect((await petition.signatures().toArray()).length).toBe(40);

    await Promise.all(signatures.slice(0, 15).map((s) => s.delete()));
    expect((await petition.refresh()).data.total_signatures).toBe(25);
    expect((await urlsOf(petition.signatures())).sort()).toEqual(
      signatures
        .slice(15)
        .map((s) => s.url)
        .sort(),
    );
  });
});

describe('forms, fundraising pages, campaigns', () => {
  it('counts a form’s submissions', async () => {
    const form = await f.client.forms.create({ title: 'Volunteer', call_to_action: 'Join' });
    const first = await form.submissions().create({
      custom_fields: { shift: 'morning' },
      _links: { 'std:person': linkTo(ana) },
    });
    expect(isResourceOf(first, submissionKind)).toBe(true);
    await form.submissions().create({ _links: { 'std:person': linkTo(ben) } });
    expect((await first.form()).url).toBe(form.url);
    expect((await first.person()).url).toBe(ana.url);
    expect((await form.refresh()).data.total_submissions).toBe(2);
    expect((await form.submissions().toArray()).length).toBe(2);
    expect(await urlsOf(ana.submissions())).toContain(first.url);
    await first.delete();
    expect((await form.refresh()).data.total_submissions).toBe(1);
  });

  it('totals a page’s donations exactly, without voided ones', async () => {
    const page = await f.client.fundraisingPages.create({ title: 'Park fund', currency: 'USD' });
    expect(page.data).toMatchObject({ total_donations: 0, total_amount: 0 });
    const donate = (amount: number, voided?: boolean) =>
      page.donations().create({
        amount,
        currency: 'USD',
        ...(voided === undefined ? {} : { voided }),
        _links: { 'std:person': linkTo(ana) },
      });
    const dime = await donate(0.1);
    await donate(0.2);
    const totals = async () => {
      const { total_donations, total_amount } = (await page.refresh()).data;
      return { total_donations, total_amount };
    };
    expect(await totals()).toEqual({ total_donations: 2, total_amount: 0.3 });

    const voided = await donate(5, true);
    expect(await totals()).toEqual({ total_donations: 2, total_amount: 0.3 });

    // Changing an amount changes the total by the difference.
    await dime.update({ amount: 1.15 });
    expect(await totals()).toEqual({ total_donations: 2, total_amount: 1.35 });
    // Un-voiding counts the donation; voiding another takes it off.
    await voided.update({ voided: false });
    expect(await totals()).toEqual({ total_donations: 3, total_amount: 6.35 });
    await dime.update({ voided: true });
    expect(await totals()).toEqual({ total_donations: 2, total_amount: 5.2 });

    // Totals a client sends are ignored.
    const echoed = await page.update({ total_donations: 99, total_amount: 1e6 });
    expect(echoed.data).toMatchObject({ total_donations: 2, total_amount: 5.2 });

    expect(isResourceOf(dime, donationKind)).toBe(true);
    expect((await dime.fundraisingPage())?.url).toBe(page.url);
    expect((await dime.person()).url).toBe(ana.url);
    expect(await urlsOf(ana.donations())).toEqual(expect.arrayContaining([dime.url, voided.url]));
    expect((await page.donations().toArray()).length).toBe(3);
  });

  it('moves totals with a donation or signature linked to another parent', async () => {
    const [from, to] = await Promise.all([
      f.client.fundraisingPages.create({ title: 'From' }),
      f.client.fundraisingPages.create({ title: 'To' }),
    ]);
    const donation = await from
      .donations()
      .create({ amount: 12.5, _links: links({ 'std:person': ana }) });
    const moved = await donation.update({ _links: links({ 'std:fundraising_page': to }) });
    expect((await moved.fundraisingPage())?.url).toBe(to.url);
    expect((await from.refresh()).data).toMatchObject({ total_donations: 0, total_amount: 0 });
    expect((await to.refresh()).data).toMatchObject({ total_donations: 1, total_amount: 12.5 });
    expect(await from.donations().toArray()).toEqual([]);
    expect(await urlsOf(to.donations())).toEqual([donation.url]);
    // The page link of a donation is optional: without it the donation counts nowhere.
    const loose = await moved.update({ _links: { 'std:fundraising_page': null } });
    expect(await loose.fundraisingPage()).toBeUndefined();
    expect((await to.refresh()).data).toMatchObject({ total_donations: 0, total_amount: 0 });

    const [a, b] = await Promise.all([
      f.client.petitions.create({ title: 'First' }),
      f.client.petitions.create({ title: 'Second' }),
    ]);
    const signature = await a.signatures().create({ _links: links({ 'std:person': ana }) });
    await signature.update({ _links: links({ 'std:petition': b }) });
    expect((await a.refresh()).data.total_signatures).toBe(0);
    expect((await b.refresh()).data.total_signatures).toBe(1);
    expect(await urlsOf(b.signatures())).toEqual([signature.url]);
  });

  it('counts a campaign’s outreaches', async () => {
    const campaign = await f.client.advocacyCampaigns.create({ title: 'Call your senator' });
    expect(campaign.data.total_outreaches).toBe(0);
    const outreach = await campaign.outreaches().create({
      type: 'phone',
      duration: 90,
      targets: [{ title: 'Senator', family_name: 'Lopez' }],
      _links: { 'std:person': linkTo(ana) },
    });
    expect(isResourceOf(outreach, outreachKind)).toBe(true);
    await campaign.outreaches().create({ type: 'email', _links: { 'std:person': linkTo(ben) } });
    expect((await campaign.refresh()).data.total_outreaches).toBe(2);
    expect((await outreach.advocacyCampaign()).url).toBe(campaign.url);
    expect(await urlsOf(ana.outreaches())).toContain(outreach.url);
    await outreach.delete();
    expect((await campaign.refresh()).data.total_outreaches).toBe(1);
  });

  it('derives total_shares from the share options', async () => {
    const petition = await f.client.petitions.create({
      title: 'Shared petition',
      share_options: [
        { network_a_share: { title: 'Sign', total_shares: 3 }, email_share: { total_shares: 4 } },
        { facebook_share: { title: 'Sign', total_shares: 5 } },
      ],
    });
    expect(petition.data.total_shares).toBe(12);
    const updated = await petition.update({
      share_options: [{ network_b_share: { message: 'Sign', total_shares: 2 } }],
      total_shares: 1000,
    });
    expect(updated.data.total_shares).toBe(2);
    const page = await f.client.sharePages.create({
      name: 'share',
      share_options: [{ email_share: { total_shares: 7 } }, { network_a_share: {} }],
    });
    expect(page.data.total_shares).toBe(7);
  });
});

describe('links between records', () => {
  it('lists an organization’s petitions, events and actions', async () => {
    const organization = await f.client.organizations.create({ organization: 'Park Friends' });
    const petition = await f.client.petitions.create({
      title: 'Sponsored',
      _links: { 'std:sponsor': linkTo(organization) },
    });
    const unsponsored = await f.client.petitions.create({ title: 'Not sponsored' });
    const event = await f.client.events.create({
      title: 'Sponsored event',
      _links: { 'std:sponsor': linkTo(organization) },
    });
    expect((await petition.sponsor())?.url).toBe(organization.url);
    expect(await unsponsored.sponsor()).toBeUndefined();
    expect(await urlsOf(organization.petitions())).toEqual([petition.url]);
    expect(await urlsOf(organization.events())).toEqual([event.url]);

    const signature = await unsponsored.signatures().create({
      _links: links({ 'std:person': ana, 'std:organization': organization }),
    });
    expect((await signature.organization())?.url).toBe(organization.url);
    const signatures = await organization.signatures().toArray();
    expect(signatures.map((s) => s.url)).toEqual([signature.url]);
    expect(isResourceOf(signatures[0], signatureKind)).toBe(true);
    expect(await organization.donations().toArray()).toEqual([]);

    // An organization can be put on a list.
    const list = await f.client.lists.create({ name: 'Partner organizations' });
    const item = await list.items().create({ _links: links({ 'std:organization': organization }) });
    expect(item.data.item_type).toBe('organization');
    expect((await item.organization())?.url).toBe(organization.url);
    expect(await item.person()).toBeUndefined();
    const items = await organization.items().toArray();
    expect(items.map((i) => i.url)).toEqual([item.url]);
    expect(isResourceOf(items[0], itemKind)).toBe(true);

    // Removing the optional link takes the petition out of the sub-collection.
    const dropped = await petition.update({ _links: { 'std:sponsor': null } });
    expect(dropped.link('std:sponsor')).toBeUndefined();
    expect(await organization.petitions().toArray()).toEqual([]);
  });

  it('gives a person typed collections of everything they did', async () => {
    const cara = await newPerson(f.client, 'Cara');
    const petition = await f.client.petitions.create({ title: 'For Cara' });
    const form = await f.client.forms.create({ title: 'For Cara' });
    const page = await f.client.fundraisingPages.create({ title: 'For Cara' });
    const campaign = await f.client.advocacyCampaigns.create({ title: 'For Cara' });
    const event = await f.client.events.create({ title: 'For Cara', type: 'open' });
    const question = await f.client.questions.create({
      question_type: 'SingleChoice',
      responses: [{ key: 'yes' }, { key: 'no' }],
    });
    const tag = await f.client.tags.create({ name: 'cara-tag' });
    const list = await f.client.lists.create({ name: 'cara-list' });
    const person = { _links: { 'std:person': linkTo(cara) } };
    const made = {
      signatures: await petition.signatures().create(person),
      submissions: await form.submissions().create(person),
      donations: await page.donations().create({ amount: 5, ...person }),
      outreaches: await campaign.outreaches().create(person),
      attendances: await event.attendances().create({ status: 'accepted', ...person }),
      answers: await question.answers().create({ responses: ['yes'], ...person }),
      taggings: await tag.taggings().create(person),
      items: await list.items().create(person),
    };
    const found = {
      signatures: await cara.signatures().toArray(),
      submissions: await cara.submissions().toArray(),
      donations: await cara.donations().toArray(),
      outreaches: await cara.outreaches().toArray(),
      attendances: await cara.attendances().toArray(),
      answers: await cara.answers().toArray(),
      taggings: await cara.taggings().toArray(),
      items: await cara.items().toArray(),
    };
    const kinds = {
      signatures: signatureKind,
      submissions: submissionKind,
      donations: donationKind,
      outreaches: outreachKind,
      attendances: attendanceKind,
      answers: answerKind,
      taggings: taggingKind,
      items: itemKind,
    };
    for (const key of Object.keys(made) as (keyof typeof made)[]) {
      expect(
        found[key].map((r) => r.url),
        key,
      ).toEqual([made[key].url]);
      expect(isResourceOf(found[key][0], kinds[key]), key).toBe(true);
    }
    expect(found.attendances[0]?.data.status).toBe('accepted');
    expect(found.answers[0]?.data.responses).toEqual(['yes']);
    expect(found.taggings[0]?.data.item_type).toBe('person');
    expect(found.items[0]?.data.item_type).toBe('person');
    expect((await found.items[0]?.list())?.url).toBe(list.url);
    expect((await found.taggings[0]?.tag())?.url).toBe(tag.url);
    expect((await found.attendances[0]?.event())?.url).toBe(event.url);
    expect((await found.answers[0]?.question())?.url).toBe(question.url);
    expect((await event.refresh()).data.total_accepted).toBe(1);
    expect((await list.refresh()).data.total_items).toBe(1);
  });

  it('links a content record’s creator and last editor', async () => {
    const petition = await f.client.petitions.create({
      title: 'Authored',
      _links: links({ 'std:creator': ana, 'std:modified_by': ben }),
    });
    const creator = await petition.creator();
    expect(creator?.url).toBe(ana.url);
    expect(creator?.data.given_name).toBe('Ana');
    expect((await petition.modifiedBy())?.url).toBe(ben.url);

    const edited = await petition.update({
      title: 'Authored, edited',
      _links: { 'std:modified_by': linkTo(ana) },
    });
    expect((await edited.creator())?.url).toBe(ana.url);
    expect((await edited.modifiedBy())?.url).toBe(ana.url);
    const orphan = await edited.update({ _links: { 'std:creator': null } });
    expect(await orphan.creator()).toBeUndefined();
    expect((await orphan.modifiedBy())?.url).toBe(ana.url);
  });

  it('tags petitions, forms, fundraising pages, share pages and wrappers', async () => {
    const tag: TagResource = await f.client.tags.create({ name: 'featured' });
    const targets = [
      ['petition', await f.client.petitions.create({ title: 'Tagged' }), petitionKind],
      ['form', await f.client.forms.create({ title: 'Tagged' }), formKind],
      [
        'fundraising_page',
        await f.client.fundraisingPages.create({ title: 'Tagged' }),
        fundraisingPageKind,
      ],
      ['share_page', await f.client.sharePages.create({ name: 'Tagged' }), sharePageKind],
      ['wrapper', await f.client.wrappers.create({ name: 'Tagged' }), wrapperKind],
    ] as const;
    const taggings: TaggingResource[] = [];
    for (const [type, target, kind] of targets) {
      const tagging = await tag.taggings().create({ _links: { [`std:${type}`]: linkTo(target) } });
      taggings.push(tagging);
      expect(tagging.data.item_type).toBe(type);
      expect((await tagging.tag()).url).toBe(tag.url);
      const tagged = await tagging.target();
      expect(isResourceOf(tagged, kind), type).toBe(true);
      expect(tagged?.url).toBe(target.url);
      const ofTarget = await target.taggings().toArray();
      expect(
        ofTarget.map((t) => t.url),
        type,
      ).toEqual([tagging.url]);
    }
    expect(await urlsOf(tag.taggings())).toEqual(taggings.map((t) => t.url));
    // A tagging of another tag, on the same petition, is not the tag's.
    const other = await f.client.tags.create({ name: 'archived' });
    const [, petition] = targets[0];
    await f.client.taggings.create({
      _links: links({ 'std:tag': other, 'std:petition': petition }),
    });
    expect((await petition.taggings().toArray()).length).toBe(2);
    expect((await tag.taggings().toArray()).length).toBe(5);
  });
});

describe('link errors', () => {
  it('reports every missing required link', async () => {
    const error = await httpError(f.client.signatures.create({ comments: 'No links' }), 400);
    expect(problems(error)).toEqual(
      expect.arrayContaining([
        { code: 'MISSING_LINK', properties: ['_links.std:person'] },
        { code: 'MISSING_LINK', properties: ['_links.std:petition'] },
      ]),
    );
    // Calls, not promises: a request started before its turn could reject unobserved.
    const cases = [
      [() => f.client.taggings.create({ _links: { 'std:person': linkTo(ana) } }), '_links.std:tag'],
      [() => f.client.items.create({ _links: { 'std:person': linkTo(ana) } }), '_links.std:list'],
      [() => f.client.canvasses.create({ contact_type: 'door' }), '_links.std:target'],
      [() => f.client.donations.create({ amount: 5 }), '_links.std:person'],
    ] as const;
    for (const [call, property] of cases) {
      const failure = await httpError(call(), 400);
      expect(problems(failure), property).toContainEqual({
        code: 'MISSING_LINK',
        properties: [property],
      });
    }
    // Records that link exactly one of several kinds refuse none and two.
    const list = await f.client.lists.create({ name: 'Exactly one' });
    const organization = await f.client.organizations.create({ organization: 'One' });
    const none = await httpError(list.items().create({}), 400);
    expect(problems(none)).toEqual([
      { code: 'MISSING_LINK', properties: ['_links.std:person', '_links.std:organization'] },
    ]);
    const both = await httpError(
      list
        .items()
        .create({ _links: links({ 'std:person': ana, 'std:organization': organization }) }),
      400,
    );
    // Too many links is a wrong link, not a missing one.
    expect(problems(both)).toEqual([
      { code: 'INVALID_LINK', properties: ['_links.std:person', '_links.std:organization'] },
    ]);
    const tag = await f.client.tags.create({ name: 'exactly-one' });
    // The SDK refuses a tagging of two records before sending; the server does too.
    const two = await httpError(
      f.lax.taggings.create({
        _links: links({ 'std:tag': tag, 'std:person': ana, 'std:organization': organization }),
      }),
      400,
    );
    expect(problems(two)).toEqual([{ code: 'INVALID_LINK', properties: ['_links'] }]);

    // A required link cannot be removed either.
    const petition = await f.client.petitions.create({ title: 'Keep the signer' });
    const signature = await petition.signatures().create({ _links: links({ 'std:person': ana }) });
    const removal = await httpError(signature.update({ _links: { 'std:person': null } }), 400);
    expect(problems(removal)).toContainEqual({
      code: 'MISSING_LINK',
      properties: ['_links.std:person'],
    });
    expect((await signature.refresh()).link('std:person')?.url()).toBe(ana.url);
  });

  it('refuses links to the wrong kind, another tenant, or an unknown relation', async () => {
    const petition = await f.client.petitions.create({ title: 'Linked wrongly' });
    const stranger = await f.other.people.create({ given_name: 'Stranger' });
    const invalid = async (call: Promise<unknown>, property: string) => {
      const error = await httpError(call, 400);
      expect(problems(error), property).toContainEqual(
        expect.objectContaining({ code: 'INVALID_LINK', properties: [property] }),
      );
    };
    // A petition where a person is expected.
    await invalid(
      petition.signatures().create({ _links: { 'std:person': linkTo(petition) } }),
      '_links.std:person',
    );
    // A person of another tenant.
    await invalid(
      petition.signatures().create({ _links: { 'std:person': linkTo(stranger) } }),
      '_links.std:person',
    );
    // A relation signatures do not have.
    await invalid(
      petition.signatures().create({ _links: links({ 'std:person': ana, 'std:tag': ana }) }),
      '_links.std:tag',
    );
    // An href that names no record of this server.
    await invalid(
      petition.signatures().create({
        _links: { 'std:person': { href: 'https://elsewhere.example/people/1' } },
      }),
      '_links.std:person',
    );
    // A creator must be a person, also on update.
    await invalid(
      petition.update({ _links: { 'std:creator': linkTo(petition) } }),
      '_links.std:creator',
    );
    expect((await petition.refresh()).data.total_signatures).toBe(0);
    expect((await petition.refresh()).link('std:creator')).toBeUndefined();
  });

  it('refuses a sub-collection POST whose parent link disagrees', async () => {
    const a = await f.client.petitions.create({ title: 'Petition A' });
    const b = await f.client.petitions.create({ title: 'Petition B' });
    const error = await httpError(
      a.signatures().create({ _links: links({ 'std:person': ana, 'std:petition': b }) }),
      400,
    );
    expect(problems(error)).toContainEqual(
      expect.objectContaining({ code: 'INVALID_LINK', properties: ['_links.std:petition'] }),
    );
    expect((await a.refresh()).data.total_signatures).toBe(0);
    expect((await b.refresh()).data.total_signatures).toBe(0);
    // The same link to the parent itself is accepted.
    const same = await a
      .signatures()
      .create({ _links: links({ 'std:person': ana, 'std:petition': a }) });
    expect(same.link('std:petition')?.url()).toBe(a.url);
  });
});

describe('cascades', () => {
  it('deletes a petition’s signatures with it', async () => {
    const dana = await newPerson(f.client, 'Dana');
    const petition = await f.client.petitions.create({ title: 'Short-lived' });
    const kept = await f.client.petitions.create({ title: 'Long-lived' });
    const gone = await petition.signatures().create({ _links: links({ 'std:person': dana }) });
    const stays = await kept.signatures().create({ _links: links({ 'std:person': dana }) });
    expect((await urlsOf(dana.signatures())).sort()).toEqual([gone.url, stays.url].sort());

    await petition.delete();
    await httpError(f.client.petitions.get(petition.url), 404);
    await httpError(f.client.signatures.get(gone.url), 404);
    expect(await urlsOf(dana.signatures())).toEqual([stays.url]);
    expect((await kept.refresh()).data.total_signatures).toBe(1);
    // The deleted petition's sub-collection is gone too.
    await httpError(petition.signatures().toArray(), 404);
    await httpError(petition.signatures().create({ _links: links({ 'std:person': dana }) }), 404);
  });

  it('deleting a canvass target deletes the canvass and unlinks its answers', async () => {
    const [target, canvasser, answerer] = await Promise.all([
      newPerson(f.client, 'Target'),
      newPerson(f.client, 'Canvasser'),
      newPerson(f.client, 'Answerer'),
    ]);
    const question = await f.client.questions.create({
      question_type: 'Paragraph',
      title: 'Anything else?',
    });
    const canvass = await f.client.canvasses.create({
      contact_type: 'door',
      success: true,
      _links: links({ 'std:target': target, 'std:canvasser': canvasser }),
    });
    expect((await canvass.target()).url).toBe(target.url);
    expect((await canvass.canvasser())?.url).toBe(canvasser.url);
    const answer = await question.answers().create({
      value: 'Fix the swings',
      _links: links({ 'std:person': answerer, 'std:canvass': canvass }),
    });
    expect(await urlsOf(canvass.answers())).toEqual([answer.url]);

    // The canvasser is optional: deleting them only unlinks.
    await canvasser.delete();
    const uncanvassed = await canvass.refresh();
    expect(await uncanvassed.canvasser()).toBeUndefined();

    await target.delete();
    await httpError(f.client.canvasses.get(canvass.url), 404);
    const kept = await answer.refresh();
    expect(kept.data.value).toBe('Fix the swings');
    expect(await kept.canvass()).toBeUndefined();
    expect((await kept.question()).url).toBe(question.url);
  });

  it('deleting a person removes their actions and their creator links', async () => {
    const eve = await newPerson(f.client, 'Eve');
    const authored = await f.client.petitions.create({
      title: 'By Eve',
      _links: links({ 'std:creator': eve, 'std:modified_by': ben }),
    });
    const signature = await authored.signatures().create({ _links: links({ 'std:person': eve }) });
    await authored.signatures().create({ _links: links({ 'std:person': ben }) });
    expect((await authored.refresh()).data.total_signatures).toBe(2);

    await eve.delete();
    const after = await f.client.petitions.get(authored.url);
    expect(after.data.title).toBe('By Eve');
    expect(after.link('std:creator')).toBeUndefined();
    expect(await after.creator()).toBeUndefined();
    expect((await after.modifiedBy())?.url).toBe(ben.url);
    expect(after.data.total_signatures).toBe(1);
    await httpError(f.client.signatures.get(signature.url), 404);
  });

  it('deleting a parent removes what requires it and unlinks what only mentions it', async () => {
    const tag = await f.client.tags.create({ name: 'short-lived-tag' });
    const tagging = await tag.taggings().create({ _links: links({ 'std:person': ana }) });
    const list = await f.client.lists.create({ name: 'short-lived-list' });
    const item = await list.items().create({ _links: links({ 'std:person': ana }) });
    const organization = await f.client.organizations.create({ organization: 'Short-lived' });
    const petition = await f.client.petitions.create({
      title: 'Outlives its sponsor',
      _links: links({ 'std:sponsor': organization }),
    });
    const signature = await petition.signatures().create({
      _links: links({ 'std:person': ana, 'std:organization': organization }),
    });
    const page = await f.client.fundraisingPages.create({ title: 'Short-lived page' });
    const donation = await page.donations().create({
      amount: 3,
      _links: links({ 'std:person': ana }),
    });

    await Promise.all([tag.delete(), list.delete(), organization.delete(), page.delete()]);
    await httpError(f.client.taggings.get(tagging.url), 404);
    await httpError(f.client.items.get(item.url), 404);
    expect(await urlsOf(ana.taggings())).not.toContain(tagging.url);
    expect(await urlsOf(ana.items())).not.toContain(item.url);

    const unsponsored = await petition.refresh();
    expect(unsponsored.link('std:sponsor')).toBeUndefined();
    const kept = await signature.refresh();
    expect(kept.link('std:organization')).toBeUndefined();
    expect((await kept.person()).url).toBe(ana.url);
    expect(unsponsored.data.total_signatures).toBe(1);
    const unpaged = await donation.refresh();
    expect(unpaged.link('std:fundraising_page')).toBeUndefined();
    expect(unpaged.data.amount).toBe(3);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdvocacyCampaignResource,
  type AnyKind,
  advocacyCampaignKind,
  answerKind,
  attendanceKind,
  type Client,
  type Collection,
  type CollectionOf,
  canvassKind,
  donationKind,
  type EventResource,
  eventKind,
  type Filter,
  type FormResource,
  type FundraisingPageResource,
  field,
  formKind,
  fundraisingPageKind,
  type InputOf,
  isResourceOf,
  isSchemaValidationError,
  itemKind,
  type ListResource,
  linkTo,
  listKind,
  messageKind,
  type OrganizationResource,
  organizationKind,
  outreachKind,
  type PersonResource,
  type PetitionResource,
  personKind,
  petitionKind,
  type QuestionResource,
  queryKind,
  questionKind,
  type Resource,
  sharePageKind,
  signatureKind,
  submissionKind,
  type TagResource,
  taggingKind,
  tagKind,
  type WrapperResource,
  wrapperKind,
} from '../../src/index.js';
import { type Fixture, httpError, links, newPerson, problems, startFixture } from './fixtures.js';

/** The records the action and record kinds link to. */
interface Deps {
  person: PersonResource;
  /**
   * A signer per `n`: a signature, submission or attendance is one per person and
   * petition, form or event, so a second create by the same person updates the first.
   */
  signers: readonly PersonResource[];
  canvasser: PersonResource;
  organization: OrganizationResource;
  petition: PetitionResource;
  form: FormResource;
  page: FundraisingPageResource;
  campaign: AdvocacyCampaignResource;
  event: EventResource;
  question: QuestionResource;
  tag: TagResource;
  list: ListResource;
  wrapper: WrapperResource;
}

type AnyResource = Resource<object, unknown>;
type AnyCollection = Collection<AnyResource>;

/**
 * One kind's CRUD case: a create input (`n` makes unique names) and the changes of an
 * update. Every update sets `identifiers`, so every kind shows an array replaced whole;
 * kinds with array fields replace one of those too, and every update clears one field
 * with `null`.
 */
interface CrudCase {
  name: string;
  /** The kind the SDK reads the records as. */
  kind: AnyKind;
  collection(client: Client): AnyCollection;
  input(deps: Deps, n: number): Record<string, unknown>;
  changes(deps: Deps, n: number): Record<string, unknown>;
}

/**
 * Keeps each case's input and changes typed by its kind, then erases the types for the
 * table. Curried so that the kind is fixed before the case is checked: the literals of
 * enum fields then keep their literal types.
 */
function crud<K extends AnyKind>(kind: K) {
  return (spec: {
    name: string;
    collection(client: Client): CollectionOf<K>;
    input(deps: Deps, n: number): InputOf<K>;
    changes(deps: Deps, n: number): InputOf<K>;
  }): CrudCase => ({ ...spec, kind }) as unknown as CrudCase;
}

const run = crypto.randomUUID().slice(0, 8);
const ids = (name: string, n: number, ...suffixes: string[]) =>
  (suffixes.length ? suffixes : ['a']).map((s) => `crm:${name}-${n}-${s}-${run}`);

/** The person who acts in case `n` (see {@link Deps.signers}). */
const signer = (d: Deps, n: number): PersonResource => d.signers[n] ?? d.person;

const shareOptions = [
  { network_a_share: { title: 'Save the park', total_shares: 3 } },
  { email_share: { subject: 'Sign this', body: 'Please sign' } },
];

const CASES: CrudCase[] = [
  crud(personKind)({
    name: 'people',
    collection: (c) => c.people,
    input: (_d, n) => ({
      identifiers: ids('person', n, 'a', 'b'),
      given_name: `Ana ${n}`,
      family_name: 'Lopez',
      honorific_prefix: 'Dr.',
      email_addresses: [
        { address: `ana.${n}.${run}@example.org`, primary: true },
        { address: `ana.${n}.${run}@work.example.org` },
      ],
    }),
    changes: (_d, n) => ({
      identifiers: ids('person', n, 'c'),
      family_name: 'Lopez-Garcia',
      honorific_prefix: null,
      email_addresses: [{ address: `ana.new.${n}.${run}@example.org`, primary: true }],
    }),
  }),
  crud(organizationKind)({
    name: 'organizations',
    collection: (c) => c.organizations,
    input: (_d, n) => ({
      identifiers: ids('org', n),
      organization: `Park Friends ${n}`,
      summary: 'Friends of Elm Park',
      description: 'A neighbourhood group',
      languages_spoken: ['en', 'es'],
      email_addresses: [{ address: `info.${n}.${run}@parkfriends.example.org`, primary: true }],
    }),
    changes: (_d, n) => ({
      identifiers: ids('org', n, 'b'),
      organization: `Elm Park Friends ${n}`,
      description: null,
      languages_spoken: ['fr'],
    }),
  }),
  crud(petitionKind)({
    name: 'petitions',
    collection: (c) => c.petitions,
    input: (_d, n) => ({
      identifiers: ids('petition', n),
      title: `Save the park ${n}`,
      summary: 'Keep Elm Park public',
      description: 'The council plans to sell the park.',
      petition_text: 'We ask the council to keep Elm Park public.',
      target: [{ name: 'City Council' }, { name: 'Mayor' }],
      share_options: shareOptions,
    }),
    changes: (_d, n) => ({
      identifiers: ids('petition', n, 'b'),
      title: `Save Elm Park ${n}`,
      description: null,
      target: [{ name: 'Governor' }],
    }),
  }),
  crud(formKind)({
    name: 'forms',
    collection: (c) => c.forms,
    input: (_d, n) => ({
      identifiers: ids('form', n),
      title: `Volunteer sign-up ${n}`,
      description: 'Tell us how you can help',
      call_to_action: 'Sign up',
      share_options: shareOptions,
    }),
    changes: (_d, n) => ({
      identifiers: ids('form', n, 'b'),
      call_to_action: 'Join us',
      description: null,
      share_options: [{ email_share: { subject: 'Join us' } }],
    }),
  }),
  crud(fundraisingPageKind)({
    name: 'fundraising pages',
    collection: (c) => c.fundraisingPages,
    input: (_d, n) => ({
      identifiers: ids('page', n),
      title: `Park fund ${n}`,
      description: 'Help us buy the park',
      currency: 'EUR',
      share_options: shareOptions,
    }),
    changes: (_d, n) => ({
      identifiers: ids('page', n, 'b'),
      currency: 'USD',
      description: null,
      share_options: [{ network_b_share: { message: 'Give today' } }],
    }),
  }),
  crud(sharePageKind)({
    name: 'share pages',
    collection: (c) => c.sharePages,
    input: (_d, n) => ({
      identifiers: ids('share', n),
      name: `share-${n}`,
      title: `Share the park ${n}`,
      description: 'Tell your friends',
      share_url: 'https://example.org/park',
      share_options: shareOptions,
    }),
    changes: (_d, n) => ({
      identifiers: ids('share', n, 'b'),
      title: `Share Elm Park ${n}`,
      description: null,
      share_options: [{ facebook_share: { title: 'Elm Park', total_shares: 7 } }],
    }),
  }),
  crud(advocacyCampaignKind)({
    name: 'advocacy campaigns',
    collection: (c) => c.advocacyCampaigns,
    input: (_d, n) => ({
      identifiers: ids('campaign', n),
      title: `Call your senator ${n}`,
      description: 'Ask them to vote yes',
      templates: ['Hello, I am calling about…', 'Dear Senator…'],
      targets: 'all state senators',
      target_list: [{ title: 'Senator', given_name: 'Ana', family_name: 'Lopez' }],
      type: 'phone',
    }),
    changes: (_d, n) => ({
      identifiers: ids('campaign', n, 'b'),
      templates: ['Dear Senator, please vote yes.'],
      description: null,
      type: 'email',
    }),
  }),
  crud(eventKind)({
    name: 'events',
    collection: (c) => c.events,
    input: (_d, n) => ({
      identifiers: ids('event', n),
      title: `Park cleanup ${n}`,
      description: 'Bring gloves',
      type: 'open',
      status: 'confirmed',
      start_date: '2030-05-01T10:00:00Z',
      end_date: '2030-05-01T12:00:00Z',
      capacity: 100,
      location: { venue: 'Elm Park', locality: 'Springfield', region: 'IL', country: 'US' },
      reminders: [
        { method: 'email', minutes: 1440 },
        { method: 'sms', minutes: 60 },
      ],
    }),
    changes: (_d, n) => ({
      identifiers: ids('event', n, 'b'),
      capacity: 50,
      description: null,
      location: { venue: 'Elm Park gate' },
      reminders: [{ method: 'email', minutes: 120 }],
    }),
  }),
  crud(questionKind)({
    name: 'questions',
    collection: (c) => c.questions,
    input: (_d, n) => ({
      identifiers: ids('question', n),
      name: `park-support-${n}`,
      title: 'Do you support keeping the park?',
      description: 'Asked at the door',
      question_type: 'SingleChoice',
      responses: [
        { key: 'yes', name: 'Supports', title: 'Yes' },
        { key: 'no', name: 'Opposes', title: 'No' },
      ],
    }),
    changes: (_d, n) => ({
      identifiers: ids('question', n, 'b'),
      description: null,
      responses: [{ key: 'maybe', name: 'Undecided', title: 'Maybe' }],
    }),
  }),
  crud(wrapperKind)({
    name: 'wrappers',
    collection: (c) => c.wrappers,
    input: (_d, n) => ({
      identifiers: ids('wrapper', n),
      name: `Newsletter wrapper ${n}`,
      header: '<p>Hello</p>',
      footer: '<p>Unsubscribe</p>',
      wrapper_type: 'email',
      default: false,
    }),
    changes: (_d, n) => ({
      identifiers: ids('wrapper', n, 'b'),
      header: '<p>Hi</p>',
      footer: null,
    }),
  }),
  crud(messageKind)({
    name: 'messages',
    collection: (c) => c.messages,
    input: (d, n) => ({
      identifiers: ids('message', n),
      name: `Spring appeal ${n}`,
      subject: 'Save the park',
      body: 'Please sign',
      from: 'Park Friends',
      reply_to: 'reply@example.org',
      type: 'email',
      _links: links({ 'std:wrapper': d.wrapper, 'std:list': d.list }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('message', n, 'b'),
      subject: 'Save Elm Park',
      body: null,
    }),
  }),
  crud(tagKind)({
    name: 'tags',
    collection: (c) => c.tags,
    input: (_d, n) => ({
      identifiers: ids('tag', n),
      name: `volunteer-${n}-${run}`,
      description: 'Offered to help',
    }),
    changes: (_d, n) => ({
      identifiers: ids('tag', n, 'b'),
      name: `helper-${n}-${run}`,
      description: null,
    }),
  }),
  crud(listKind)({
    name: 'lists',
    collection: (c) => c.lists,
    input: (_d, n) => ({
      identifiers: ids('list', n),
      name: `Callers ${n} ${run}`,
      title: 'Phone bank callers',
      description: 'People who call',
      browser_url: 'https://example.org/lists/callers',
    }),
    changes: (_d, n) => ({
      identifiers: ids('list', n, 'b'),
      title: 'Callers',
      description: null,
    }),
  }),
  crud(queryKind)({
    name: 'queries',
    collection: (c) => c.queries,
    input: (_d, n) => ({
      identifiers: ids('query', n),
      name: `Donors ${n}`,
      title: 'Donors this year',
      description: 'Everyone who gave',
      filter: "modified_date gt '2026-01-01T00:00:00Z'",
    }),
    changes: (_d, n) => ({
      identifiers: ids('query', n, 'b'),
      filter: "modified_date gt '2027-01-01T00:00:00Z'",
      description: null,
    }),
  }),
  crud(signatureKind)({
    name: 'signatures',
    collection: (c) => c.signatures,
    input: (d, n) => ({
      identifiers: ids('signature', n),
      comments: 'The park matters to my kids.',
      origin_system: 'Petition site',
      action_date: '2026-03-01T10:00:00Z',
      referrer_data: { source: 'email-0412' },
      _links: links({ 'std:person': signer(d, n), 'std:petition': d.petition }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('signature', n, 'b'),
      comments: 'Keep it public!',
      origin_system: null,
      referrer_data: { website: 'example.org' },
    }),
  }),
  crud(submissionKind)({
    name: 'submissions',
    collection: (c) => c.submissions,
    input: (d, n) => ({
      identifiers: ids('submission', n),
      origin_system: 'Form site',
      action_date: '2026-03-01T10:00:00Z',
      custom_fields: { shift: 'morning', tshirt: 'M' },
      _links: links({ 'std:person': signer(d, n), 'std:form': d.form }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('submission', n, 'b'),
      origin_system: null,
      custom_fields: { shift: 'evening' },
    }),
  }),
  crud(donationKind)({
    name: 'donations',
    collection: (c) => c.donations,
    input: (d, n) => ({
      identifiers: ids('donation', n),
      amount: 25,
      currency: 'USD',
      recipients: [
        { display_name: 'Park Fund', amount: 20 },
        { display_name: 'Legal Fund', amount: 5 },
      ],
      payment: { method: 'Check', reference_number: '1042' },
      _links: links({ 'std:person': d.person, 'std:fundraising_page': d.page }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('donation', n, 'b'),
      amount: 30,
      recipients: [{ display_name: 'Park Fund', amount: 30 }],
      payment: null,
    }),
  }),
  crud(outreachKind)({
    name: 'outreaches',
    collection: (c) => c.outreaches,
    input: (d, n) => ({
      identifiers: ids('outreach', n),
      type: 'phone',
      duration: 120,
      subject: 'Vote yes',
      notes: 'Left a message',
      targets: [
        { title: 'Senator', family_name: 'Lopez' },
        { title: 'Senator', family_name: 'Kim' },
      ],
      _links: links({ 'std:person': d.person, 'std:advocacy_campaign': d.campaign }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('outreach', n, 'b'),
      duration: 60,
      notes: null,
      targets: [{ title: 'Senator', family_name: 'Ng' }],
    }),
  }),
  crud(attendanceKind)({
    name: 'attendances',
    collection: (c) => c.attendances,
    input: (d, n) => ({
      identifiers: ids('attendance', n),
      status: 'accepted',
      comment: 'Bringing two friends',
      tickets: [
        { title: 'General', amount: 10, currency: 'USD' },
        { title: 'General', amount: 10, currency: 'USD' },
      ],
      _links: links({ 'std:person': signer(d, n), 'std:event': d.event }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('attendance', n, 'b'),
      status: 'tentative',
      comment: null,
      tickets: [{ title: 'General', amount: 10, currency: 'USD' }],
    }),
  }),
  crud(answerKind)({
    name: 'answers',
    collection: (c) => c.answers,
    input: (d, n) => ({
      identifiers: ids('answer', n),
      origin_system: 'Door app',
      responses: ['a', 'b'],
      _links: links({ 'std:person': d.person, 'std:question': d.question }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('answer', n, 'b'),
      origin_system: null,
      responses: ['c'],
    }),
  }),
  crud(taggingKind)({
    name: 'taggings',
    collection: (c) => c.taggings,
    input: (d, n) => ({
      identifiers: ids('tagging', n),
      origin_system: 'CRM',
      _links: links({ 'std:tag': d.tag, 'std:person': d.person }),
    }),
    changes: (_d, n) => ({ identifiers: ids('tagging', n, 'b'), origin_system: null }),
  }),
  crud(itemKind)({
    name: 'items',
    collection: (c) => c.items,
    input: (d, n) => ({
      identifiers: ids('item', n),
      origin_system: 'CRM',
      _links: links({ 'std:list': d.list, 'std:person': d.person }),
    }),
    changes: (_d, n) => ({ identifiers: ids('item', n, 'b'), origin_system: null }),
  }),
  crud(canvassKind)({
    name: 'canvasses',
    collection: (c) => c.canvasses,
    input: (d, n) => ({
      identifiers: ids('canvass', n),
      origin_system: 'Door app',
      action_date: '2026-03-01T10:00:00Z',
      contact_type: 'door',
      input_type: 'mobile_app',
      success: false,
      status_code: 'not_home',
      _links: links({ 'std:target': d.person, 'std:canvasser': d.canvasser }),
    }),
    changes: (_d, n) => ({
      identifiers: ids('canvass', n, 'b'),
      success: true,
      status_code: null,
      origin_system: null,
    }),
  }),
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The members of a write body other than `_links` and `identifiers`. */
function fieldsOf(body: Record<string, unknown>): Record<string, unknown> {
  const { _links: _l, identifiers: _i, ...fields } = body;
  return fields;
}

/** What a PUT should leave: objects merged, arrays replaced whole, `null` removing. */
function merged(current: Record<string, unknown>, patch: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    const before = out[key];
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(before)) out[key] = merged(before, value);
    else out[key] = value;
  }
  return out;
}

function withoutModifiedDate(data: object): Record<string, unknown> {
  const { modified_date: _m, ...rest } = data as Record<string, unknown>;
  return rest;
}

/** The identifiers a record should carry: its local one and the foreign ones sent. */
function expectIdentifiers(f: Fixture, resource: AnyResource, sent: unknown) {
  const local = f.client.localId(resource);
  expect(local).toBeTruthy();
  const foreign = Array.isArray(sent) ? sent : [];
  expect([...resource.identifiers].sort()).toEqual(
    [`${f.client.entryPoint.namespace}:${local}`, ...foreign].sort(),
  );
}

function expectLinks(resource: AnyResource, body: Record<string, unknown>) {
  const sent = isObject(body._links) ? body._links : {};
  for (const [rel, link] of Object.entries(sent)) {
    expect(resource.link(rel)?.url(), rel).toBe((link as { href: string }).href);
  }
}

let f: Fixture;
let deps: Deps;

beforeAll(async () => {
  f = await startFixture();
  const { client } = f;
  const [person, canvasser, ...signers] = await Promise.all([
    newPerson(client, 'Dep'),
    newPerson(client, 'Canvasser'),
    ...[0, 1, 2, 3].map((n) => newPerson(client, `Signer ${n}`)),
  ]);
  deps = {
    person,
    signers,
    canvasser,
    organization: await client.organizations.create({ organization: 'Dep org' }),
    petition: await client.petitions.create({ title: 'Dep petition' }),
    form: await client.forms.create({ title: 'Dep form' }),
    page: await client.fundraisingPages.create({ title: 'Dep page', currency: 'USD' }),
    campaign: await client.advocacyCampaigns.create({ title: 'Dep campaign' }),
    event: await client.events.create({ title: 'Dep event', type: 'open' }),
    question: await client.questions.create({
      name: 'dep-question',
      question_type: 'MultiChoice',
      responses: [{ key: 'a' }, { key: 'b' }, { key: 'c' }],
    }),
    tag: await client.tags.create({ name: `dep-tag-${run}` }),
    list: await client.lists.create({ name: `dep-list-${run}` }),
    wrapper: await client.wrappers.create({ name: 'Dep wrapper', wrapper_type: 'email' }),
  };
});
afterAll(() => f.server.close());

describe.each(CASES)('$name', (spec) => {
  it('creates, reads, updates and deletes a record', async () => {
    const collection = spec.collection(f.client);
    const input = spec.input(deps, 0);
    const created = await collection.create(input);
    expect(f.statuses.last('POST')).toBe(201);
    expect(isResourceOf(created, spec.kind)).toBe(true);
    expect(created.data).toMatchObject(fieldsOf(input));
    expect(created.data).toMatchObject({
      created_date: expect.any(String),
      modified_date: expect.any(String),
    });
    expectIdentifiers(f, created, input.identifiers);
    const collectionUrl = await collection.url();
    expect(created.url).toBe(`${collectionUrl.replace(/\/$/, '')}/${f.client.localId(created)}`);
    expectLinks(created, input);

    // Read back, by URL and by refresh.
    const read = await collection.get(created.url);
    expect(isResourceOf(read, spec.kind)).toBe(true);
    expect(read.data).toEqual(created.data);
    expect((await created.refresh()).data).toEqual(created.data);

    // Partial update: untouched fields kept, null clears, arrays replaced whole.
    const changes = spec.changes(deps, 0);
    const updated = await read.update(changes);
    expect(f.statuses.last('PUT')).toBe(200);
    expect(updated.data).toMatchObject(merged(fieldsOf(input), fieldsOf(changes)));
    for (const [key, value] of Object.entries(changes)) {
      if (value === null)
        expect((updated.data as Record<string, unknown>)[key], key).toBeUndefined();
    }
    expectIdentifiers(f, updated, changes.identifiers);
    expectLinks(updated, input);
    expect(updated.data).toMatchObject({
      created_date: (created.data as { created_date?: unknown }).created_date,
    });
    expect((await updated.refresh()).data).toEqual(updated.data);

    // What was read can be sent back: read-only members (dates, totals, computed
    // members) are ignored, so nothing changes but modified_date. A record's own
    // created_date (a donation's, `clientCreatedDate`) is sent instead: the stored one
    // is taken back, and another is refused, never ignored.
    const otherDate = { ...updated.data, created_date: '2000-01-01T00:00:00Z' };
    if (spec.kind.clientCreatedDate) {
      const refused = await httpError(updated.update(otherDate), 400);
      expect(problems(refused)).toEqual([
        { code: 'INVALID_PROPERTY', properties: ['created_date'] },
      ]);
    }
    const echoed = spec.kind.clientCreatedDate ? { ...updated.data } : otherDate;
    const again = await updated.update(echoed);
    expect(withoutModifiedDate(again.data)).toEqual(withoutModifiedDate(updated.data));
    expectLinks(again, input);

    await again.delete();
    expect(f.statuses.last('DELETE')).toBe(204);
    await httpError(collection.get(created.url), 404);
    await httpError(again.update(changes), 404);
    await httpError(again.delete(), 404);
  });

  it('lists records in creation order, and writes without a response body', async () => {
    const collection = spec.collection(f.client);
    const inputs = [1, 2, 3].map((n) => spec.input(deps, n));
    const urls: string[] = [];
    for (const input of inputs) {
      const url = await collection.create(input, { returnResponse: false });
      expect(f.statuses.last('POST')).toBe(201);
      expect(typeof url).toBe('string');
      urls.push(String(url));
    }
    const all = await collection.toArray();
    const ours = all.filter((record) => urls.includes(record.url));
    expect(ours.map((record) => record.url)).toEqual(urls);
    ours.forEach((record, index) => {
      const input = inputs[index] ?? {};
      expect(isResourceOf(record, spec.kind)).toBe(true);
      expect(record.data).toMatchObject(fieldsOf(input));
      expectIdentifiers(f, record, input.identifiers);
    });

    const [first] = ours;
    if (!first) throw new Error('no record listed');
    const changes = spec.changes(deps, 1);
    expect(await first.update(changes, { returnResponse: false })).toBeUndefined();
    expect(f.statuses.last('PUT')).toBe(200);
    const fresh = await first.refresh();
    expect(fresh.data).toMatchObject(merged(fieldsOf(inputs[0] ?? {}), fieldsOf(changes)));
    expectIdentifiers(f, fresh, changes.identifiers);
  });
});

describe("a donation's own created_date, through the SDK", () => {
  it('an import keeps its dates: created, helped, listed, filtered and written back', async () => {
    const page = await f.client.fundraisingPages.create({ title: `Import ${run}` });
    const person = { 'std:person': linkTo(deps.person) };
    const fromLedger = await page.donations().create({
      created_date: new Date(Date.UTC(2023, 10, 5, 14, 30)),
      amount: 30,
      currency: 'USD',
      _links: person,
    });
    expect(fromLedger.data.created_date).toBe('2023-11-05T14:30:00.000Z');
    const helped = await page.recordDonation({
      created_date: '2022-03-01T09:00:00+01:00',
      amount: 12,
      currency: 'USD',
      person: { email_addresses: [{ address: `import.${run}@example.org` }] },
    });
    expect(helped.record?.data.created_date).toBe('2022-03-01T08:00:00.000Z');
    const today = await page.donations().create({ amount: 5, currency: 'USD', _links: person });

    const urls = async (filter: Filter) =>
      (await page.donations().filter(filter).toArray()).map((donation) => donation.url);
    expect(await urls(field('created_date').lt('2024-01-01T00:00:00Z'))).toEqual([
      fromLedger.url,
      helped.record?.url,
    ]);
    expect(await urls(field('created_date').gt('2024-01-01T00:00:00Z'))).toEqual([today.url]);

    // Whatever was read is written back: the stored date goes and is taken.
    const read = await f.client.donations.get(fromLedger.url);
    const back = await read.update(read.data);
    expect(back.data.created_date).toBe('2023-11-05T14:30:00.000Z');
  });

  it('no date-time: refused before sending; a future one: refused by the server', async () => {
    const page = await f.client.fundraisingPages.create({ title: `Refusals ${run}` });
    const error = await page
      .donations()
      .create({ created_date: 'last Tuesday', amount: 1 })
      .catch((thrown: unknown) => thrown);
    expect(isSchemaValidationError(error)).toBe(true);
    const future = await httpError(
      page.donations().create({
        created_date: new Date(Date.now() + 86_400_000),
        amount: 1,
        _links: { 'std:person': linkTo(deps.person) },
      }),
      400,
    );
    expect(problems(future)).toEqual([{ code: 'INVALID_PROPERTY', properties: ['created_date'] }]);
    expect(await page.donations().toArray()).toEqual([]);
  });
});

describe('paging', () => {
  it('pages over more than one page of tags, 100 per page', async () => {
    // The other tenant is empty, so its tags are exactly these.
    const names = Array.from({ length: 105 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`);
    const urls = await Promise.all(
      names.map((name) => f.other.tags.create({ name }, { returnResponse: false })),
    );
    expect(new Set(urls).size).toBe(105);

    const pages = [];
    for await (const page of f.other.tags.pages()) pages.push(page);
    expect(pages.map((page) => page.items.length)).toEqual([100, 5]);
    expect(pages.map((page) => page.number)).toEqual([1, 2]);
    expect(pages[0]).toMatchObject({ totalRecords: 105, totalPages: 2, perPage: 100 });
    expect(pages[1]?.next).toBeUndefined();

    const listed = pages.flatMap((page) => page.items);
    expect(new Set(listed.map((tag) => tag.url))).toEqual(new Set(urls));
    expect(listed.map((tag) => tag.data.name).sort()).toEqual(names);

    // items() walks the same records in the same order; a limit stops early.
    const items = await f.other.tags.toArray();
    expect(items.map((tag) => tag.url)).toEqual(listed.map((tag) => tag.url));
    expect((await f.other.tags.toArray({ limit: 101 })).length).toBe(101);
    // The demo tenant does not see them.
    const demoNames = (await f.client.tags.toArray()).map((tag) => tag.data.name);
    expect(demoNames).not.toContain('bulk-000');
  });
});

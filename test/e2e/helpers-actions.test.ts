import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ListResource,
  type PersonResource,
  type PetitionResource,
  type QuestionResource,
  recordSignature,
  type TagResource,
} from '../../src/index.js';
import { type HelperFixture, startHelperFixture, uniqueEmail } from './helpers-fixture.js';

// The helper action functions against the reference server, and what a non-atomic call
// reads like: each function is one part; a failing part writes none of its rows, the
// others go on; the main record and the person are written whatever the parts do.

let f: HelperFixture;
let petition: PetitionResource;
let volunteer: TagResource;
let donor: TagResource;
let newsletter: ListResource;
let choice: QuestionResource;
let paragraph: QuestionResource;
let helperHref: string;

beforeAll(async () => {
  f = await startHelperFixture();
  petition = await f.client.petitions.create({ title: 'Save Elm Park' });
  helperHref = petition.link('std:record_signature_helper')?.url() ?? '';
  volunteer = await f.client.tags.create({ name: 'Volunteer' });
  donor = await f.client.tags.create({ name: 'Donor' });
  newsletter = await f.client.lists.create({ name: 'Newsletter' });
  choice = await f.client.questions.create({
    name: 'Support?',
    question_type: 'SingleChoice',
    responses: [
      { key: 'yes', name: 'Yes' },
      { key: 'no', name: 'No' },
    ],
  });
  paragraph = await f.client.questions.create({ name: 'Why?', question_type: 'Paragraph' });
});
afterAll(() => f.server.close());

const someone = (name: string) => ({
  given_name: name,
  email_addresses: [{ address: uniqueEmail(name) }],
});

async function tagNames(person: PersonResource | undefined): Promise<string[]> {
  const taggings = (await person?.taggings().toArray()) ?? [];
  const tags = await Promise.all(taggings.map((tagging) => tagging.tag()));
  return tags.map((tag) => tag.data.name ?? '').sort();
}

async function listNames(person: PersonResource | undefined): Promise<string[]> {
  const items = (await person?.items().toArray()) ?? [];
  const lists = await Promise.all(items.map((item) => item.list()));
  return lists.map((list) => list.data.name ?? '').sort();
}

async function answersOf(person: PersonResource | undefined): Promise<unknown[]> {
  const answers = (await person?.answers().toArray()) ?? [];
  return answers.map((answer) => answer.data.responses ?? answer.data.value);
}

describe('each action function, complete', () => {
  it('add_tags and add_tags_uri tag the person', async () => {
    const result = await petition.recordSignature({
      person: someone('Ana'),
      add_tags: ['volunteer'],
      add_tags_uri: [donor.url],
    });
    expect(result.complete).toBe(true);
    expect(await tagNames(result.person)).toEqual(['Donor', 'Volunteer']);
  });

  it('add_lists and add_lists_uri put the person on a list once', async () => {
    const result = await petition.recordSignature({
      person: someone('Bo'),
      add_lists: ['Newsletter'],
      add_lists_uri: [newsletter.url],
    });
    expect(result.complete).toBe(true);
    expect(await listNames(result.person)).toEqual(['Newsletter']);
  });

  it('add_questions_responses_uri answers by href or identifier', async () => {
    const identifier = choice.identifiers[0] ?? '';
    const result = await petition.recordSignature({
      person: someone('Cy'),
      add_questions_responses_uri: [
        { question: identifier, responses: ['yes'] },
        { question: paragraph.url, value: 'Because trees' },
      ],
    });
    expect(result.complete).toBe(true);
    expect(await answersOf(result.person)).toEqual([['yes'], 'Because trees']);
  });

  it('triggers are accepted and kept on the signature', async () => {
    const triggers = { autoresponse: { enabled: true, identifiers: ['mailer:welcome'] } };
    const result = await petition.recordSignature({ person: someone('Di'), triggers });
    expect(result.complete).toBe(true);
    expect(result.record?.data.triggers).toEqual(triggers);
    // Read-only: the record read back and PUT whole is accepted, and keeps them.
    const signature = result.record;
    if (!signature) throw new Error('no signature returned');
    const updated = await signature.update({ ...signature.data, comments: 'Still yes' });
    expect(updated.data).toMatchObject({ comments: 'Still yes', triggers });
  });

  it('every function at once, through the signup helper', async () => {
    const result = await f.client.signup({
      person: someone('Eve'),
      add_tags: ['Volunteer'],
      add_lists_uri: [newsletter.url],
      add_questions_responses_uri: [{ question: choice.url, responses: ['no'] }],
    });
    expect(result).toMatchObject({ status: 201, complete: true, failures: [] });
    expect(await tagNames(result.person)).toEqual(['Volunteer']);
    expect(await listNames(result.person)).toEqual(['Newsletter']);
    expect(await answersOf(result.person)).toEqual([['no']]);
  });
});

describe('non-atomic answers', () => {
  it('a failing tag: the signature and the person written, no tag of that part', async () => {
    const before = (await petition.refresh()).data.total_signatures ?? 0;
    const result = await petition.recordSignature({
      person: someone('Fay'),
      add_tags: ['Volunteer', 'ghost'],
      add_lists: ['Newsletter'],
    });
    expect(result.status).toBe(400);
    expect(result.complete).toBe(false);
    expect(result.failures).toEqual([
      {
        resource: 'std:tagging',
        response_code: 400,
        error_descriptions: [
          expect.objectContaining({
            error_code: 'TAG_NAME_DOES_NOT_EXIST',
            properties: ['add_tags[1]'],
          }),
        ],
      },
    ]);
    expect(result.error?.request_type).toBe('non-atomic');
    expect(result.record?.url).toMatch(/\/signatures\//);
    expect(result.person?.data.given_name).toBe('Fay');
    // Written: the signature, the person, the list part. Not written: any tag.
    expect((await petition.refresh()).data.total_signatures).toBe(before + 1);
    expect(await tagNames(result.person)).toEqual([]);
    expect(await listNames(result.person)).toEqual(['Newsletter']);
  });

  it('every part failing: one failure per part, with every failing element', async () => {
    const result = await petition.recordSignature({
      person: someone('Gus'),
      add_tags: ['ghost', 'phantom'],
      add_tags_uri: [newsletter.url],
      add_lists: ['Nowhere'],
      add_lists_uri: [volunteer.url],
      add_questions_responses_uri: [
        { question: choice.url, responses: ['yes', 'no'] },
        { question: 'adis:no-such-question', responses: ['yes'] },
      ],
    });
    expect(result.complete).toBe(false);
    const codes = result.failures.map((failure) => [
      failure.resource,
      failure.error_descriptions.map((d) => [d.error_code, d.properties]),
    ]);
    expect(codes).toEqual([
      [
        'std:tagging',
        [
          ['TAG_NAME_DOES_NOT_EXIST', ['add_tags[0]']],
          ['TAG_NAME_DOES_NOT_EXIST', ['add_tags[1]']],
        ],
      ],
      ['std:tagging', [['TAG_URI_DOES_NOT_EXIST', ['add_tags_uri[0]']]]],
      ['std:item', [['LIST_NAME_DOES_NOT_EXIST', ['add_lists[0]']]]],
      ['std:item', [['LIST_URI_DOES_NOT_EXIST', ['add_lists_uri[0]']]]],
      [
        'std:answer',
        [
          ['INVALID_ANSWER', ['add_questions_responses_uri[0].responses']],
          ['QUESTION_DOES_NOT_EXIST', ['add_questions_responses_uri[1].question']],
        ],
      ],
    ]);
    expect(result.person).toBeDefined();
    expect(await tagNames(result.person)).toEqual([]);
    expect(await listNames(result.person)).toEqual([]);
    expect(await answersOf(result.person)).toEqual([]);
  });

  it('a failing answer beside good tags: the tags written, no answer', async () => {
    const result = await petition.recordSignature({
      person: someone('Hana'),
      add_tags: ['Donor'],
      add_questions_responses_uri: [
        { question: choice.url, responses: ['yes'] },
        { question: paragraph.url, responses: ['yes'] },
      ],
    });
    expect(result.complete).toBe(false);
    expect(result.failures.map((failure) => failure.resource)).toEqual(['std:answer']);
    expect(await tagNames(result.person)).toEqual(['Donor']);
    expect(await answersOf(result.person)).toEqual([]);
  });

  it('a known person updated by a non-atomic call is reported 200', async () => {
    const person = someone('Ida');
    await petition.recordSignature({ person });
    const result = await petition.recordSignature({ person, add_lists: ['Nowhere'] });
    expect(result.complete).toBe(false);
    // Ida had signed: her signature is updated too (200), not added.
    expect(result.error?.resource_status.slice(0, 2)).toEqual([
      { resource: 'std:person', response_code: 200, error_descriptions: [] },
      { resource: 'std:signature', response_code: 200, error_descriptions: [] },
    ]);
  });

  it('anonymous: the failures without any record (nothing about the person leaks)', async () => {
    const result = await recordSignature(
      helperHref,
      { person: someone('Jan'), add_tags: ['ghost'], add_lists: ['Newsletter'] },
      f.anonymous,
    );
    expect(result).toMatchObject({ status: 400, complete: false, record: undefined });
    expect(result.person).toBeUndefined();
    // Newsletter exists, but no list is open to calls without a key: refused as a missing one.
    expect(result.failures.map((failure) => failure.error_descriptions[0]?.error_code)).toEqual([
      'TAG_NAME_DOES_NOT_EXIST',
      'LIST_NAME_DOES_NOT_EXIST',
    ]);
    const sdk = await petition.recordSignature(
      { person: someone('Kim'), add_tags: ['ghost'] },
      { authenticate: false },
    );
    expect(sdk).toMatchObject({ status: 400, complete: false, record: undefined });
  });

  it('a signup whose list part fails still returns the person', async () => {
    const result = await f.client.signup({
      person: someone('Lev'),
      add_tags: ['Volunteer'],
      add_lists: ['Nowhere'],
    });
    expect(result.complete).toBe(false);
    expect(result.record?.url).toBe(result.person?.url);
    expect(result.person?.data.given_name).toBe('Lev');
    expect(await tagNames(result.person)).toEqual(['Volunteer']);
  });

  it('a canvass: the parts apply to the target', async () => {
    const target = await f.client.people.create(someone('Mo'));
    const result = await target.recordCanvass({
      canvass: { contact_type: 'door', success: true },
      add_tags: ['Volunteer', 'ghost'],
      add_lists: ['Newsletter'],
    });
    expect(result.complete).toBe(false);
    expect(result.record?.url).toMatch(/\/canvasses\//);
    expect(result.person?.url).toBe(target.url);
    expect(await listNames(target)).toEqual(['Newsletter']);
    expect(await tagNames(target)).toEqual([]);
  });
});

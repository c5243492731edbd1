import { describe, expect, it } from 'vitest';
import type { Harness, Json } from './helpers.js';
import {
  callHelper,
  count,
  create,
  helperHarness,
  helperOf,
  person,
  statusesOf,
} from './helpers-setup.js';

interface Fixture {
  h: Harness;
  href: string;
  petition: Json;
  volunteer: Json;
  donor: Json;
  newsletter: Json;
  choice: Json;
  multi: Json;
  paragraph: Json;
}

async function fixture(): Promise<Fixture> {
  // The volunteer tag is open to calls without a key; the others are not.
  const h = helperHarness({ keylessOpen: { tags: ['volunteer'] } });
  const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
  const responses = [
    { key: 'yes', name: 'Yes' },
    { key: 'no', name: 'No' },
    { key: 'maybe', name: 'Maybe' },
  ];
  return {
    h,
    petition,
    href: helperOf(petition, 'record_signature_helper'),
    volunteer: await create(h, 'tags', { name: 'Volunteer' }),
    donor: await create(h, 'tags', { name: 'donor' }),
    newsletter: await create(h, 'lists', { name: 'Newsletter' }),
    choice: await create(h, 'questions', { name: 'Q1', question_type: 'SingleChoice', responses }),
    multi: await create(h, 'questions', { name: 'Q2', question_type: 'MultiChoice', responses }),
    paragraph: await create(h, 'questions', { name: 'Q3', question_type: 'Paragraph' }),
  };
}

const ANA = person('Ana', 'ana@example.org');

async function taggingsOf(h: Harness, signer: Json): Promise<Json[]> {
  return (await h.json('GET', signer._links['std:taggings'].href)).body._embedded['std:taggings'];
}

describe('action functions', () => {
  it('add_tags and add_tags_uri tag the person once, whatever the case or repetition', async () => {
    const { h, href, volunteer, donor } = await fixture();
    const first = await callHelper(h, href, {
      person: ANA,
      add_tags: ['volunteer', 'VOLUNTEER '],
      add_tags_uri: [donor._links.self.href],
    });
    expect(first.status).toBe(201);
    const signer = first.body._embedded['std:person'];
    const tags = (await taggingsOf(h, signer)).map((t: Json) => t._links['std:tag'].href).sort();
    expect(tags).toEqual([volunteer._links.self.href, donor._links.self.href].sort());
    // Already tagged: nothing more is written, the call is complete (200: Ana's
    // signature is updated, not added).
    const again = await callHelper(h, href, { person: ANA, add_tags: ['Volunteer', 'donor'] });
    expect(again.status).toBe(200);
    expect(await taggingsOf(h, signer)).toHaveLength(2);
  });

  it('add_lists and add_lists_uri put the person on lists once', async () => {
    const { h, href, newsletter } = await fixture();
    const call = await callHelper(h, href, {
      person: ANA,
      add_lists: ['newsletter'],
      add_lists_uri: [newsletter._links.self.href],
    });
    expect(call.status).toBe(201);
    const items = await h.json('GET', newsletter._links['std:items'].href);
    expect(items.body.total_records).toBe(1);
    expect(items.body._embedded['std:items'][0]._links['std:person'].href).toBe(
      call.body._embedded['std:person']._links.self.href,
    );
    expect((await h.json('GET', newsletter._links.self.href)).body.total_items).toBe(1);
  });

  it('add_questions_responses_uri answers by href or identifier, for every question type', async () => {
    const { h, href, choice, multi, paragraph } = await fixture();
    const call = await callHelper(h, href, {
      person: ANA,
      add_questions_responses_uri: [
        { question: choice._links.self.href, responses: ['yes'] },
        { question: multi.identifiers[0], responses: ['yes', 'maybe'] },
        { question: paragraph._links.self.href, value: 'Because trees' },
      ],
    });
    expect(call.status).toBe(201);
    const answers = await h.json(
      'GET',
      call.body._embedded['std:person']._links['std:answers'].href,
    );
    expect(answers.body._embedded['std:answers'].map((a: Json) => a.responses ?? a.value)).toEqual([
      ['yes'],
      ['yes', 'maybe'],
      'Because trees',
    ]);
  });

  it('triggers are recorded on the main record as sent', async () => {
    const { h, href } = await fixture();
    const triggers = { autoresponse: { enabled: true, identifiers: ['mailer:42'] } };
    const call = await callHelper(h, href, { person: ANA, triggers });
    expect(call.status).toBe(201);
    expect(call.body.triggers).toEqual(triggers);
    // Kept through an update, which cannot change them.
    const updated = await h.json('PUT', call.body._links.self.href, {
      body: { comments: 'Later' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.triggers).toEqual(triggers);
  });

  it('each failure is its own part; failing parts write nothing; others go on (keyed)', async () => {
    const { h, href, choice, newsletter } = await fixture();
    const { status, body } = await callHelper(h, href, {
      person: ANA,
      add_tags: ['volunteer', 'ghost'],
      add_tags_uri: [`${newsletter._links.self.href}`],
      add_lists: ['Newsletter'],
      add_lists_uri: ['http://adis.test/api/v1/lists/00000000-0000-4000-8000-000000000000'],
      add_questions_responses_uri: [
        { question: choice._links.self.href, responses: ['yes'] },
        { question: choice._links.self.href, responses: ['yes', 'no'] },
        { question: 'adis:unknown' },
      ],
    });
    expect(status).toBe(400);
    expect(body['std:error'].response_code).toBe(400);
    expect(statusesOf(body)).toEqual([
      { resource: 'std:person', response_code: 201 },
      { resource: 'std:signature', response_code: 201 },
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
      {
        resource: 'std:tagging',
        response_code: 400,
        error_descriptions: [
          expect.objectContaining({
            error_code: 'TAG_URI_DOES_NOT_EXIST',
            properties: ['add_tags_uri[0]'],
          }),
        ],
      },
      { resource: 'std:item', response_code: 201 },
      {
        resource: 'std:item',
        response_code: 400,
        error_descriptions: [
          expect.objectContaining({
            error_code: 'LIST_URI_DOES_NOT_EXIST',
            properties: ['add_lists_uri[0]'],
          }),
        ],
      },
      {
        resource: 'std:answer',
        response_code: 400,
        error_descriptions: [
          expect.objectContaining({
            error_code: 'INVALID_ANSWER',
            properties: ['add_questions_responses_uri[1].responses'],
          }),
          expect.objectContaining({
            error_code: 'QUESTION_DOES_NOT_EXIST',
            properties: ['add_questions_responses_uri[2].question'],
          }),
        ],
      },
    ]);
    // Beside the error: the person and the signature, both stored.
    const signer = body['std:person'];
    expect(signer.given_name).toBe('Ana');
    expect((await h.json('GET', body['std:signature']._links.self.href)).status).toBe(200);
    // The good tag of the failed add_tags was not written, nor the good answer.
    expect(await taggingsOf(h, signer)).toEqual([]);
    expect(await count(h, 'taggings')).toBe(0);
    expect(await count(h, 'answers')).toBe(0);
    expect(await count(h, 'items')).toBe(1);
  });

  it('a failed part against an existing person: 200 for the person, nothing half-written', async () => {
    const { h, href, paragraph, multi } = await fixture();
    await callHelper(h, href, { person: ANA });
    const { body } = await callHelper(h, href, {
      person: ANA,
      add_tags: ['Volunteer', 'nope'],
      add_questions_responses_uri: [
        { question: paragraph._links.self.href },
        { question: multi._links.self.href, responses: ['yes', 'never'] },
      ],
    });
    const statuses = statusesOf(body);
    expect(statuses[0]).toEqual({ resource: 'std:person', response_code: 200 });
    expect(statuses[3].error_descriptions.map((e: Json) => [e.error_code, e.properties])).toEqual([
      ['INVALID_ANSWER', ['add_questions_responses_uri[0].value']],
      ['INVALID_ANSWER', ['add_questions_responses_uri[1].responses[1]']],
    ]);
    expect(await count(h, 'taggings')).toBe(0);
    expect(await count(h, 'answers')).toBe(0);
  });

  it('anonymous: complete is 200 {}; a failed part is 400 naming only the failed part', async () => {
    const { h, href } = await fixture();
    const complete = await callHelper(h, href, { person: ANA, add_tags: ['volunteer'] }, null);
    expect(complete).toMatchObject({ status: 200, body: {} });
    expect(await count(h, 'taggings')).toBe(1);
    const partial = await callHelper(
      h,
      href,
      { person: ANA, add_tags: ['volunteer'], add_lists: ['nope'] },
      null,
    );
    expect(partial.status).toBe(400);
    expect(Object.keys(partial.body)).toEqual(['std:error']);
    // Neither Ana's person and signature (matched: 200) nor the tag she had are listed.
    expect(statusesOf(partial.body)).toEqual([
      {
        resource: 'std:item',
        response_code: 400,
        error_descriptions: [expect.objectContaining({ error_code: 'LIST_NAME_DOES_NOT_EXIST' })],
      },
    ]);
  });

  it('a canvass applies the action functions to its target, taggings linking the canvass', async () => {
    const { h, choice } = await fixture();
    const target = await create(h, 'people', person('Tia', 'tia@example.org'));
    const { status, body } = await callHelper(h, helperOf(target, 'record_canvass_helper'), {
      canvass: { contact_type: 'door', canvasser: person('Cal', 'cal@example.org') },
      add_tags: ['volunteer'],
      add_lists: ['newsletter'],
      add_questions_responses_uri: [{ question: choice._links.self.href, responses: ['no'] }],
    });
    expect(status).toBe(201);
    const taggings = await h.json('GET', body._links['std:taggings'].href);
    expect(taggings.body.total_records).toBe(1);
    expect(taggings.body._embedded['std:taggings'][0]._links['std:person'].href).toBe(
      target._links.self.href,
    );
    expect(await count(h, body._links['std:answers'].href)).toBe(1);
    expect(await count(h, target._links['std:items'].href)).toBe(1);
    // The canvasser got nothing.
    const canvasser = await h.json('GET', body._links['std:canvasser'].href);
    expect(await count(h, canvasser.body._links['std:taggings'].href)).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ActionFunctionsSchema,
  PersonSignupBodySchema,
  RecordAttendanceBodySchema,
  RecordCanvassBodySchema,
  RecordDonationBodySchema,
  RecordOutreachBodySchema,
  RecordSignatureBodySchema,
  RecordSubmissionBodySchema,
} from '../../src/index.js';
import { strictHelperBodies } from '../../src/server-kit/index.js';

// Two sides of one definition: the exported body schemas are what the SDK checks before
// sending (member names and JSON types; values are the server's to judge), and
// `strictHelperBodies()` is what the reference server accepts (formats, closed enums,
// rules besides).

function issues(result: { success: boolean; error?: { issues: readonly object[] } }) {
  return (result.error?.issues ?? []) as { path: PropertyKey[]; code: string; message: string }[];
}
const paths = (result: Parameters<typeof issues>[0]) =>
  issues(result).map((issue) => issue.path.join('.'));

const ana = { given_name: 'Ana', email_addresses: [{ address: 'ana@example.org', primary: true }] };

describe('record bodies', () => {
  const withPerson = [
    ['signature', RecordSignatureBodySchema, 'recordSignature', { comments: 'Yes' }],
    ['outreach', RecordOutreachBodySchema, 'recordOutreach', { type: 'email', duration: 30 }],
    ['attendance', RecordAttendanceBodySchema, 'recordAttendance', { status: 'accepted' }],
    ['donation', RecordDonationBodySchema, 'recordDonation', { amount: 5, currency: 'USD' }],
    [
      'submission',
      RecordSubmissionBodySchema,
      'recordSubmission',
      { custom_fields: { size: 'M' } },
    ],
  ] as const;

  for (const [name, schema, bodyName, fields] of withPerson) {
    it(`${name}: needs a person, takes the action functions, refuses unknown members`, () => {
      const functions = { add_tags: ['a'], add_lists_uri: ['https://x.test/lists/1'] };
      expect(schema.safeParse({ ...fields, person: ana, ...functions }).success).toBe(true);
      expect(paths(schema.safeParse({ ...fields }))).toEqual(['person']);
      const unknown = issues(schema.safeParse({ ...fields, person: ana, add_tag: ['typo'] }));
      expect(unknown.map((issue) => issue.code)).toEqual(['unrecognized_keys']);
      // Read-only dates of the record have no place in a helper body.
      expect(schema.safeParse({ ...fields, person: ana, created_date: '2026-01-01' }).success).toBe(
        false,
      );
    });

    it(`${name}: checks the person with the person schema of each side`, () => {
      const body = { ...fields, person: { email_addresses: [{ address: 'nope' }] } };
      expect(paths(strictHelperBodies()[bodyName].safeParse(body))).toEqual([
        'person.email_addresses.0.address',
      ]);
      // The address's format is the server's to judge; its type and names are checked here.
      expect(schema.safeParse(body).success).toBe(true);
      expect(
        paths(schema.safeParse({ ...fields, person: { email_addresses: [{ address: 1 }] } })),
      ).toEqual(['person.email_addresses.0.address']);
      const typo = schema.safeParse({ ...fields, person: { givn_name: 'Ana' } });
      expect(issues(typo).map((issue) => [issue.path.join('.'), issue.code])).toEqual([
        ['person', 'unrecognized_keys'],
      ]);
    });
  }

  it('refuses _links on every record body but the donation', () => {
    const links = { _links: { 'std:person': { href: 'https://x.test/people/1' } } };
    expect(RecordSignatureBodySchema.safeParse({ person: ana, ...links }).success).toBe(false);
    expect(RecordSubmissionBodySchema.safeParse({ person: ana, ...links }).success).toBe(false);
  });

  it('donation: links to an attendance or a submission under any prefix, nothing else', () => {
    const link = { href: 'https://x.test/attendances/1' };
    for (const rel of ['std:attendance', 'osdi:attendance', 'std:submission']) {
      expect(
        RecordDonationBodySchema.safeParse({ person: ana, _links: { [rel]: link } }).success,
      ).toBe(true);
    }
    expect(
      paths(RecordDonationBodySchema.safeParse({ person: ana, _links: { 'std:person': link } })),
    ).toEqual(['_links.std:person']);
    expect(
      RecordDonationBodySchema.safeParse({ person: ana, _links: { 'std:attendance': 'x' } })
        .success,
    ).toBe(false);
  });

  it("donation: keeps the record's rule that recipients add up to no more than the amount", () => {
    const strict = strictHelperBodies().recordDonation;
    const overBody = { person: ana, amount: 10, recipients: [{ amount: 6 }, { amount: 5 }] };
    const over = strict.safeParse(overBody);
    expect(paths(over)).toEqual(['recipients']);
    expect(issues(over)[0]?.message).toContain('more than the amount 10');
    // A cross-field rule is the server's: the SDK sends the body and lets it judge.
    expect(RecordDonationBodySchema.safeParse(overBody).success).toBe(true);
    expect(
      strict.safeParse({
        person: ana,
        amount: 10,
        recipients: [{ amount: 6 }, { amount: 4 }],
      }).success,
    ).toBe(true);
  });

  it('attendance: a ticket may inline its holder, who is checked as a person', () => {
    const ticket = { title: 'Adult', amount: 10, currency: 'USD', attended: false };
    expect(
      RecordAttendanceBodySchema.safeParse({
        person: ana,
        tickets: [ticket, { ...ticket, person: { given_name: 'Ben' } }],
      }).success,
    ).toBe(true);
    const badHolder = {
      person: ana,
      tickets: [{ ...ticket, person: { email_addresses: [{ address: 'bad' }] } }],
    };
    expect(paths(strictHelperBodies().recordAttendance.safeParse(badHolder))).toEqual([
      'tickets.0.person.email_addresses.0.address',
    ]);
    expect(RecordAttendanceBodySchema.safeParse(badHolder).success).toBe(true);
    expect(
      paths(
        RecordAttendanceBodySchema.safeParse({
          person: ana,
          tickets: [{ ...ticket, person: { given_name: 'Ben', nickname: 'B' } }],
        }),
      ),
    ).toEqual(['tickets.0.person']);
    expect(
      RecordAttendanceBodySchema.safeParse({
        person: ana,
        tickets: [{ ...ticket, seat: '12A' }],
      }).success,
    ).toBe(false);
  });
});

describe('RecordCanvassBodySchema', () => {
  it('nests the canvass fields, with the canvasser and one question response', () => {
    const body = {
      canvass: {
        contact_type: 'door',
        input_type: 'paper',
        success: true,
        action_date: '2026-03-01T10:00:00Z',
        canvasser: { given_name: 'Ben' },
        question_response: { question: 'https://x.test/questions/1', responses: ['yes'] },
      },
      add_tags: ['supporter'],
    };
    expect(RecordCanvassBodySchema.safeParse(body).success).toBe(true);
    const linked = {
      canvass: { question_response: { question: { href: 'https://x.test/q/1' }, value: 'x' } },
    };
    expect(RecordCanvassBodySchema.safeParse(linked).success).toBe(true);
  });

  it('needs the canvass object and takes no person (the target is in the URL)', () => {
    expect(paths(RecordCanvassBodySchema.safeParse({ add_tags: ['x'] }))).toEqual(['canvass']);
    const withPerson = RecordCanvassBodySchema.safeParse({ canvass: {}, person: ana });
    expect(issues(withPerson).map((issue) => issue.code)).toEqual(['unrecognized_keys']);
  });

  it('keeps the canvass rule: a successful canvass has no status_code', () => {
    const strict = strictHelperBodies().recordCanvass;
    const contradiction = { canvass: { success: true, status_code: 'not_home' } };
    expect(paths(strict.safeParse(contradiction))).toEqual(['canvass.status_code']);
    expect(strict.safeParse({ canvass: { success: false, status_code: 'not_home' } }).success).toBe(
      true,
    );
    // The rule is the server's: the SDK sends the body and lets it judge.
    expect(RecordCanvassBodySchema.safeParse(contradiction).success).toBe(true);
  });

  it('checks the canvasser as a person and the action date as ISO 8601', () => {
    const body = { canvass: { action_date: 'yesterday', canvasser: { gender: 'robot' } } };
    const result = strictHelperBodies().recordCanvass.safeParse(body);
    expect(paths(result).sort()).toEqual(['canvass.action_date', 'canvass.canvasser.gender']);
    // Formats and vocabulary are the server's; JSON types are checked before sending.
    expect(RecordCanvassBodySchema.safeParse(body).success).toBe(true);
    const wrongTypes = RecordCanvassBodySchema.safeParse({
      canvass: { action_date: 5, canvasser: { gender: true } },
    });
    expect(paths(wrongTypes).sort()).toEqual(['canvass.action_date', 'canvass.canvasser.gender']);
  });
});

describe('action functions', () => {
  it('take answers by question href or identifier, and triggers', () => {
    expect(
      ActionFunctionsSchema.safeParse({
        add_questions_responses_uri: [
          { question: 'https://x.test/questions/1', responses: ['a', 'b'] },
          { question: 'test:q2', value: 'Free text' },
        ],
        triggers: {
          autoresponse: { enabled: true, identifiers: ['mailer:welcome'] },
          sms_response: { enabled: false },
        },
      }).success,
    ).toBe(true);
  });

  it('refuse answers without a question, unknown triggers and non-string tags', () => {
    const result = ActionFunctionsSchema.safeParse({
      add_questions_responses_uri: [{ responses: ['a'] }],
      triggers: { fax_response: { enabled: true } },
      add_tags: [1],
    });
    expect(paths(result).sort()).toEqual([
      'add_questions_responses_uri.0.question',
      'add_tags.0',
      'triggers',
    ]);
  });
});

describe('PersonSignupBodySchema', () => {
  it('is the person and the action functions', () => {
    expect(PersonSignupBodySchema.safeParse({ person: ana, add_lists: ['News'] }).success).toBe(
      true,
    );
    expect(paths(PersonSignupBodySchema.safeParse({ add_lists: ['News'] }))).toEqual(['person']);
    expect(PersonSignupBodySchema.safeParse({ person: ana, comments: 'x' }).success).toBe(false);
  });
});

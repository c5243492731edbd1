import { describe, expect, it } from 'vitest';
import {
  questionKind,
  questionRuleIssues,
  RESPONSE_KEY_PATTERN,
  RESPONSE_NAME_PATTERN,
} from '../../src/schema/kinds/question.js';
import { RuleCode } from '../../src/schema/rules.js';
import { fixture, href } from './content-fixtures.js';
import { issuePaths, issuesOf } from './schema-issues.js';

const YES_NO = [
  { key: 'yes', name: 'Supports SB 12', title: 'Yes' },
  { key: 'no', name: 'Opposes SB 12', title: 'No' },
];

describe('questionKind.schema (read)', () => {
  it('keeps any question_type, responses without keys and unknown members', () => {
    const question = questionKind.schema.parse({
      question_type: 'Scale',
      responses: [{ name: '<b>odd</b>', weight: 2 }],
      'vendor:order': 3,
    });
    expect(question).toMatchObject({
      question_type: 'Scale',
      responses: [{ name: '<b>odd</b>', weight: 2 }],
      'vendor:order': 3,
    });
  });

  it('reads a Paragraph question with responses as it is', () => {
    expect(
      questionKind.schema.safeParse({ question_type: 'Paragraph', responses: YES_NO }).success,
    ).toBe(true);
  });
});

describe('questionKind.writeSchema (write) and strictSchema (the server)', () => {
  it('accepts choice questions and a Paragraph without responses', () => {
    expect(
      issuePaths(questionKind.writeSchema, {
        identifiers: ['crm:q-1'],
        origin_system: 'Canvass app',
        name: 'sb12',
        title: 'Do you support SB 12?',
        description: 'Asked at the door',
        summary: 'SB 12 support',
        question_type: 'SingleChoice',
        responses: YES_NO,
        created_date: '2026-01-01T00:00:00Z',
      }),
    ).toEqual([]);
    expect(issuePaths(questionKind.writeSchema, { question_type: 'Paragraph' })).toEqual([]);
    expect(
      issuePaths(questionKind.writeSchema, { question_type: 'Paragraph', responses: [] }),
    ).toEqual([]);
    expect(questionKind.readOnly).toContain('modified_date');
  });

  it('refuses question types outside the list and content fields it does not have', () => {
    const question = { question_type: 'paragraph', browser_url: 'x' };
    expect(issuesOf(questionKind.strictSchema, question)).toEqual([
      { path: 'question_type', code: 'invalid_value', rule: undefined },
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
    // The type's vocabulary is the server's; an unknown member is refused before sending.
    expect(issuesOf(questionKind.writeSchema, question)).toEqual([
      { path: '', code: 'unrecognized_keys', rule: undefined },
    ]);
  });

  it('requires a key on each response and refuses unknown response members', () => {
    const question = { responses: [{ name: 'Yes' }, { key: 'no', label: 'No' }] };
    expect(issuePaths(questionKind.strictSchema, question)).toEqual([
      'responses.0.key',
      'responses.1',
    ]);
    // A response read without a key is written back as it came; the server requires one.
    expect(issuePaths(questionKind.writeSchema, question)).toEqual(['responses.1']);
  });

  it('reports a Paragraph with responses and a bad name together (the spec example)', () => {
    const question = {
      question_type: 'Paragraph',
      responses: [YES_NO[0], YES_NO[1], { key: 'maybe', name: 'Maybe <script>' }],
    };
    const result = questionKind.strictSchema.safeParse(question);
    const issues = result.error?.issues ?? [];
    expect(issues.map((i) => [i.path.join('.'), i.code === 'custom' && i.params?.code])).toEqual([
      ['responses', RuleCode.PARAGRAPH_CANNOT_HAVE_RESPONSES],
      ['responses.2.name', RuleCode.RESPONSE_NAME_INVALID],
    ]);
    expect(issues[1]).toMatchObject({ params: { hint: RESPONSE_NAME_PATTERN.source } });
    // The rules are the server's: the SDK sends the question and lets it judge.
    expect(issuesOf(questionKind.writeSchema, question)).toEqual([]);
  });

  it('reports invalid and duplicate keys at their own paths', () => {
    const question = {
      question_type: 'MultiChoice',
      responses: [
        { key: 'yes' },
        { key: 'strongly_agree' },
        { key: 'yes' },
        { key: '' },
        { key: 'Yes' },
        { key: 'no-way' },
      ],
    };
    expect(issuesOf(questionKind.strictSchema, question)).toEqual([
      { path: 'responses.1.key', code: 'custom', rule: RuleCode.RESPONSE_KEY_INVALID },
      { path: 'responses.2.key', code: 'custom', rule: RuleCode.DUPLICATE_RESPONSE_KEY },
      { path: 'responses.3.key', code: 'custom', rule: RuleCode.RESPONSE_KEY_INVALID },
      { path: 'responses.5.key', code: 'custom', rule: RuleCode.RESPONSE_KEY_INVALID },
    ]);
    expect(issuesOf(questionKind.writeSchema, question)).toEqual([]);
  });

  it('reports the rules beside type errors elsewhere in the question', () => {
    const question = {
      title: 42,
      question_type: 'Paragraph',
      responses: [{ key: 'a' }, { key: 7 }],
    };
    expect(issuesOf(questionKind.strictSchema, question)).toEqual([
      { path: 'title', code: 'invalid_type', rule: undefined },
      { path: 'responses.1.key', code: 'invalid_type', rule: undefined },
      { path: 'responses', code: 'custom', rule: RuleCode.PARAGRAPH_CANNOT_HAVE_RESPONSES },
    ]);
    expect(issuesOf(questionKind.writeSchema, question)).toEqual([
      { path: 'title', code: 'invalid_type', rule: undefined },
      { path: 'responses.1.key', code: 'invalid_type', rule: undefined },
    ]);
  });

  it('checks the merged document of a partial update the same way', () => {
    // A PUT with only question_type: the server merges it with the stored responses.
    const stored = {
      title: 'Do you support SB 12?',
      question_type: 'SingleChoice',
      responses: YES_NO,
    };
    expect(issuePaths(questionKind.strictSchema, { question_type: 'Paragraph' })).toEqual([]);
    expect(
      issuesOf(questionKind.strictSchema, { ...stored, question_type: 'Paragraph' }).map(
        (i) => i.rule,
      ),
    ).toEqual([RuleCode.PARAGRAPH_CANNOT_HAVE_RESPONSES]);
  });
});

describe('response patterns', () => {
  it('accepts production names in any script and refuses markup and control characters', () => {
    for (const name of [
      'Yes',
      'Sí, con condiciones',
      'Müller & Söhne (2026)',
      '支持',
      "Don't know",
      '50%',
    ]) {
      expect(RESPONSE_NAME_PATTERN.test(name), name).toBe(true);
    }
    for (const name of [
      '',
      ' leading space',
      '<b>Yes</b>',
      'line\nbreak',
      'x'.repeat(101),
      '-dash',
    ]) {
      expect(RESPONSE_NAME_PATTERN.test(name), name).toBe(false);
    }
    expect(RESPONSE_NAME_PATTERN.test('x'.repeat(100))).toBe(true);
  });

  it('allows ASCII letters and digits only in keys', () => {
    expect(['a', 'Yes', '1', 'opt2026'].every((key) => RESPONSE_KEY_PATTERN.test(key))).toBe(true);
    expect(
      ['', 'a_b', 'a-b', 'sí', 'a b', 'k'.repeat(65)].some((key) => RESPONSE_KEY_PATTERN.test(key)),
    ).toBe(false);
  });

  it('gives the rules as a function too, reading defensively', () => {
    expect(questionRuleIssues({ responses: 'not an array' })).toEqual([]);
    expect(questionRuleIssues({ responses: [null, 5, { key: 3, name: 4 }] })).toEqual([]);
    expect(questionRuleIssues({ question_type: 'Paragraph', responses: [{}] })).toEqual([
      expect.objectContaining({
        code: RuleCode.PARAGRAPH_CANNOT_HAVE_RESPONSES,
        path: ['responses'],
      }),
    ]);
  });
});

describe('QuestionResource', () => {
  it('links its creator, editor and answers', async () => {
    const { resource: question } = fixture(
      questionKind,
      'questions/1',
      { _links: { 'std:answers': href('questions/1/answers'), 'std:creator': href('people/1') } },
      { 'people/1': { given_name: 'Ana' } },
    );
    expect(await question.answers().url()).toBe(href('questions/1/answers').href);
    expect((await question.creator())?.data.given_name).toBe('Ana');
    expect(await question.modifiedBy()).toBeUndefined();
  });
});

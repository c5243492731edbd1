import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The first line of the error a newcomer meets for a wrong member in a body names the
// body's type (`PersonInput`, `RecordSignatureInput`), not its 40-member expansion
// (`{ [x: \`${string}:${string}\`]: unknown; family_name?: …`): the kinds' inputs and the
// helper bodies are interfaces TypeScript prints by name. One program compiles every
// snippet, each in a function of its own, against the SDK's source.

const root = fileURLToPath(new URL('../../', import.meta.url));
const sampleName = `${root}test/types/diagnostics-sample.ts`;

/** Each snippet: a line that must fail, and the text the first line of its error has. */
const SNIPPETS: [name: string, code: string, firstLine: string][] = [
  [
    'a typed input',
    "const input: SignatureInput = { commnts: 'x' };",
    "Object literal may only specify known properties, but 'commnts' does not exist in type 'SignatureInput'. Did you mean to write 'comments'?",
  ],
  [
    "a helper call's body",
    "await petition.recordSignature({ person: { given_name: 'Ana' }, commnts: 'x' });",
    "Object literal may only specify known properties, but 'commnts' does not exist in type 'RecordSignatureInput'. Did you mean to write 'comments'?",
  ],
  [
    "the signup helper's body",
    "await client.signup({ persn: { given_name: 'Ana' } });",
    "Object literal may only specify known properties, but 'persn' does not exist in type 'PersonSignupInput'. Did you mean to write 'person'?",
  ],
  [
    'an Action Network kind',
    "const input: EventCampaignInput = { titel: 'x' };",
    "Object literal may only specify known properties, but 'titel' does not exist in type 'EventCampaignInput'. Did you mean to write 'title'?",
  ],
  [
    "a record's member read on the resource",
    'console.log(person.given_name);',
    "Property 'given_name' does not exist on type 'PersonResource'.",
  ],
];

/** The details of a create's or an update's error (its first line is TypeScript's "No overload matches this call"). */
const OVERLOADED: [name: string, code: string, detail: string][] = [
  [
    'a create',
    "await client.people.create({ given_nme: 'Ana' });",
    "'given_nme' does not exist in type 'PersonInput'",
  ],
  [
    'an update',
    "await person.update({ famly_name: 'Lopez' });",
    "'famly_name' does not exist in type 'PersonInput'",
  ],
];

const source = `
import { connect, type EventCampaignInput, type SignatureInput } from '../../src/index.js';

const client = await connect('http://127.0.0.1:8000/api/v1/');
const petition = await client.petitions.get('http://127.0.0.1:8000/api/v1/petitions/1');
const person = await client.people.get('http://127.0.0.1:8000/api/v1/people/1');
${[...SNIPPETS, ...OVERLOADED].map(([, code], index) => `async function snippet${index}() {\n  ${code}\n}`).join('\n')}
export { ${[...SNIPPETS, ...OVERLOADED].map((_, index) => `snippet${index}`).join(', ')} };
`;

/** The errors of the sample, each with the snippet it is in and its text. */
function diagnostics(): { snippet: number; text: string }[] {
  const config = ts.readConfigFile(`${root}tsconfig.base.json`, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === sampleName
      ? ts.createSourceFile(name, source, language)
      : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === sampleName || fileExists(name);
  const program = ts.createProgram([sampleName], { ...options, noEmit: true }, host);
  const file = program.getSourceFile(sampleName);
  if (!file) throw new Error('the sample did not load');
  const lines = source.split('\n');
  return ts.getPreEmitDiagnostics(program, file).map((diagnostic) => {
    const { line } = file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    // The snippet's function is declared on the line above its code.
    const match = /snippet(\d+)/.exec(lines[line - 1] ?? '');
    return {
      snippet: match ? Number(match[1]) : -1,
      text: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    };
  });
}

describe('type errors name the type', () => {
  const found = diagnostics();
  const of = (snippet: number) => found.filter((d) => d.snippet === snippet);

  it('every snippet fails once, and nothing else does', () => {
    expect(found.map((d) => d.snippet).sort((a, b) => a - b)).toEqual(
      [...SNIPPETS, ...OVERLOADED].map((_, index) => index),
    );
  });

  it.each(SNIPPETS.map(([name, , firstLine], index) => [name, index, firstLine] as const))(
    '%s: the first line names the type',
    (_name, index, firstLine) => {
      const [error] = of(index);
      expect(error?.text.split('\n')[0]).toBe(firstLine);
    },
  );

  it.each(
    OVERLOADED.map(([name, , detail], index) => [name, SNIPPETS.length + index, detail] as const),
  )('%s: the overload error names PersonInput, never the expansion', (_name, index, detail) => {
    const [error] = of(index);
    expect(error?.text).toContain(detail);
    expect(error?.text).not.toContain('unknown; family_name?: string');
  });
});

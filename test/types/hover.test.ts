import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// What an editor shows on hover, asked of TypeScript's language service over a small
// in-memory file that uses the SDK as a newcomer would. Each hover must name the type
// (`PersonResource`, not the 52 lines of `ResourceOf<{ singular: "person"; … }>` it
// expands to) and fit on one line.

const root = fileURLToPath(new URL('../../', import.meta.url));
const sampleName = `${root}test/types/hover-sample.ts`;

// The sample; a marker comment `@name` (in a block comment) stands before each identifier
// whose hover is asked.
const marked = `
import { actionNetwork, connect, type PersonInput } from '../../src/index.js';

const client = await connect('http://127.0.0.1:8000/api/v1/', { ...actionNetwork });
const /*@people*/people = client.people;
for await (const /*@item*/person of client.people) console.log(person.data.given_name);
const /*@petition*/petition = await client.petitions.get('http://127.0.0.1:8000/api/v1/petitions/1');
const /*@helper*/result = await petition.recordSignature({ person: { given_name: 'Ana' } });
const signature = await client.signatures.get('http://127.0.0.1:8000/api/v1/signatures/1');
const /*@relation*/signer = await signature.person();
const /*@signatures*/signatures = petition.signatures();
const /*@pages*/pages = client.people.pages();
for await (const /*@page*/page of pages) console.log(page.items.length);
const /*@created*/created = await client.people.create({ given_name: 'Ana' });
const /*@updated*/updated = await created.update({ family_name: 'Lopez' });
const /*@data*/data = created.data;
const /*@signup*/signup = await client.signup({ person: { given_name: 'Ana' } });
const /*@campaigns*/campaigns = client.eventCampaigns;

// Inputs are typed to the end: what a server would refuse does not compile.
const pronouns: PersonInput = { gender_pronouns: { subject: 'She', possessive: 'Hers' } };
// @ts-expect-error gender_pronouns is an object, not a number
const notPronouns: PersonInput = { gender_pronouns: 42 };
// @ts-expect-error a phone number is a string
const notPhone: PersonInput = { phone_numbers: [{ number: 12025550123 }] };
export { people, result, signer, signatures, updated, data, signup, campaigns, pronouns, notPronouns, notPhone };
`;

/** The sample's text and the offset of each marked identifier. */
function unmark(text: string): { source: string; positions: Map<string, number> } {
  const positions = new Map<string, number>();
  let source = '';
  let last = 0;
  for (const match of text.matchAll(/\/\*@(\w+)\*\//g)) {
    source += text.slice(last, match.index);
    positions.set(match[1] as string, source.length);
    last = (match.index ?? 0) + match[0].length;
  }
  return { source: source + text.slice(last), positions };
}

function languageService(source: string): ts.LanguageService {
  const configPath = `${root}tsconfig.base.json`;
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ ...options, noEmit: true }),
    getScriptFileNames: () => [sampleName],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = name === sampleName ? source : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === sampleName || ts.sys.fileExists(name),
    readFile: (name) => (name === sampleName ? source : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

describe('hovers', () => {
  const { source, positions } = unmark(marked);
  const service = languageService(source);
  const hover = (name: string): string => {
    const position = positions.get(name);
    if (position === undefined) throw new Error(`no marker ${name}`);
    const info = service.getQuickInfoAtPosition(sampleName, position);
    return ts.displayPartsToString(info?.displayParts);
  };

  it('the sample compiles, and what a server refuses does not', () => {
    const errors = service
      .getSemanticDiagnostics(sampleName)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(errors).toEqual([]);
  });

  it.each([
    ['people', 'const people: Collection<PersonResource>'],
    ['item', 'const person: PersonResource'],
    ['petition', 'const petition: PetitionResource'],
    ['helper', 'const result: HelperResult<SignatureResource, PersonResource>'],
    ['relation', 'const signer: PersonResource'],
    ['signatures', 'const signatures: Collection<SignatureResource>'],
    ['pages', 'const pages: AsyncGenerator<Page<PersonResource>, void, undefined>'],
    ['page', 'const page: Page<PersonResource>'],
    ['created', 'const created: PersonResource'],
    ['updated', 'const updated: PersonResource'],
    ['data', 'const data: Person'],
    ['signup', 'const signup: HelperResult<PersonResource, PersonResource>'],
    ['campaigns', 'const campaigns: Collection<EventCampaignResource>'],
  ])('%s hovers as one line naming its type', (name, expected) => {
    const text = hover(name);
    expect(text).not.toContain('\n');
    expect(text.length).toBeLessThan(120);
    expect(text).toBe(expected);
  });
});

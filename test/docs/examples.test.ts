/**
 * Every TSDoc `@example` in the source type-checks, so that a renamed option or a
 * changed type breaks `npm test`, not a reader's copy of the example (issue 47).
 *
 * - Which: the `@example` blocks of every `.ts` file under `src/` and
 *   `reference-server/src/`, found by walking the folders. An example is one ```ts
 *   fence (a line of prose may come before it); an `@example` without one, or with
 *   another language, fails.
 * - As what: each example is a module of its own (`export {}` is added: top-level
 *   `await`, names of its own), placed beside the file it documents, so it imports
 *   - the public API by its published name, as a user would: `adis-sdk`,
 *     `adis-sdk/schema`… and `adis-server`, `adis-server/testing` (PUBLISHED maps each
 *     name to its source);
 *   - an internal function relatively, as a module beside it would:
 *     `import { resolveHref } from './uri.js'`.
 *   The few names an example may use without importing them (`client`…) are declared
 *   in GIVEN, with their real types.
 * - How: all the examples in one TypeScript program (one `ts.createProgram`, with
 *   tsconfig.json's options but `noUnusedLocals`: an example may bind a value only to
 *   show it), only the examples' own diagnostics asked for. The DOM's lib is in, so a
 *   name the example forgot that `window` happens to have (`event`, `name`) is an error
 *   of its own (WINDOW_SHORTCUTS). About 8 s on two cores for the 480 examples of src/
 *   and reference-server/src/, 10 s with vitest's start
 *   (`npx vitest run test/docs/examples.test.ts`).
 * - A failing example is reported as `file:line: diagnostic`, the line in the source file.
 *
 * Why a script of our own: no installed tool type-checks TSDoc examples (TypeDoc renders
 * them unchecked; `tsd` checks `.test-d.ts` files, not comments), and this one is the
 * compiler API the repository already uses.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The folders whose `.ts` files' examples are checked. */
const SOURCES = ['src', 'reference-server/src'];

/** The published module names an example imports, each mapped to its source. */
const PUBLISHED: Record<string, string> = {
  'adis-sdk': 'src/index.ts',
  'adis-sdk/helpers': 'src/helpers/index.ts',
  'adis-sdk/schema': 'src/schema/index.ts',
  'adis-sdk/webhooks': 'src/webhooks/index.ts',
  'adis-sdk/check': 'src/check/index.ts',
  'adis-sdk/sync': 'src/sync/index.ts',
  'adis-sdk/server-kit': 'src/server-kit/index.ts',
  'adis-server': 'reference-server/src/index.ts',
  'adis-server/testing': 'reference-server/src/testing.ts',
};

/**
 * What an example may take as given: declared globally, so an example may shadow them.
 * Keep it small, each typed as what it stands for: an example that imports and builds
 * what it uses teaches more.
 */
const GIVEN = `
/** A client connected to a server: \`const client = await connect(url, options)\`. */
declare const client: import('adis-sdk').Client;
// What src/navigator/collection.ts's examples take as given.
declare const context: import('${ROOT}/src/navigator/context.js').NavigatorContext;
declare const Collection: typeof import('adis-sdk').Collection;
declare const personKind: typeof import('adis-sdk').personKind;
declare const peopleUrl: string;
declare function save(items: readonly unknown[]): void;
declare function store(items: readonly unknown[]): Promise<void>;
declare function loadCursor(): Promise<string | undefined>;
declare function saveCursor(cursor: string | undefined): Promise<void>;
`;

/**
 * Globals of the DOM's `window` whose names an example may well mean as its own (an
 * `event` it forgot to declare): one not declared by the example is an error, for it
 * would type-check as the window's.
 */
const WINDOW_SHORTCUTS = new Set([
  'close',
  'closed',
  'event',
  'find',
  'history',
  'length',
  'location',
  'name',
  'open',
  'origin',
  'parent',
  'print',
  'self',
  'status',
  'stop',
  'top',
]);

interface Example {
  /** The source file, from the root. */
  file: string;
  /** The line of the example's first line of code, in the file (1-based). */
  line: number;
  code: string;
}

/**
 * The `@example` blocks of a file's text, their comment stars removed, and what is
 * wrong with those that are not one ```ts block.
 */
function tsdocExamples(file: string, text: string): { examples: Example[]; malformed: string[] } {
  const lines = text.split('\n');
  const examples: Example[] = [];
  const malformed: string[] = [];
  const starless = (line: string) => line.replace(/^\s*\*( |$)/, '');
  for (let index = 0; index < lines.length; index += 1) {
    if (!/^\s*\*\s*@example(\s|$)/.test(lines[index] ?? '')) continue;
    const tag = index + 1;
    // The tag's text: up to the next tag or the comment's end, a fence's lines whole.
    let fenced = false;
    const fences: { line: number; language: string; code: string[] }[] = [];
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const line = lines[end] ?? '';
      if (/\*\//.test(line) || (!fenced && /^\s*\*\s*@\w/.test(line))) break;
      const body = starless(line);
      const fence = /^\s*```(\S*)/.exec(body);
      if (fence) {
        if (!fenced) fences.push({ line: end + 2, language: fence[1] ?? '', code: [] });
        fenced = !fenced;
      } else if (fenced) {
        fences.at(-1)?.code.push(body);
      }
    }
    const [only, ...more] = fences;
    if (only === undefined || more.length > 0 || fenced) {
      malformed.push(`${file}:${tag}: an @example is one \`\`\`ts block (found ${fences.length})`);
    } else if (only.language !== 'ts') {
      malformed.push(`${file}:${tag}: an @example's block is \`\`\`ts, not \`\`\`${only.language}`);
    } else {
      examples.push({ file, line: only.line, code: only.code.join('\n') });
    }
    index = end - 1;
  }
  return { examples, malformed };
}

/** The `.ts` files of SOURCES, from the root. */
function sourceFiles(): string[] {
  const include = SOURCES.map((folder) => `${folder}/**/*`);
  return ts.sys
    .readDirectory(ROOT, ['.ts'], undefined, include)
    .map((path) => relative(ROOT, path));
}

/**
 * Type-checks the examples in one program, each a module beside its file, with GIVEN;
 * returns the diagnostics as `file:line: message`, the line in the example's file.
 */
function typeCheck(examples: Example[]): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const paths = { ...parsed.options.paths };
  for (const [name, source] of Object.entries(PUBLISHED)) paths[name] = [join(ROOT, source)];
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    paths,
  };
  // Virtual modules: the name of each, its text, and where its first line is.
  const virtual = new Map<string, { text: string; file: string; line: number }>();
  const given = join(ROOT, 'test/docs/__given__.d.ts');
  virtual.set(given, { text: GIVEN, file: 'test/docs/examples.test.ts (GIVEN)', line: 1 });
  for (const { file, line, code } of examples) {
    const name = join(ROOT, dirname(file), `__example__${file.replace(/\W/g, '_')}_${line}.ts`);
    virtual.set(name, { text: `${code}\nexport {};\n`, file, line });
  }
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const module = virtual.get(name);
    return module === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, module.text, language);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name)?.text ?? readFile(name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  // Only the examples' own diagnostics (and the program's): the source's are tsc's.
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const name of virtual.keys()) {
    const source = program.getSourceFile(name);
    diagnostics.push(
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    );
  }
  const errors = diagnostics.map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const module = diagnostic.file && virtual.get(diagnostic.file.fileName);
    if (!diagnostic.file || !module) return `${diagnostic.file?.fileName ?? ''}: ${message}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    return `${module.file}:${module.line + line}: ${message}`;
  });
  const checker = program.getTypeChecker();
  for (const [name, module] of virtual) {
    const source = program.getSourceFile(name);
    if (!source) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && WINDOW_SHORTCUTS.has(node.text)) {
        const declarations = checker.getSymbolAtLocation(node)?.declarations ?? [];
        // The window's own global (`declare var status`), not a member of a DOM type
        // (a Response's `status`).
        const global = (d: ts.Declaration) =>
          (ts.isVariableDeclaration(d) || ts.isFunctionDeclaration(d)) &&
          d.getSourceFile().fileName.endsWith('lib.dom.d.ts');
        if (declarations.some(global)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          errors.push(
            `${module.file}:${module.line + line}: '${node.text}' is not declared (it would be the DOM's window.${node.text})`,
          );
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return errors;
}

/** A source file with a wrong example, a well-formed one, and one without its block. */
const WRONG = `/**
 * @example
 * \`\`\`ts
 * const cursor: string = (await client.people.pages().next()).value?.cursor;
 * \`\`\`
 * @example
 * \`\`\`ts
 * import { field } from 'adis-sdk';
 * field('given_name').eq('Ana');
 * \`\`\`
 * @example
 * \`\`\`ts
 * console.log(event?.type);
 * \`\`\`
 */
/**
 * @example
 * isPerson(resource);
 */
`;

const files = sourceFiles();
const found = files.map((file) => tsdocExamples(file, readFileSync(join(ROOT, file), 'utf8')));
const examples = found.flatMap(({ examples }) => examples);
const wrong = tsdocExamples('test/docs/__wrong__.ts', WRONG);

describe('TSDoc examples', () => {
  let errors: string[] = [];
  beforeAll(() => {
    errors = typeCheck([...examples, ...wrong.examples]);
  }, 120_000);
  const isWrong = (error: string) => error.startsWith('test/docs/__wrong__.ts:');

  it(`of ${files.length} files in ${SOURCES.join(' and ')} (${examples.length} examples) are each one \`\`\`ts block`, () => {
    expect(found.flatMap(({ malformed }) => malformed)).toEqual([]);
  });

  it('of those files type-check', () => {
    expect(errors.filter((error) => !isWrong(error))).toEqual([]);
  });

  it('that are wrong are reported at their file and line', () => {
    expect(wrong.malformed).toEqual([
      'test/docs/__wrong__.ts:17: an @example is one ```ts block (found 0)',
    ]);
    expect(errors.filter(isWrong)).toEqual([
      expect.stringMatching(
        /^test\/docs\/__wrong__\.ts:4: .*undefined.*not assignable to type 'string'/,
      ),
      "test/docs/__wrong__.ts:13: 'event' is not declared (it would be the DOM's window.event)",
    ]);
  });
});

/**
 * Code in the docs that nothing else compiles is checked here, so that it cannot rot:
 *
 * - the TSDoc `@example` blocks of the files in TYPE_CHECKED type-check, each as a
 *   module of its own that imports `adis-sdk` (mapped to the source), with the names
 *   an example takes as given (`client`, `store`…) declared in GIVEN;
 * - the `ts` blocks of the guides in EXCERPTED are excerpts, word for word, of the
 *   example program or source they name (which `tsc` and the tests check), and the
 *   guides in SHOWN_WHOLE show the example file they name whole (a tested page);
 * - the message docs/export.md shows for an unreachable server is the one the built
 *   `adis-export` prints (npm test builds first).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Source files whose `@example` blocks must type-check. */
const TYPE_CHECKED = ['src/navigator/collection.ts'];

/** What the examples take as given: declared globally, so an example may shadow them. */
const GIVEN = `
type Sdk = typeof import('${ROOT}/src/index.js');
declare const client: import('${ROOT}/src/index.js').Client;
declare const context: import('${ROOT}/src/navigator/context.js').NavigatorContext;
declare const Collection: Sdk['Collection'];
declare const personKind: Sdk['personKind'];
declare const peopleUrl: string;
declare function save(items: readonly unknown[]): void;
declare function store(items: readonly unknown[]): Promise<void>;
declare function loadCursor(): Promise<string | undefined>;
declare function saveCursor(cursor: string | undefined): Promise<void>;
`;

/** Guides whose `ts` blocks are excerpts of the files named. */
const EXCERPTED: Record<string, string[]> = {
  'docs/syncing.md': ['examples/sync-changes.ts', 'src/navigator/collection.ts'],
  'docs/webhooks.md': [
    'examples/webhook-receiver.ts',
    'test/webhooks/receiver-example.test.ts',
    'test/e2e/webhooks.test.ts',
  ],
};

/** The `@example` code blocks of a source file, their comment stars removed. */
function tsdocExamples(file: string): { line: number; code: string }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const examples: { line: number; code: string }[] = [];
  for (const match of text.matchAll(/@example\s*\n\s*\* ```ts\n([\s\S]*?)\n\s*\* ```/g)) {
    const code = (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n');
    examples.push({ line: text.slice(0, match.index).split('\n').length, code });
  }
  return examples;
}

/** Type-checks modules given by name and text; returns the diagnostics as text. */
function typeCheck(modules: Record<string, string>): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    noUnusedLocals: false,
    paths: { ...parsed.options.paths, 'adis-sdk': ['./src/index.ts'] },
    baseUrl: ROOT,
  };
  const host = ts.createCompilerHost(options);
  const virtual = new Map(Object.entries(modules).map(([name, text]) => [join(ROOT, name), text]));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const text = virtual.get(name);
    return text === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, text, language);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file === undefined || virtual.has(diagnostic.file.fileName))
    .map((diagnostic) => {
      const where = diagnostic.file?.fileName.slice(ROOT.length + 1) ?? '';
      const { line } = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0) ?? {
        line: 0,
      };
      return `${where}:${line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
}

/** The `ts` code blocks of a markdown file. */
function markdownBlocks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/** The file's lines without their indentation (an excerpt may be shown dedented). */
function trimmedLines(text: string): string[] {
  return text.split('\n').map((line) => line.trim());
}

function containsRun(haystack: string[], needle: string[]): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    if (needle.every((line, index) => haystack[start + index] === line)) return true;
  }
  return false;
}

describe('TSDoc examples', () => {
  it(`of ${TYPE_CHECKED.join(', ')} type-check, and a wrong one is caught`, () => {
    const modules: Record<string, string> = { 'test/docs/__given__.d.ts': GIVEN };
    for (const file of TYPE_CHECKED) {
      const examples = tsdocExamples(file);
      expect(examples.length, file).toBeGreaterThan(5);
      for (const { line, code } of examples) {
        // `export {}` makes each example a module: top-level await, names of its own.
        modules[`test/docs/__${file.replace(/\W/g, '_')}_line_${line}__.ts`] =
          `${code}\nexport {};\n`;
      }
    }
    // The checker's own check, in the same program (one program: it takes seconds).
    modules['test/docs/__wrong__.ts'] =
      'const cursor: string = (await client.people.pages().next()).value?.cursor;\nexport {};\n';
    const errors = typeCheck(modules);
    const isWrong = (error: string) => error.includes('__wrong__');
    expect(errors.filter(isWrong)).toEqual([
      expect.stringMatching(/__wrong__\.ts:1: .*undefined.*not assignable to type 'string'/),
    ]);
    expect(errors.filter((error) => !isWrong(error))).toEqual([]);
  }, 120_000);
});

/** Guides that show a whole example file in a code block. */
const SHOWN_WHOLE: Record<string, string> = {
  'docs/browser.md': 'examples/no-bundler/index.html',
};

describe('guide code', () => {
  it.each(Object.entries(SHOWN_WHOLE))('in %s shows %s as it is', (guide, file) => {
    const text = readFileSync(join(ROOT, guide), 'utf8');
    const whole = readFileSync(join(ROOT, file), 'utf8');
    const extension = file.slice(file.lastIndexOf('.') + 1);
    const blocks = [
      ...text.matchAll(new RegExp(`^\`\`\`${extension}\n([\\s\\S]*?)^\`\`\`$`, 'gm')),
    ];
    expect(blocks.map((block) => block[1])).toContain(whole);
  });

  it.each(Object.entries(EXCERPTED))('in %s is excerpted from %s', (guide, sources) => {
    const blocks = markdownBlocks(guide);
    expect(blocks.length).toBeGreaterThan(0);
    const texts = sources.map((source) => {
      const text = readFileSync(join(ROOT, source), 'utf8');
      // TSDoc examples count without their comment stars.
      return trimmedLines(text).map((line) => line.replace(/^\* ?/, '').trim());
    });
    const missing = blocks.filter(
      (block) => !texts.some((lines) => containsRun(lines, trimmedLines(block.trimEnd()))),
    );
    expect(missing, `not found word for word in ${sources.join(' or ')}`).toEqual([]);
  });
});

describe('docs/export.md', () => {
  it('shows the message adis-export really prints for an unreachable server', async () => {
    // A port nothing listens on: taken, then given back.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const folder = mkdtempSync(join(tmpdir(), 'adis-export-doc-'));
    const url = `http://127.0.0.1:${port}/api/v1/`;
    const failed = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'dist/cli/export-cli.js'), '--url', url, '-o', join(folder, 'people.csv')],
      { env: { ...process.env, ADIS_KEY: 'any' } },
    ).catch((error: { code: number; stderr: string }) => error);
    rmSync(folder, { recursive: true, force: true });
    expect('code' in failed && failed.code).toBe(1);
    const printed = String(failed.stderr).trim().replaceAll(String(port), '8001');
    expect(readFileSync(join(ROOT, 'docs/export.md'), 'utf8')).toContain(`\n${printed}\n`);
  });
});

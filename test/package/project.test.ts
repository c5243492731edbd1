/**
 * The packages as a new user's project gets them: both are packed (`npm pack`, the
 * files a publish ships), unpacked into the `node_modules` of a project made by
 * `npm init -y`, and used from there. Checked:
 *
 * - every file the exports maps, `main`, `types` and `bin` name is in the tarballs (a
 *   pack without a build would ship no code), and `prepack` builds;
 * - the CommonJS project that `npm init -y` makes can `require()` each CommonJS entry;
 * - the README's tour, its "Use it in your project" example and the testing kit's test
 *   file (docs/testing.md) type-check against the packed types, with the README's two
 *   tsconfig.json files (`module: nodenext`, `moduleResolution: bundler`) in an ES module
 *   project, and the testing kit's file in the CommonJS project too.
 *
 * npm test builds before testing, so the packs skip `prepack` (a second build would take
 * a minute). The packages' own dependencies come from the repository's node_modules,
 * linked in: nothing is fetched.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../reference-server/src/testing.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
/** TypeScript 7, what `npm i -D typescript` installs today (`typescript-7`: an npm alias). */
const tsc7 = join(root, 'node_modules', 'typescript-7', 'bin', 'tsc');
const PACKAGES = { 'adis-sdk': '.', 'adis-server': 'reference-server' } as const;

let workspace: string;
/** A project as `npm init -y` makes it: CommonJS. */
let commonJsProject: string;
/** The same, after the README's `npm pkg set type=module`. */
let moduleProject: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'adis-project-'));
  const modules = join(workspace, 'node_modules');
  await mkdir(modules);
  for (const [name, folder] of Object.entries(PACKAGES)) {
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', workspace],
      { cwd: join(root, folder), maxBuffer: 16 * 1024 * 1024 },
    );
    const [tarball] = JSON.parse(stdout) as { filename: string }[];
    if (!tarball) throw new Error(`npm pack printed no tarball for ${name}`);
    await mkdir(join(modules, name));
    await run('tar', [
      'xzf',
      join(workspace, tarball.filename),
      '-C',
      join(modules, name),
      '--strip-components=1',
    ]);
  }
  // Their dependencies (and typescript, msw, vitest, @types/node), as installed here.
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry in PACKAGES || entry === '.bin' || entry.startsWith('.')) continue;
    await symlink(join(root, 'node_modules', entry), join(modules, entry));
  }
  commonJsProject = join(workspace, 'commonjs');
  moduleProject = join(workspace, 'module');
  for (const project of [commonJsProject, moduleProject]) {
    await mkdir(project);
    await run('npm', ['init', '-y'], { cwd: project });
  }
  await run('npm', ['pkg', 'set', 'type=module'], { cwd: moduleProject });
}, 180_000);

afterAll(async () => {
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

/** Every file path a manifest's exports, main, module, types and bin name. */
function namedFiles(manifest: Record<string, unknown>): string[] {
  const paths: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') paths.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  for (const field of ['exports', 'main', 'module', 'types', 'bin']) collect(manifest[field]);
  return [...new Set(paths)].map((path) => path.replace(/^\.\//, '')).sort();
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** The code blocks of one language in the section of a markdown file under `heading`. */
function blocksUnder(file: string, heading: string, language: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const end = text.indexOf('\n## ', start + heading.length + 2);
  const section = text.slice(start, end < 0 ? undefined : end);
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  return [...section.matchAll(fence)].map((match) => match[1] ?? '');
}

function only<T>(items: T[], what: string): T {
  if (items.length !== 1) throw new Error(`expected one ${what}, found ${items.length}`);
  return items[0] as T;
}

/** The README's tsconfig.json whose compilerOptions contain `marker`. */
function readmeTsconfig(marker: string): Record<string, unknown> {
  const blocks = blocksUnder('README.md', '## Use it in your project', 'json');
  return JSON.parse(
    only(
      blocks.filter((block) => block.includes(marker)),
      `tsconfig with ${marker}`,
    ),
  );
}

const snippets = () => ({
  'tour.ts': only(blocksUnder('README.md', '## A short tour', 'ts'), 'tour'),
  'main.ts': only(blocksUnder('README.md', '## Use it in your project', 'ts'), 'example'),
  'people.test.ts': only(
    blocksUnder('docs/testing.md', '## A complete test file', 'ts'),
    'test file',
  ),
});

/**
 * Runs tsc (`compiler`, default the project's 5.9) in `project` on `files` (name → text)
 * with `tsconfig`, emitting nothing unless `emit`; its output if it fails.
 */
async function typeCheck(
  project: string,
  tsconfig: Record<string, unknown>,
  files: Record<string, string>,
  { compiler = tsc, emit = false }: { compiler?: string; emit?: boolean } = {},
): Promise<string> {
  for (const [name, text] of Object.entries(files)) await writeFile(join(project, name), text);
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({ ...tsconfig, files: Object.keys(files) }),
  );
  const args = [compiler, '-p', 'tsconfig.json', ...(emit ? [] : ['--noEmit'])];
  return run(process.execPath, args, { cwd: project }).then(
    () => '',
    (error: { stdout: string }) => error.stdout || String(error),
  );
}

describe('the packed packages', () => {
  it.each(Object.entries(PACKAGES))(
    '%s: every file its manifest names is in the tarball',
    (name, folder) => {
      const manifest = readJson(join(root, folder, 'package.json'));
      const named = namedFiles(manifest);
      expect(named.filter((path) => path.startsWith('dist/')).length).toBeGreaterThan(2);
      const missing = named.filter(
        (path) => !existsSync(join(workspace, 'node_modules', name, path)),
      );
      expect(missing).toEqual([]);
    },
  );

  it('are built by prepack, so that npm pack and npm publish ship the code', () => {
    const sdk = readJson(join(root, 'package.json')).scripts as Record<string, string>;
    expect(sdk.prepack).toBe('tsup');
    expect(sdk.build).toMatch(/^tsup && /);
    const server = readJson(join(root, 'reference-server', 'package.json')).scripts as Record<
      string,
      string
    >;
    expect(server.prepack).toBe('npm run build');
    expect(server.build).toBe('tsup');
  });

  it('can be required by the CommonJS project that npm init -y makes', async () => {
    expect(readJson(join(commonJsProject, 'package.json')).type).not.toBe('module');
    const script =
      "for (const entry of ['adis-sdk', 'adis-sdk/helpers', 'adis-sdk/schema'])" +
      ' console.log(entry, Object.keys(require(entry)).length > 0)';
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: commonJsProject });
    expect(stdout).toBe('adis-sdk true\nadis-sdk/helpers true\nadis-sdk/schema true\n');
  });
});

// The README's tsconfig.json files say nothing of skipLibCheck, so the first check also
// checks every declaration file (the packages', zod's, msw's): it would show the
// package's own .d.ts failing. That costs some 15 seconds, so the others skip it.
const skippingLibCheck = (tsconfig: Record<string, unknown>) => ({
  ...tsconfig,
  compilerOptions: { ...(tsconfig.compilerOptions as object), skipLibCheck: true },
});

describe("the docs' code, against the packed types", () => {
  it("type-checks with the README's module: nodenext tsconfig.json, declaration files too", async () => {
    expect(await typeCheck(moduleProject, readmeTsconfig('nodenext'), snippets())).toBe('');
  }, 180_000);

  it("type-checks with the README's moduleResolution: bundler tsconfig.json", async () => {
    const tsconfig = skippingLibCheck(readmeTsconfig('bundler'));
    expect(await typeCheck(moduleProject, tsconfig, snippets())).toBe('');
  }, 180_000);

  it('type-checks with TypeScript 7 too, under both tsconfig.json files (what npm installs today)', async () => {
    for (const marker of ['nodenext', 'bundler']) {
      const tsconfig = skippingLibCheck(readmeTsconfig(marker));
      expect(await typeCheck(moduleProject, tsconfig, snippets(), { compiler: tsc7 }), marker).toBe(
        '',
      );
    }
  }, 180_000);

  it("the README's main.ts, compiled by `npx tsc` and run by `node main.js`, does what the README says", async () => {
    const { 'main.ts': example } = snippets();
    const folder = join(moduleProject, 'run-main');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'package.json'), '{ "type": "module" }');
    const compiled = await typeCheck(
      folder,
      skippingLibCheck(readmeTsconfig('nodenext')),
      { 'main.ts': example },
      { compiler: tsc7, emit: true },
    );
    expect(compiled).toBe('');
    const kit = createTestServer({ seed: { people: 12, seed: 3 } });
    const running = await kit.listen();
    try {
      const { stdout } = await run(process.execPath, ['main.js'], {
        cwd: folder,
        env: { ...process.env, ADIS_URL: running.entryPoint, ADIS_KEY: kit.keys.write },
      });
      const lines = stdout.trim().split('\n');
      // The first ten people, a name and an email address each, then the one created.
      expect(lines).toHaveLength(11);
      for (const line of lines.slice(0, 10)) expect(line).toMatch(/^\S+ \S+@\S+$/);
      expect(lines[10]).toBe('created Ana');
    } finally {
      await kit.close();
    }
  }, 180_000);

  it("in the CommonJS project: the testing kit's file type-checks (msw's require types), top-level await fails as the README says", async () => {
    const { 'main.ts': example, 'people.test.ts': kit } = snippets();
    const output = await typeCheck(commonJsProject, skippingLibCheck(readmeTsconfig('nodenext')), {
      'main.ts': example,
      'people.test.ts': kit,
    });
    const errors = output.split('\n').filter((line) => line.includes('error TS'));
    expect(errors.length).toBeGreaterThan(0);
    // "The current file is a CommonJS module and cannot use 'await' at the top level."
    expect(errors.filter((line) => !/^main\.ts\(\d+,\d+\): error TS1309:/.test(line))).toEqual([]);
  }, 180_000);
});

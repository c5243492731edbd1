import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// What `npm pack` puts in each published tarball (npm test builds first, so dist/ is
// there). Users get the built code, its types and source maps (with the sources
// embedded), the commands' launchers (bin/), the README, the licence and, for the SDK,
// the changelog: no tests, no
// TypeScript sources, no examples, no local databases.
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

interface PackedFile {
  path: string;
  size: number;
}

async function packedFiles(workspace?: string): Promise<string[]> {
  const args = ['pack', '--dry-run', '--json', '--ignore-scripts'];
  if (workspace) args.push('--workspace', workspace);
  const { stdout } = await run('npm', args, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  const [tarball] = JSON.parse(stdout) as { files: PackedFile[] }[];
  if (!tarball) throw new Error(`npm pack printed no tarball: ${stdout.slice(0, 200)}`);
  return tarball.files.map((file) => file.path).sort();
}

function packageJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(`${root}${path}`, 'utf8')) as Record<string, unknown>;
}

// One file per module in the ESM build: dist/ and its folders.
const BUILT = /^dist\/([\w-]+\/)*[\w.-]+\.(js|cjs|d\.ts|d\.cts|js\.map|cjs\.map)$/;
// The commands' launchers (bin/, committed so that npm links them in a clone before any
// build), which run the built command in dist/.
const BIN = /^bin\/adis-[\w-]+\.js$/;

describe('the adis-sdk tarball', () => {
  it('holds only the build, its types and maps, and the package documents', async () => {
    const files = await packedFiles();
    const unexpected = files.filter(
      (path) =>
        !BUILT.test(path) &&
        !BIN.test(path) &&
        !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(path),
    );
    expect(unexpected).toEqual([]);
    for (const needed of [
      'LICENSE',
      'CHANGELOG.md',
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
      'dist/helpers/index.js',
      'dist/helpers.cjs',
      'dist/helpers.d.ts',
      'dist/schema/index.js',
      'dist/schema.cjs',
      'dist/schema.d.ts',
      'dist/cli/export-cli.js',
      'dist/cli/check-cli.js',
      'bin/adis-export.js',
      'bin/adis-check.js',
    ]) {
      expect(files).toContain(needed);
    }
  });

  it('declares no side effects, Node 20 or newer, and a bin that is in the tarball', async () => {
    const manifest = packageJson('package.json');
    expect(manifest.sideEffects).toBe(false);
    expect(manifest.engines).toEqual({ node: '>=20' });
    const files = await packedFiles();
    for (const target of Object.values(manifest.bin as Record<string, string>)) {
      expect(files).toContain(target.replace(/^\.\//, ''));
    }
  });
});

describe('the adis-server tarball', () => {
  it('holds only the build, its types and maps, the README and the licence', async () => {
    const files = await packedFiles('adis-server');
    const unexpected = files.filter(
      (path) =>
        !BUILT.test(path) &&
        !BIN.test(path) &&
        !['package.json', 'README.md', 'LICENSE'].includes(path),
    );
    expect(unexpected).toEqual([]);
    for (const needed of [
      'LICENSE',
      'dist/index.js',
      'dist/testing.js',
      'dist/cli.js',
      'bin/adis-server.js',
    ]) {
      expect(files).toContain(needed);
    }
  });

  it('points its exports and bin at files in the tarball', async () => {
    const manifest = packageJson('reference-server/package.json');
    expect(manifest.engines).toEqual({ node: '>=20' });
    const files = await packedFiles('adis-server');
    // Conditions nest (`require` → `types`/`default`): every leaf is a file.
    const leaves = (target: unknown): string[] =>
      typeof target === 'string'
        ? [target]
        : Object.values(target as Record<string, unknown>).flatMap(leaves);
    const exportTargets = leaves(manifest.exports);
    const targets = [...exportTargets, ...Object.values(manifest.bin as Record<string, string>)];
    for (const target of targets) expect(files).toContain(target.replace(/^\.\//, ''));
  });
});

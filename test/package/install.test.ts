/**
 * What `npm ci` does in a fresh clone, checked without running it (it takes minutes):
 *
 * - every package the lock file installs accepts Node 20, which the README asks for, so
 *   `npm ci` prints no engine warning on it (miniflare after 4.20260426.0 needs Node 22:
 *   it is pinned there);
 * - every bin the two packages declare is a committed file (a launcher in bin/ that runs
 *   the build in dist/), so that npm links it before anything is built: npm links no bin
 *   whose file is missing, and `npx adis-server` then said `adis-server: not found`;
 * - in a copy of the clone's manifests and launchers (dependencies left out, so nothing is
 *   fetched), `npm install` links `node_modules/.bin/adis-server`, and each command run
 *   before a build says to run `npm run build` first, exit 2.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

const root = fileURLToPath(new URL('../../', import.meta.url));

function json<T>(path: string): T {
  return JSON.parse(readFileSync(`${root}${path}`, 'utf8')) as T;
}

// semver comes with npm's own tooling in node_modules (many dev dependencies use it).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
};

/** The oldest Node 20 the dev tools accept (vite 8, rolldown and yargs need 20.19). */
const NODE_20 = '20.19.0';

interface LockedPackage {
  version?: string;
  optional?: boolean;
  engines?: { node?: string };
}

describe('npm ci on Node 20', () => {
  it('installs no package whose engines exclude Node 20 (npm would warn)', () => {
    const lock = json<{ packages: Record<string, LockedPackage> }>('package-lock.json');
    const refusing = Object.entries(lock.packages)
      // An optional package that refuses this Node is skipped by npm, not installed.
      .filter(([, entry]) => !entry.optional && entry.engines?.node)
      .filter(([, entry]) => !semver.satisfies(NODE_20, entry.engines?.node ?? '*'))
      .map(([path, entry]) => `${path}@${entry.version}: node ${entry.engines?.node}`);
    expect(refusing).toEqual([]);
  });
});

interface Manifest {
  bin: Record<string, string>;
  files: string[];
  [field: string]: unknown;
}

/** The two packages: their folders in the repository, and the bins they declare. */
const PACKAGES = { 'adis-sdk': '', 'adis-server': 'reference-server/' } as const;

describe('the bins in a clone', () => {
  const tracked = async () =>
    (await run('git', ['ls-files', '-s', 'bin', 'reference-server/bin'], { cwd: root })).stdout;

  it('are committed executable files with a shebang, in the published files', async () => {
    const index = await tracked();
    for (const folder of Object.values(PACKAGES)) {
      const manifest = json<Manifest>(`${folder}package.json`);
      for (const [name, target] of Object.entries(manifest.bin)) {
        const path = `${folder}${target.replace(/^\.\//, '')}`;
        expect(existsSync(`${root}${path}`), `${name}: ${path}`).toBe(true);
        // Mode 100755 in git, so that a clone's file is executable too.
        expect(index, `${path} committed as executable`).toMatch(
          new RegExp(`^100755 \\w+ 0\\t${path}$`, 'm'),
        );
        accessSync(`${root}${path}`, constants.X_OK);
        expect(readFileSync(`${root}${path}`, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
        expect(manifest.files).toContain(target.replace(/^\.\//, '').split('/')[0]);
      }
    }
  });

  it('are linked by npm install before any build, and say to build first', async () => {
    const clone = await mkdtemp(join(tmpdir(), 'adis-clone-bins-'));
    try {
      for (const folder of Object.values(PACKAGES)) {
        const manifest = json<Manifest>(`${folder}package.json`);
        for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
          delete manifest[field];
        }
        delete manifest.peerDependenciesMeta;
        delete manifest.overrides;
        delete manifest.scripts;
        await mkdir(join(clone, folder), { recursive: true });
        await writeFile(join(clone, folder, 'package.json'), JSON.stringify(manifest, null, 2));
        await cp(join(root, folder, 'bin'), join(clone, folder, 'bin'), { recursive: true });
      }
      await run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: clone,
      });
      expect(existsSync(join(clone, 'node_modules', '.bin', 'adis-server'))).toBe(true);
      for (const name of ['adis-server', 'adis-export', 'adis-check']) {
        const failed = await run('npx', ['--no-install', name, '--help'], { cwd: clone }).then(
          () => undefined,
          (error: { code: number; stderr: string }) => error,
        );
        expect(failed?.code, name).toBe(2);
        expect(failed?.stderr, name).toContain(`${name}: `);
        expect(failed?.stderr, name).toContain('run npm run build first');
      }
    } finally {
      await rm(clone, { recursive: true, force: true });
    }
  });
});

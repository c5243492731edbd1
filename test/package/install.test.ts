/**
 * What `npm ci` does in a fresh clone, checked without running it (it takes minutes):
 *
 * - every package the lock file installs accepts Node 20, which the README asks for, so
 *   `npm ci` prints no engine warning on it (miniflare after 4.20260426.0 needs Node 22:
 *   it is pinned there);
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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

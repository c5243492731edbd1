/**
 * The server's HTTP suite again, on PostgreSQL (`npm run test:postgres`): every test file
 * whose server is made by the harness (`test/helpers.ts`, `test/helpers-setup.ts`,
 * `test/action-network/an-server.ts`), which takes its storage from `test/engine.ts`,
 * runs with `ADIS_TEST_ENGINE=postgres`. The files are found by what they import, so a
 * new test on the harness is in both runs without a list to keep.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * Files on the harness left out: SQLite's group commit, which PostgreSQL does not have
 * (its own durability tests are under test/postgres/).
 */
const LEFT_OUT = /^test\/group-commit[a-z-]*\.test\.ts$/;
/** An import of one of the harnesses: the file's server runs on the run's engine. */
const ON_THE_HARNESS = /from '\.\.?\/(helpers|helpers-setup|an-server)\.js'/;

function harnessTests(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'postgres' ? [] : harnessTests(path);
    if (!entry.name.endsWith('.test.ts')) return [];
    if (LEFT_OUT.test(path)) return [];
    return ON_THE_HARNESS.test(readFileSync(join(root, path), 'utf8')) ? [path] : [];
  });
}

// Spread, not mergeConfig: that would add these files to the base run's, not replace them.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: harnessTests('test'),
    env: { ADIS_TEST_ENGINE: 'postgres' },
  },
});

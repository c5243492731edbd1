import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../reference-server/src/index.js';
import { type TestServer, testServer } from '../e2e/reference-server.js';

// Runs examples/sync-changes.ts as a user would (a process, over HTTP, importing the
// built 'adis-sdk'), so the example is checked in CI beyond type-checking. The other
// examples run in `npm run demo`, which CI runs too.
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let server: TestServer;
let running: RunningServer;
let folder: string;

beforeAll(async () => {
  server = testServer(12);
  running = await server.listen();
  folder = await mkdtemp(join(tmpdir(), 'adis-sync-'));
});
afterAll(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

async function sync(statePath: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'examples/sync-changes.ts',
      running.entryPoint,
      server.keys.read,
      statePath,
    ],
    { cwd: root },
  );
  return stdout;
}

describe('examples/sync-changes.ts', () => {
  it('fetches everyone on the first run, saves the mark, and starts the next run from it', async () => {
    const statePath = join(folder, 'state.json');
    const first = await sync(statePath);
    // One line per person (modified date and URL), then the summary.
    expect(first.match(/ http:\/\/127\.0\.0\.1:\d+\/api\/v1\/people\/\S+$/gm)).toHaveLength(12);
    expect(first).toMatch(/^Fetched 12 changed people since the beginning; next run starts at /m);
    const saved = JSON.parse(await readFile(statePath, 'utf8')) as { since: string };
    expect(Number.isNaN(Date.parse(saved.since))).toBe(false);

    // Which people the second run sees depends on the clock (the example's own test,
    // test/e2e/filters-sync.test.ts, controls it); here: it runs from the saved mark.
    const second = await sync(statePath);
    expect(second).toContain(`since ${saved.since};`);
  });
});

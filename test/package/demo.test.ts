/**
 * `npm run demo`: its first lines are the demo's, not a build listing. The build it runs
 * first keeps its output back unless it fails (npm test has built already, so the run
 * here skips it), and the script npm runs is the demo alone. With `--exit` (as here) the
 * server runs on a free port and `:memory:`, as the README says.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('npm run demo', () => {
  it('is the demo script alone: the build it needs runs inside it, quietly', () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.demo).toBe('tsx scripts/demo.ts');
    const demo = readFileSync(`${root}scripts/demo.ts`, 'utf8');
    expect(demo).toContain("spawn('npm', ['run', 'build', '--silent']");
    expect(demo).toContain("stdio: ['ignore', 'pipe', 'pipe']");
  });

  it('starts its output with the server and the tour', async () => {
    const tsx = `${root}node_modules/.bin/tsx`;
    const { stdout } = await run(tsx, ['scripts/demo.ts', '--exit', '--skip-build'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^\[server\] /);
    const tour = lines.findIndex((line) => line.startsWith('$ npx tsx examples/tour.ts '));
    expect(tour).toBeGreaterThan(0);
    // The server's start-up, its key among it, before the tour.
    const key = lines.findIndex((line) =>
      /^\[server\] API key \(demo tenant, write\): /.test(line),
    );
    expect(key).toBeGreaterThanOrEqual(0);
    expect(key).toBeLessThan(tour);
    expect(lines.slice(0, tour).every((line) => line === '' || line.startsWith('[server] '))).toBe(
      true,
    );
    // As the README says: --exit runs on :memory: and a free port, not on 8000 and a file.
    expect(lines).toContain('[server] Database: :memory:');
    const port = /^\[server\] Entry point: http:\/\/127\.0\.0\.1:(\d+)\/api\/v1\/$/
      .exec(lines.find((line) => line.includes('Entry point: ')) ?? '')
      ?.at(1);
    expect(port).toBeDefined();
    expect(port).not.toBe('8000');
  }, 120_000);
});

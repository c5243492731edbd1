/**
 * `npm test`'s runner (scripts/test-steps.ts), on tiny fake steps (`node -e …`): the steps
 * run in order, each announced as `== step i/N`; a step that prints nothing gets a
 * heartbeat line; the first failure stops the run and its exit code is the runner's.
 * Also: package.json's "test" script is the runner, and its step list is the one it had
 * as a `&&` chain.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runSteps, TEST_STEPS, type TestStep } from '../../scripts/test-steps.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

/** A step running `node -e <script>`. */
function node(name: string, script: string): TestStep {
  return { name, command: `node -e ${JSON.stringify(script)}`, doing: `doing ${name}` };
}

/** Runs `steps` and collects the runner's lines and the steps' stdout. */
async function collect(steps: TestStep[], heartbeatMs = 20_000) {
  const lines: string[] = [];
  let stdout = '';
  const code = await runSteps(steps, {
    heartbeatMs,
    say: (line) => lines.push(line),
    output: (chunk, stream) => {
      if (stream === 'stdout') stdout += chunk.toString();
    },
  });
  return { code, lines, stdout };
}

describe('the npm test runner', () => {
  it('runs the steps in order, announcing each as step i/N, and exits 0 when all pass', async () => {
    const { code, lines, stdout } = await collect([
      node('first', 'console.log("one")'),
      node('second', 'console.log("two")'),
      node('third', 'console.log("three")'),
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('one\ntwo\nthree\n');
    const announced = lines.filter((line) => / step \d\/3: /.test(line));
    expect(announced.map((line) => line.replace(/ \(.*$/, ''))).toEqual([
      '== step 1/3: first',
      '== step 2/3: second',
      '== step 3/3: third',
    ]);
    expect(lines.at(-1)).toMatch(/^== all 3 steps passed in \d+ s$/);
  });

  it('stops at the first failure and passes its exit code through', async () => {
    const { code, lines, stdout } = await collect([
      node('passes', 'console.log("ran")'),
      node('fails', 'process.exit(7)'),
      node('never', 'console.log("must not run")'),
    ]);
    expect(code).toBe(7);
    expect(stdout).toBe('ran\n');
    expect(lines.some((line) => line.includes('step 3/3'))).toBe(false);
    expect(lines.at(-1)).toMatch(
      /^== step 2\/3 failed: fails \(exit code 7, after \d+ s\); the 1 later step was not run$/,
    );
  });

  it('prints a heartbeat while a step is quiet, and none while it talks', async () => {
    const { code, lines } = await collect(
      [
        node('quiet', 'setTimeout(() => {}, 2500)'),
        node(
          'chatty',
          'const t = setInterval(() => console.log("."), 25); setTimeout(() => clearInterval(t), 1000)',
        ),
      ],
      800,
    );
    expect(code).toBe(0);
    const beats = lines.filter((line) => line.startsWith('… still'));
    expect(beats.length).toBeGreaterThanOrEqual(2);
    expect(beats.every((line) => /^… still doing quiet: \d+ s$/.test(line))).toBe(true);
  });

  it('reports a step killed by a signal as 128 + its number', async () => {
    const { code } = await collect([node('killed', 'process.kill(process.pid, "SIGTERM")')]);
    expect(code).toBe(143);
  });

  it('is what npm test runs, and lists the checks npm test always ran, build first', async () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.test).toBe('tsx scripts/test-steps.ts');
    expect(TEST_STEPS.map((step) => step.command)).toEqual([
      'npm run build',
      'npm run check:api',
      'npm run typecheck',
      'npm run check:cycles',
      'npm run check:layers',
      'npm run test:unit',
      'npm run test:e2e:postgres',
      'npm test --workspace adis-server',
      'npm run test:runtimes',
      'npm run size',
      'npm run test:browser',
    ]);
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/test-steps.ts', '--list'],
      {
        cwd: root,
      },
    );
    expect(stdout.split('\n')[0]).toBe('1. build: npm run build');
  });
});

/**
 * `npm test`: every check, one step after another, saying what runs and how far it is.
 *
 *   npm test                          # all the steps below, in order
 *   npx tsx scripts/test-steps.ts --list
 *
 * Before each step it prints `== step i/N: <name> (<command>)`; while a step prints
 * nothing for 20 s (the build's type declarations take about 90 s on two cores, the two
 * `tsc --noEmit` about a minute) it prints `… still <what it does>: <s> s`, as the
 * demo's build does. It stops at the first step that fails and exits with its exit code.
 * The step's own output passes through unchanged (colours kept on a terminal).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/** One step of `npm test`: a shell command run from the repository's root. */
export interface TestStep {
  /** Short name, printed in `== step i/N: <name>`. */
  name: string;
  /** The command, as in package.json's scripts. */
  command: string;
  /** What it is doing, for the heartbeat: `… still <doing>: 60 s`. */
  doing: string;
}

/** What `npm test` runs, in this order. */
export const TEST_STEPS: readonly TestStep[] = [
  {
    name: 'build',
    command: 'npm run build',
    doing: 'building the SDK and the server (their type declarations take most of it)',
  },
  { name: 'API report', command: 'npm run check:api', doing: 'comparing the API report' },
  {
    name: 'type-check',
    command: 'npm run typecheck',
    doing: 'type-checking the SDK and the server (tsc --noEmit, twice)',
  },
  { name: 'import cycles', command: 'npm run check:cycles', doing: 'looking for import cycles' },
  { name: 'layers', command: 'npm run check:layers', doing: 'checking the layers' },
  { name: 'SDK tests', command: 'npm run test:unit', doing: 'running the SDK tests' },
  {
    name: 'end-to-end on PostgreSQL',
    command: 'npm run test:e2e:postgres',
    doing: 'running the end-to-end tests on PostgreSQL',
  },
  {
    name: 'server tests (SQLite and PostgreSQL)',
    command: 'npm test --workspace adis-server',
    doing: "running the server's tests",
  },
  { name: 'runtimes', command: 'npm run test:runtimes', doing: 'running the runtime suite' },
  { name: 'bundle sizes', command: 'npm run size', doing: 'measuring the bundles' },
  { name: 'browser', command: 'npm run test:browser', doing: 'running the browser tests' },
];

/** How {@link runSteps} runs. */
export interface RunOptions {
  /** Silence, in milliseconds, after which a heartbeat line is printed. Default 20 s. */
  heartbeatMs?: number;
  /** Where the runner's own lines go (the steps' output goes to stdout and stderr). */
  say?: (line: string) => void;
  /** Where the steps' own output goes. Default: passed through to stdout and stderr. */
  output?: (chunk: Buffer, stream: 'stdout' | 'stderr') => void;
  /** Folder the commands run in. Default: the repository's root. */
  cwd?: string;
}

function passThrough(chunk: Buffer, stream: 'stdout' | 'stderr'): void {
  (stream === 'stdout' ? process.stdout : process.stderr).write(chunk);
}

const root = fileURLToPath(new URL('../', import.meta.url));

/** A child's exit as a shell reports it: its code, or 128 + the signal's number. */
function exitCode(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + ((signal && constants.signals[signal]) || 0);
}

/**
 * Runs `steps` in order, each in a shell, and resolves to 0 when all pass, else to the
 * exit code of the first that failed (later ones are not run).
 *
 * @example
 * ```ts
 * process.exitCode = await runSteps(TEST_STEPS);
 * ```
 */
export async function runSteps(
  steps: readonly TestStep[],
  {
    heartbeatMs = 20_000,
    say = (line) => console.log(line),
    output = passThrough,
    cwd = root,
  }: RunOptions = {},
): Promise<number> {
  const started = Date.now();
  const total = steps.length;
  let current: ChildProcess | undefined;
  const forward = (signal: NodeJS.Signals) => () => current?.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    for (const [index, step] of steps.entries()) {
      say(`== step ${index + 1}/${total}: ${step.name} (${step.command})`);
      const stepStarted = Date.now();
      const seconds = () => Math.round((Date.now() - stepStarted) / 1000);
      const env = { ...process.env };
      // Piped, a step's tools would drop their colours: keep them when we have a terminal.
      if (process.stdout.isTTY && env.FORCE_COLOR === undefined && env.NO_COLOR === undefined) {
        env.FORCE_COLOR = '1';
      }
      const child = spawn(step.command, {
        cwd,
        shell: true,
        env,
        stdio: ['inherit', 'pipe', 'pipe'],
      });
      current = child;
      let lastOutput = Date.now();
      child.stdout?.on('data', (chunk: Buffer) => {
        lastOutput = Date.now();
        output(chunk, 'stdout');
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        lastOutput = Date.now();
        output(chunk, 'stderr');
      });
      const heartbeat = setInterval(
        () => {
          if (Date.now() - lastOutput < heartbeatMs) return;
          say(`… still ${step.doing}: ${seconds()} s`);
          lastOutput = Date.now();
        },
        Math.min(1000, heartbeatMs),
      );
      const code = await new Promise<number>((resolve) => {
        child.on('error', () => resolve(127));
        child.on('close', (status, signal) => resolve(exitCode(status, signal)));
      });
      clearInterval(heartbeat);
      current = undefined;
      if (code !== 0) {
        const rest = total - index - 1;
        say(
          `== step ${index + 1}/${total} failed: ${step.name} (exit code ${code}, after ${seconds()} s)${rest ? `; the ${rest} later step${rest === 1 ? ' was' : 's were'} not run` : ''}`,
        );
        return code;
      }
      say(`== step ${index + 1}/${total} passed: ${step.name} (${seconds()} s)`);
    }
    say(`== all ${total} steps passed in ${Math.round((Date.now() - started) / 1000)} s`);
    return 0;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--list')) {
    for (const [index, step] of TEST_STEPS.entries()) {
      console.log(`${index + 1}. ${step.name}: ${step.command}`);
    }
  } else {
    process.exitCode = await runSteps(TEST_STEPS);
  }
}

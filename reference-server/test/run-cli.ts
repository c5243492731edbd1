/**
 * Starts the server's command line (`src/cli.ts`) as a child process for a test, and
 * stops what the test left running.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The reference server's package folder (where `src/cli.ts` is). */
export const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// tsx's loader, by absolute URL so it resolves from any working directory. Node runs
// the server itself: the `tsx` command would run it in a grandchild, which a SIGKILL
// of the child leaves serving (and leaks after the test).
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const children: ChildProcess[] = [];

/** A running command line: its process, its entry point once ready, its exit code. */
export interface CliRun {
  child: ChildProcess;
  /** The printed entry point URL; rejects when the process exits before printing it. */
  ready: Promise<string>;
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
}

/** Where {@link runCli} runs the command: the server folder and this process's env by default. */
export interface CliRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `node --import tsx src/cli.ts ...args` (one process, so killing it kills the
 * server), in the server folder unless `options.cwd` says otherwise.
 *
 * @example
 * ```ts
 * const server = runCli(['--port', '0', '--db', ':memory:']);
 * const entryPoint = await server.ready;
 * ```
 */
export function runCli(args: readonly string[], options: CliRunOptions = {}): CliRun {
  const child = spawn(
    process.execPath,
    ['--import', tsxLoader, resolve(serverDir, 'src/cli.ts'), ...args],
    {
      cwd: options.cwd ?? serverDir,
      // tsx reads tsconfig.json (its `adis-sdk/schema` path) from the working directory.
      env: {
        TSX_TSCONFIG_PATH: resolve(serverDir, 'tsconfig.json'),
        ...(options.env ?? process.env),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const ready = new Promise<string>((done, fail) => {
    const timer = setInterval(() => {
      const match = /^Entry point: (\S+)$/m.exec(stdout);
      if (match?.[1]) {
        clearInterval(timer);
        done(match[1]);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`server exited ${child.exitCode}: ${stderr}`));
      }
    }, 50);
  });
  // Cases that expect a failed start never await `ready`; keep its rejection handled.
  ready.catch(() => {});
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

/**
 * Kills every process {@link runCli} started that is still running (for `afterEach`).
 *
 * @example
 * ```ts
 * afterEach(killCliRuns);
 * ```
 */
export function killCliRuns(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

const tempDirs: string[] = [];

/**
 * A temporary folder for a run's files (database, keys file), removed by
 * {@link endCliRuns}.
 *
 * @example
 * ```ts
 * const db = join(cliTempDir('adis-cli-'), 'adis.db');
 * ```
 */
export function cliTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/**
 * Kills the runs still going and removes the temporary folders of {@link cliTempDir}.
 *
 * @example
 * ```ts
 * afterEach(endCliRuns);
 * ```
 */
export function endCliRuns(): void {
  killCliRuns();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

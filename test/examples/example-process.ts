import { type ChildProcess, spawn } from 'node:child_process';

/** An example started as a process, its output read line by line. */
export interface ExampleProcess {
  child: ChildProcess;
  /** Lines printed on stdout so far. */
  lines: string[];
  /** Everything printed on stderr so far. */
  errors(): string;
  /**
   * Resolves with the first stdout line that matches; rejects when the process ends
   * first, or after `deadlineMs` (default 50 s: a bound on a hang of the order of the
   * test timeout, since a runtime that starts in a second can take many on a loaded
   * machine).
   */
  waitFor(pattern: RegExp, deadlineMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code (null when killed by a signal); rejects when it could not start. */
  exited: Promise<number | null>;
  /** Ends the process (SIGTERM, then SIGKILL after a second) and waits for it. */
  stop(): Promise<void>;
}

/**
 * Starts `command` with `args` in `cwd`, with `env` added to this process's environment
 * (and `NO_COLOR`, so that the output holds no escape codes). A command that does not
 * exist rejects `exited` (ENOENT): a missing runtime fails the test that started it.
 *
 * @example
 * ```ts
 * const run = startExample('node_modules/.bin/bun', ['run', 'examples/bun/sync-people.ts'], { cwd: root, env: { ADIS_URL: url } });
 * expect(await run.exited).toBe(0);
 * ```
 */
export function startExample(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
): ExampleProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiting = new Set<{ pattern: RegExp; resolve: (match: RegExpExecArray) => void }>();
  let errors = '';
  let rest = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      for (const wait of waiting) {
        const match = wait.pattern.exec(line);
        if (match) {
          waiting.delete(wait);
          wait.resolve(match);
        }
      }
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    // 'close', not 'exit': every line printed has been read by then.
    child.on('close', (code) => resolve(code));
  });
  // Callers that only stop the process still see a failure to start through waitFor.
  exited.catch(() => undefined);
  const ended = exited.then(
    () => undefined,
    () => undefined,
  );

  return {
    child,
    lines,
    errors: () => errors,
    exited,
    waitFor: (pattern, deadlineMs = 50_000) =>
      new Promise((resolve, reject) => {
        for (const line of lines) {
          const match = pattern.exec(line);
          if (match) return resolve(match);
        }
        const wait = { pattern, resolve };
        waiting.add(wait);
        const timer = setTimeout(() => {
          waiting.delete(wait);
          reject(new Error(`no line matched ${pattern} within ${deadlineMs} ms: ${errors}`));
        }, deadlineMs);
        wait.resolve = (match) => {
          clearTimeout(timer);
          resolve(match);
        };
        exited.then(
          (code) => reject(new Error(`exited (${code}) before printing ${pattern}: ${errors}`)),
          (error: unknown) => reject(error),
        );
        void ended.then(() => clearTimeout(timer));
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
        return ended;
      }
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 1000);
      await ended;
      clearTimeout(force);
    },
  };
}

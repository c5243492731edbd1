/**
 * The process as `adis-export` sees it: its streams, environment and signal (tests pass their own).
 */
import type { Writable } from 'node:stream';
import type { ProgressStream } from '../export/progress.js';
import type { DurableEvery } from '../export/run-export.js';

/** A stream the command writes to, with what it can tell of a terminal. */
export type CommandStream = Pick<Writable, 'write' | 'on' | 'off'> &
  ProgressStream & {
    isTTY?: boolean;
  };

/** The process, as the command sees it (tests pass their own). */
export interface CommandIO {
  stdout: CommandStream;
  stderr: CommandStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths start. */
  cwd: string;
  /** Aborted on Ctrl-C: the export stops after saving where it was. */
  signal?: AbortSignal;
  /**
   * What stdout is, to decide on the progress line: records on a terminal or into a
   * pipe want no progress line beside them; records redirected into a file do.
   */
  stdoutKind?: 'terminal' | 'pipe' | 'file';
  /**
   * How often a file export flushes the file and saves its checkpoint (default: after
   * the page that ends a second since the last save). Tests pass `{ pages: n }` to place
   * a crash between two checkpoints.
   */
  durableEvery?: DurableEvery;
}

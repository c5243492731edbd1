#!/usr/bin/env node
/**
 * The `adis-export` executable: runs {@link main} with this process's arguments and
 * streams. Ctrl-C stops the export after saving where it was (a second Ctrl-C quits at
 * once); a reader that goes away (`adis-export | head`) ends the export quietly.
 */
import { fstatSync } from 'node:fs';
import { type CommandIO, main } from './export-command.js';

function stdoutKind(): CommandIO['stdoutKind'] {
  if (process.stdout.isTTY) return 'terminal';
  try {
    return fstatSync(1).isFile() ? 'file' : 'pipe';
  } catch {
    return 'pipe';
  }
}

const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort(new Error('interrupted'));
});
process.on('SIGTERM', () => controller.abort(new Error('terminated')));
// A closed pipe is the reader saying it has had enough, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
  stdoutKind: stdoutKind(),
});

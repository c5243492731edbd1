#!/usr/bin/env node
/**
 * The `adis-sync` executable: runs {@link syncMain} with this process's arguments and
 * streams. Ctrl-C stops the run where its state was last saved (exit 2: the same
 * command goes on from there); a second Ctrl-C quits at once.
 */
import { syncMain } from './sync-command.js';

const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort(new Error('interrupted'));
});
process.on('SIGTERM', () => controller.abort(new Error('terminated')));
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await syncMain(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});

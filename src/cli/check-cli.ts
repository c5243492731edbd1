#!/usr/bin/env node
/**
 * The `adis-check` executable: runs {@link checkMain} with this process's arguments
 * and streams. Ctrl-C stops the run.
 */
import { checkMain } from './check-command.js';

const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort(new Error('interrupted'));
});
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await checkMain(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});

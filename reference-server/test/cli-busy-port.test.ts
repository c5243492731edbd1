/**
 * Starting the server where it cannot listen: one line that says why and which option
 * gets past it, and exit code 1.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listenFailureMessage } from '../src/listen-failure.js';
import { killCliRuns, runCli, serverDir } from './run-cli.js';
import { holdTakenPort } from './taken-port.js';

const takenPort = holdTakenPort();

afterEach(() => killCliRuns());

describe('a port that is taken', () => {
  it('says so in one line with the --port way out, and exits 1', async () => {
    const server = runCli(['--port', String(takenPort()), '--db', ':memory:', '--seed', '0']);
    expect(await server.exited).toBe(1);
    const errors = server.output().stderr.trim().split('\n');
    expect(errors).toEqual([
      `error: port ${takenPort()} is taken: another program is listening on 127.0.0.1:${takenPort()}; use --port <n>, or --port 0 for a free one`,
    ]);
  });

  it('gets no npm error lines after it from the root `npm start`', async () => {
    const npm = spawn(
      'npm',
      ['start', '--', '--port', String(takenPort()), '--db', ':memory:', '--seed', '0'],
      { cwd: resolve(serverDir, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    npm.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => npm.on('close', done));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^error: port ${takenPort()} is taken: .* use --port <n>`)),
    ]);
  });
});

describe('listenFailureMessage', () => {
  const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

  it('names the option to change for a privileged port and a missing address', () => {
    expect(listenFailureMessage(failure('EACCES'), 80, '127.0.0.1')).toMatch(
      /^port 80 needs privileges .*; use --port <n> with a port from 1024 up, or --port 0/,
    );
    expect(listenFailureMessage(failure('EADDRNOTAVAIL'), 8000, '10.9.9.9')).toMatch(
      /^cannot listen on 10\.9\.9\.9: .*use --host 127\.0\.0\.1/,
    );
    expect(listenFailureMessage(failure('EADDRINUSE'), 8000, '::1')).toContain('[::1]:8000');
  });

  it('leaves other errors to be reported as they are', () => {
    expect(listenFailureMessage(failure('EMFILE'), 8000, '127.0.0.1')).toBeUndefined();
    expect(listenFailureMessage(new Error('boom'), 8000, '127.0.0.1')).toBeUndefined();
  });
});

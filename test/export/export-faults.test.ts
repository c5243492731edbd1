// adis-export against a server that misbehaves mid-export: it stops with a message
// that says what happened (never a raw error, never a hang) and can resume exactly.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CommandIO, main } from '../../src/cli/export-command.js';
import { type FaultServer, faultServer, json, status, text } from '../fixtures/fault-server.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const person = (n: number) => ({
  _links: { self: { href: `/api/people/${n}` } },
  given_name: `P${n}`,
});
const entryPoint = json({
  _links: {
    self: { href: '/api/' },
    'std:people': { href: '/api/people' },
    curies: [{ name: 'std', href: 'https://example.org/docs/{rel}', templated: true }],
  },
});
const firstPage = json({
  _links: { next: { href: '/api/people?page=2' } },
  _embedded: { 'std:people': [person(1), person(2)] },
});
const secondPage = json({ _embedded: { 'std:people': [person(3)] } });

function sink() {
  let written = '';
  const stream = {
    isTTY: false,
    write(chunk: string | Uint8Array, callback?: unknown) {
      written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
      return true;
    },
    on() {
      return stream;
    },
    off() {
      return stream;
    },
  };
  return { stream: stream as unknown as CommandIO['stderr'], text: () => written };
}

async function run(args: string[], cwd: string) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(args, { stdout: stdout.stream, stderr: stderr.stream, env: {}, cwd });
  return { code, stderr: stderr.text() };
}

describe('adis-export against faults', () => {
  it('stops on a long rate-limit wait with the wait in the message, then resumes exactly', async () => {
    server = await faultServer({
      '/api/': entryPoint,
      '/api/people': firstPage,
      '/api/people?page=2': [status(429, { 'retry-after': '3600' }), secondPage],
    });
    const dir = await mkdtemp(join(tmpdir(), 'adis-export-faults-'));
    const args = ['--url', server.url('/api/'), '--output', 'people.ndjson', '--no-progress'];
    const first = await run(args, dir);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('asks to wait 3600 s');
    expect(first.stderr).toContain('--resume');
    const resumed = await run([...args, '--resume'], dir);
    expect(resumed.code).toBe(0);
    const names = (await readFile(join(dir, 'people.ndjson'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { given_name: string }).given_name);
    expect(names).toEqual(['P1', 'P2', 'P3']);
    expect(server.hits('/api/people')).toBe(1);
  });

  it('names a page that is not a HAL document without calling it an entry point', async () => {
    server = await faultServer({
      '/api/': entryPoint,
      '/api/people': firstPage,
      '/api/people?page=2': text('null', 200, { 'content-type': 'application/json' }),
    });
    const dir = await mkdtemp(join(tmpdir(), 'adis-export-faults-'));
    const { code, stderr } = await run(['--url', server.url('/api/'), '--no-progress'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain(server.url('/api/people?page=2'));
    expect(stderr).not.toContain('not an ADIS entry point');
  });
});

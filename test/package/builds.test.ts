import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../reference-server/src/testing.js';

// These tests run the built package (npm test builds first), so that a broken
// exports map or a CJS build that cannot load ky is caught before users see it.
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let server: Server;
let entryPoint: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/hal+json');
    if (request.headers['std-api-token'] !== 'k') {
      response.statusCode = 401;
      response.end('{}');
      return;
    }
    response.end(
      JSON.stringify({
        motd: 'built ok',
        _links: { self: { href: '/api/v1/' }, 'std:people': { href: '/api/v1/people' } },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  entryPoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const script = (load: string) =>
  `${load}.then(({ connect }) => connect(process.argv[1], { apiKey: 'k' })).then((c) => console.log(c.entryPoint.motd))` +
  `.catch((e) => { console.error(e); process.exit(1); })`;

describe('the built package', () => {
  it('exists (npm test builds before testing)', () => {
    expect(existsSync(`${root}dist/index.js`)).toBe(true);
    expect(existsSync(`${root}dist/index.cjs`)).toBe(true);
  });

  it('works when imported as ESM by its package name', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', script("import('adis-sdk')"), entryPoint],
      { cwd: root },
    );
    expect(stdout.trim()).toBe('built ok');
  });

  it('works when required as CommonJS (ky is bundled into the CJS build)', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=commonjs', '-e', script("Promise.resolve(require('adis-sdk'))"), entryPoint],
      { cwd: root },
    );
    expect(stdout.trim()).toBe('built ok');
  });
});

describe('the built adis-export command', () => {
  const bin = `${root}dist/cli/export-cli.js`;

  it('runs as an executable with a shebang and prints its usage', async () => {
    const { stdout } = await run(bin, ['--help'], { cwd: root });
    expect(stdout).toContain('Usage: adis-export [collection] --url <entry point>');
  });

  it('connects with the built SDK and reports a refused key with exit code 1', async () => {
    const failed = await run(process.execPath, [bin, '--url', entryPoint, '--key', 'wrong'], {
      cwd: root,
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`GET ${entryPoint} was refused (401`);
  });
});

describe('the built adis-check command', () => {
  const bin = `${root}dist/cli/check-cli.js`;

  it('checks a reference server over HTTP and prints JSON for CI, exit code 0', async () => {
    const kit = createTestServer({ seed: { people: 5 } });
    const listening = await kit.listen();
    try {
      const { stdout } = await run(
        bin,
        [
          `${listening.url}/api/v1/`,
          '--api-key',
          kit.keys.write,
          '--json',
          '--rate',
          '0',
          '--pages',
          '1',
        ],
        { cwd: root },
      );
      const report = JSON.parse(stdout) as { counts: { fail: number; pass: number } };
      expect(report.counts.fail).toBe(0);
      expect(report.counts.pass).toBeGreaterThan(20);
    } finally {
      await kit.close();
    }
  });

  it('loads as adis-sdk/check from ESM and CommonJS', async () => {
    const esm = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import('adis-sdk/check').then((m) => console.log(typeof m.checkServer))",
      ],
      { cwd: root },
    );
    const cjs = await run(
      process.execPath,
      ['--input-type=commonjs', '-e', "console.log(typeof require('adis-sdk/check').checkServer)"],
      { cwd: root },
    );
    expect([esm.stdout.trim(), cjs.stdout.trim()]).toEqual(['function', 'function']);
  });
});

describe('the built server kit', () => {
  // What the server bundles of the SDK, and what another server would install: the
  // strict bodies must refuse what the specification refuses from either module format.
  const probe =
    "const bad = m.strictHelperBodies().recordSignature.safeParse({ person: { email_addresses: [{ address: 'nope' }] } }); console.log(bad.success, typeof m.signWebhookBody)";
  it('loads as adis-sdk/server-kit from ESM and CommonJS, and its strict bodies check', async () => {
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', `import('adis-sdk/server-kit').then((m) => { ${probe} })`],
      { cwd: root },
    );
    const cjs = await run(
      process.execPath,
      ['--input-type=commonjs', '-e', `const m = require('adis-sdk/server-kit'); ${probe}`],
      { cwd: root },
    );
    expect([esm.stdout.trim(), cjs.stdout.trim()]).toEqual(['false function', 'false function']);
  });
});

describe('adis-export --version', () => {
  it("prints the version of the package it is part of, from dist and from a global install's layout", async () => {
    const { version } = packageJson(root);
    const fromDist = await run(process.execPath, [`${root}dist/cli/export-cli.js`, '--version']);
    expect(fromDist.stdout).toBe(`adis-export ${version}\n`);

    // What `npm install -g` makes: the package under lib/node_modules, and a bin link to
    // its command elsewhere. Its own package.json (another version here) must be read.
    const prefix = await mkdtemp(join(tmpdir(), 'adis-global-'));
    try {
      const installed = join(prefix, 'lib', 'node_modules', 'adis-sdk');
      await cp(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
      await cp(join(root, 'bin'), join(installed, 'bin'), { recursive: true });
      await writeFile(
        join(installed, 'package.json'),
        JSON.stringify({ ...packageJson(root), version: '9.8.7-global' }),
      );
      await symlink(join(root, 'node_modules'), join(installed, 'node_modules'));
      await mkdir(join(prefix, 'bin'));
      const bin = join(prefix, 'bin', 'adis-export');
      await symlink(join(installed, 'bin', 'adis-export.js'), bin);
      const global = await run(bin, ['--version'], { cwd: tmpdir() });
      expect(global.stdout).toBe('adis-export 9.8.7-global\n');
    } finally {
      await rm(prefix, { recursive: true, force: true });
    }
  });
});

function packageJson(dir: string): { version: string } {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
}

describe('the built adis-server command', () => {
  it('starts with a shebang, so that node dist/cli.js and the bin launcher run it', () => {
    const first = readFileSync(`${root}reference-server/dist/cli.js`, 'utf8').split('\n')[0];
    expect(first).toBe('#!/usr/bin/env node');
  });
});

describe('the bins as npm links them (node_modules/.bin, npx)', () => {
  it("runs the built server: npx adis-server --help prints its usage, not npm's", async () => {
    const { stdout } = await run('npx', ['--no-install', 'adis-server', '--help'], { cwd: root });
    expect(stdout).toMatch(/^ADIS reference server\n/);
    const linked = await run(`${root}node_modules/.bin/adis-server`, ['--help'], { cwd: root });
    expect(linked.stdout).toBe(stdout);
  });

  it('runs the built adis-export and adis-check through their launchers', async () => {
    const exported = await run('npx', ['--no-install', 'adis-export', '--help'], { cwd: root });
    expect(exported.stdout).toContain('Usage: adis-export [collection] --url <entry point>');
    const checked = await run('npx', ['--no-install', 'adis-check', '--help'], { cwd: root });
    expect(checked.stdout).toContain('Usage: adis-check <entry point URL> [options]');
  });
});

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built `adis-sdk/helpers` subpath (npm test builds first): it resolves through the
// exports map in ESM and CJS, calls a helper with fetch, and imports no dependency.
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let server: Server;
let href: string;
const received: { key: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const key = request.headers['std-api-token'];
      received.push({ key: typeof key === 'string' ? key : undefined, body });
      response.setHeader('content-type', 'application/hal+json');
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  href = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/petitions/1/record_signature_helper`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const script = (load: string) =>
  `${load}.then(({ recordSignature }) => recordSignature(process.argv[1], { person: { given_name: 'Ana' } }))` +
  `.then((r) => console.log(JSON.stringify(r)))` +
  `.catch((e) => { console.error(e); process.exit(1); })`;

describe('the built adis-sdk/helpers entry', () => {
  it('works when imported as ESM by its package name', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', script("import('adis-sdk/helpers')"), href],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toMatchObject({ status: 200, complete: true });
    expect(received.at(-1)).toEqual({
      key: undefined,
      body: JSON.stringify({ person: { given_name: 'Ana' } }),
    });
  });

  it('works when required as CommonJS', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--input-type=commonjs', '-e', script("Promise.resolve(require('adis-sdk/helpers'))"), href],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toMatchObject({ status: 200, complete: true });
  });

  it('imports no package at run time (no zod, ky or uri-template)', () => {
    const importsOf = (file: string) =>
      [
        // Not on a comment's line: the TSDoc examples kept in the build import adis-sdk.
        ...readFileSync(`${root}dist/${file}`, 'utf8').matchAll(
          /^(?!\s*(?:\*|\/\/)).*?(?:from|require\()\s*["']([^"']+)["']/gm,
        ),
      ]
        .map((match) => match[1] ?? '')
        .filter((name) => !name.startsWith('.'));
    // The ESM build is one file per module: walk the light entry's relative imports.
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(`${root}dist/${file}`, 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+)["']/g)) {
        walk(posix.normalize(posix.join(posix.dirname(file), match[1] ?? '')));
      }
    };
    walk('helpers/index.js');
    expect(seen.size).toBeGreaterThan(3);
    for (const file of [...seen, 'helpers.cjs']) expect(importsOf(file)).toEqual([]);
  });
});

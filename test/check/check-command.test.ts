/**
 * The `adis-check` command in-process: its exit codes (0 nothing failed, 1 a check
 * failed, 2 bad usage, a key missing or a server that does not answer), `--json` for CI,
 * and the readable report.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../reference-server/src/testing.js';
import type { CheckReport } from '../../src/check/index.js';
import { type CheckIO, checkMain } from '../../src/cli/check-command.js';

const kit = createTestServer({ seed: { people: 30 } });
afterAll(() => kit.close());

function io(
  fetch?: typeof globalThis.fetch,
  env: Record<string, string> = {},
): CheckIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    env,
    fetch,
    out: () => out,
    err: () => err,
  };
}

describe('adis-check', () => {
  it('prints JSON for CI and exits 0 when nothing fails', async () => {
    const streams = io(kit.fetch);
    const code = await checkMain(
      [kit.entryPoint, '--api-key', kit.keys.write, '--json', '--rate', '0'],
      streams,
    );
    const report = JSON.parse(streams.out()) as CheckReport;
    expect(code).toBe(0);
    expect(report.counts.fail).toBe(0);
    expect(report.checks.length).toBeGreaterThan(20);
    expect(report.checks[0]).toEqual(
      expect.objectContaining({
        area: 'entry point',
        rule: expect.any(String),
        status: 'pass',
        message: expect.any(String),
      }),
    );
    expect(report.detected).toBeNull();
  });

  it('takes the key from ADIS_KEY and prints a report grouped by area, counts at the end', async () => {
    const streams = io(kit.fetch, { ADIS_KEY: kit.keys.write });
    expect(await checkMain([kit.entryPoint, '--rate', '0', '--pages', '1'], streams)).toBe(0);
    const text = streams.out();
    expect(text).toMatch(/^adis-check http:\/\/adis\.test\/api\/v1\/\n/);
    expect(text).toMatch(/\ncollections\n {2}pass {2}paging\.status: /);
    expect(text).toMatch(
      /\d+ passed, \d+ warnings, 0 failed, \d+ skipped; \d+ requests \(\d+ GET, \d+ OPTIONS\); read-only/,
    );
  });

  it('exits 1 when a check fails, and names the rule', async () => {
    const notJson: typeof globalThis.fetch = async () =>
      new Response('<html>hello</html>', { headers: { 'Content-Type': 'text/html' } });
    const streams = io(notJson);
    expect(await checkMain(['http://broken.test/api/v1/', '--rate', '0'], streams)).toBe(1);
    expect(streams.out()).toMatch(/FAIL {2}entry-point\.json: the entry point is not JSON/);
  });

  it.each([
    [[], /give the entry point URL/],
    [['ftp://example.org/'], /must be an http\(s\) URL/],
    [['http://adis.test/api/v1/', '--rate', 'fast'], /--rate must be a number/],
    [['http://adis.test/api/v1/', '--bogus'], /Unknown option '--bogus'/],
  ])('exits 2 for bad usage: %j', async (argv, message) => {
    const streams = io(kit.fetch);
    expect(await checkMain(argv, streams)).toBe(2);
    expect(streams.err()).toMatch(message);
    expect(streams.out()).toBe('');
  });

  it('exits 2 when the server does not answer', async () => {
    const refused: typeof globalThis.fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
          code: 'ECONNREFUSED',
        }),
      });
    };
    const streams = io(refused);
    expect(await checkMain(['http://127.0.0.1:9/api/v1/'], streams)).toBe(2);
    expect(streams.err()).toMatch(
      /the server did not answer: Network error: GET http:\/\/127\.0\.0\.1:9\/api\/v1\/.*ECONNREFUSED/,
    );
  });

  it('exits 2 when the server needs a key and none is given, or refuses the one given', async () => {
    const none = io(kit.fetch);
    expect(await checkMain([kit.entryPoint], none)).toBe(2);
    expect(none.err()).toMatch(/needs an API key \(401 .*\): give --api-key/);
    const wrong = io(kit.fetch);
    expect(await checkMain([kit.entryPoint, '--api-key', 'not-a-key'], wrong)).toBe(2);
    expect(wrong.err()).toMatch(
      /refused the key \(401 .*\): check --api-key and --key-header \(sent in STD-API-Token\)/,
    );
  });
});

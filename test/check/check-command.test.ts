/**
 * The `adis-check` command in-process: its exit codes (0 nothing failed, 1 a check
 * failed, 2 bad usage, a key missing or a server that does not answer), `--json` for CI,
 * the readable report (each line with its rule's requirement level), and
 * `--follow-docs`, without which nothing off the entry point's origin is contacted.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../reference-server/src/testing.js';
import { type CheckReport, RULE_REQUIREMENTS } from '../../src/check/index.js';
import { type CheckIO, checkMain } from '../../src/cli/check-command.js';
import { BROKEN_API_KEY, BROKEN_ENTRY_POINT, createBrokenServer } from './broken-server.js';

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
        requirement: 'required',
        message: expect.any(String),
      }),
    );
    for (const check of report.checks) {
      expect(check.requirement, check.rule).toBe(
        RULE_REQUIREMENTS[check.rule as keyof typeof RULE_REQUIREMENTS],
      );
    }
    expect(report.detected).toBeNull();
  });

  it('takes the key from ADIS_KEY and prints a report grouped by area, counts at the end', async () => {
    const streams = io(kit.fetch, { ADIS_KEY: kit.keys.write });
    expect(await checkMain([kit.entryPoint, '--rate', '0', '--pages', '1'], streams)).toBe(0);
    const text = streams.out();
    expect(text).toMatch(/^adis-check http:\/\/adis\.test\/api\/v1\/\n/);
    expect(text).toMatch(/\ncollections\n {2}pass {2}required {2}paging\.status: /);
    expect(text).toMatch(/\n {2}pass {2}optional {2}entry-point\.max-pagesize: max_pagesize \d+\n/);
    expect(text).toMatch(
      /\d+ passed, \d+ warnings, 0 failed, \d+ skipped; \d+ requests \(\d+ GET, \d+ OPTIONS\); read-only/,
    );
  });

  it('exits 1 when a check fails, and names the rule', async () => {
    const notJson: typeof globalThis.fetch = async () =>
      new Response('<html>hello</html>', { headers: { 'Content-Type': 'text/html' } });
    const streams = io(notJson);
    expect(await checkMain(['http://broken.test/api/v1/', '--rate', '0'], streams)).toBe(1);
    expect(streams.out()).toMatch(
      /FAIL {2}required {2}entry-point\.json: the entry point is not JSON/,
    );
  });

  it("reads a curie's documentation on another origin only with --follow-docs, and then warns on it", async () => {
    const options = { curieHref: 'http://docs.invalid/{rel}', entryPoint: 'minimal' } as const;
    const argv = [BROKEN_ENTRY_POINT, '--api-key', BROKEN_API_KEY, '--rate', '0'];
    const without = createBrokenServer(options);
    const plain = io(without.fetch);
    expect(await checkMain(argv, plain)).toBe(0);
    expect(plain.out()).toMatch(/\n {2}skip {2}advice {4}entry-point\.curie-docs: .*not contacted/);
    expect(without.requests.some((request) => request.url.includes('docs.invalid'))).toBe(false);
    const following = createBrokenServer(options);
    const followed = io(following.fetch);
    expect(await checkMain([...argv, '--follow-docs'], followed)).toBe(0);
    expect(followed.out()).toMatch(
      /\n {2}WARN {2}advice {4}entry-point\.curie-docs: .*docs\.invalid.*could not be read/,
    );
    expect(followed.out()).not.toMatch(/stopped answering/);
  });

  it('documents --follow-docs in --help', async () => {
    const streams = io(kit.fetch);
    expect(await checkMain(['--help'], streams)).toBe(0);
    expect(streams.out()).toMatch(/--follow-docs {9}also read documentation on other origins/);
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

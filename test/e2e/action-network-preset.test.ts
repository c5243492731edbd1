/**
 * The Action Network preset against the reference server acting as Action Network's
 * API: started from its command line with `--key-header OSDI-API-Token --curie-prefix
 * osdi --key-rate 4`, a strict limit (a fifth call by one key within any rolling second
 * gets 429). A walk of every person with the preset meets no 429; the same walk without
 * a rate limit does, which shows that the limit was there to meet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killCliRuns, runCli } from '../../reference-server/test/run-cli.js';
import { main } from '../../src/cli/export-command.js';
import { actionNetwork, type ClientOptions, connect } from '../../src/index.js';

const PEOPLE = 1000; // ten pages of the server's default 100: eleven requests a walk
let entryPoint: string;
let key: string;

beforeAll(async () => {
  const server = runCli([
    ...['--port', '0', '--db', ':memory:', '--seed', String(PEOPLE), '--quiet'],
    ...['--key-header', 'OSDI-API-Token', '--curie-prefix', 'osdi', '--key-rate', '4'],
  ]);
  entryPoint = await server.ready;
  key = /API key \(demo tenant, write\): (\S+)/.exec(server.output().stdout)?.[1] as string;
  expect(key).toBeDefined();
}, 60_000);
afterAll(killCliRuns);

/** Walks every person with these options; the statuses the server answered, in order. */
async function walk(options: ClientOptions): Promise<{ people: number; statuses: number[] }> {
  const statuses: number[] = [];
  const client = await connect(entryPoint, {
    ...options,
    apiKey: key,
    hooks: { afterResponse: ({ status }) => void statuses.push(status) },
  });
  expect(client.version).toBe('1.0'); // the server's osdi_version
  let people = 0;
  for await (const page of client.people.pages({ readAhead: true })) people += page.items.length;
  return { people, statuses };
}

/** Lets the server's window of the last second empty before the next walk. */
const quietSecond = () => new Promise((done) => setTimeout(done, 1_100));

describe('the Action Network preset against a server limiting each key to 4 calls a second', () => {
  it('walks every person without a single 429', { timeout: 30_000 }, async () => {
    const { people, statuses } = await walk(actionNetwork);
    expect(people).toBe(PEOPLE);
    expect(statuses).toHaveLength(11);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    await quietSecond();
  });

  it('is needed: the same walk without a rate limit meets 429s (and waits them out)', {
    timeout: 30_000,
  }, async () => {
    const { rateLimit: _none, ...unlimited } = actionNetwork;
    const { people, statuses } = await walk(unlimited);
    expect(people).toBe(PEOPLE);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    await quietSecond();
  });

  it('adis-export --server action-network exports every person, with no wait to name', {
    timeout: 30_000,
  }, async () => {
    let stdout = '';
    let stderr = '';
    const stream = (append: (text: string) => void) =>
      ({
        write(chunk: string | Uint8Array, callback?: unknown) {
          append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
          if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
          return true;
        },
        on: () => undefined,
        off: () => undefined,
      }) as never;
    const code = await main(['--server', 'action-network', '--url', entryPoint], {
      stdout: stream((text) => {
        stdout += text;
      }),
      stderr: stream((text) => {
        stderr += text;
      }),
      env: { ADIS_KEY: key },
      cwd: process.cwd(),
    });
    expect(code).toBe(0);
    expect(stdout.split('\n').filter((line) => line !== '')).toHaveLength(PEOPLE);
    expect(stderr).not.toContain('429');
    expect(stderr).toContain(`Exported ${PEOPLE.toLocaleString('en-US')} people`);
  });
});

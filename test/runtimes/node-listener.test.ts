/**
 * `toNodeListener` under each runtime's `node:http`: Node's own, and Bun's and Deno's
 * compatibility layers (docs/webhooks.md says it runs there). The receiver is a plain
 * file importing the built `adis-sdk/webhooks` by its name, run by the real binary; the
 * test sends it a signed delivery, the same again, and a forged one.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from '../../src/webhooks/index.js';
import { type ExampleProcess, startExample } from '../examples/example-process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const server = 'test/runtimes/fixtures/node-listener-server.mjs';
const SECRET = 'whsec_node_listener';

const RUNTIMES: readonly { name: string; command: string; args: string[] }[] = [
  { name: 'node', command: process.execPath, args: [server] },
  { name: 'bun', command: `${root}node_modules/.bin/bun`, args: ['run', server] },
  // The network only: reading the modules it imports needs no permission.
  { name: 'deno', command: `${root}node_modules/.bin/deno`, args: ['run', '--allow-net', server] },
];

const started: ExampleProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((run) => run.stop()));
});

function delivery(key: string): string {
  return JSON.stringify([
    {
      'osdi:signature': {
        person: { given_name: 'Ada', email_addresses: [{ address: 'ada@example.org' }] },
        _links: { 'osdi:petition': { href: 'https://adis.test/api/v1/petitions/1' } },
      },
      idempotency_key: key,
    },
  ]);
}

async function post(url: string, body: string, secret = SECRET): Promise<Response> {
  const signature = await signWebhookBody([secret], body, Date.now() / 1000);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature },
    body,
  });
}

describe.each(RUNTIMES)('toNodeListener on $name', ({ name, command, args }) => {
  it('handles a signed delivery once, and refuses a forged one', async () => {
    const run = startExample(command, args, { cwd: root, env: {} });
    started.push(run);
    const port = (await run.waitFor(/^PORT (\d+)$/))[1];
    const url = `http://127.0.0.1:${port}/`;
    const key = `key-${name}`;

    const first = await post(url, delivery(key));
    expect(first.status).toBe(200);
    await run.waitFor(new RegExp(`^EVENT signature ${key}$`));
    const again = await post(url, delivery(key));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ handled: 0, duplicates: 1 });
    const forged = await post(url, delivery('forged'), 'not-the-secret');
    expect(forged.status).toBe(401);
    expect(run.lines.filter((line) => line.startsWith('EVENT'))).toEqual([
      `EVENT signature ${key}`,
    ]);
  });
});

/**
 * examples/webhook-receiver.ts listens on this machine only (127.0.0.1) unless `HOST`
 * says otherwise, and prints the address it really listens on (the port chosen when
 * `PORT=0`), which answers.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listenAddress } from '../../examples/webhook-receiver.js';
import { type ExampleProcess, startExample } from './example-process.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

const started: ExampleProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((run) => run.stop()));
});

describe('examples/webhook-receiver.ts: where it listens', () => {
  it('defaults to 127.0.0.1:3000; HOST and PORT choose', () => {
    expect(listenAddress({})).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(listenAddress({ HOST: '' })).toEqual({ host: '127.0.0.1', port: 3000 });
    expect(listenAddress({ HOST: '0.0.0.0', PORT: '8787' })).toEqual({
      host: '0.0.0.0',
      port: 8787,
    });
  });

  it('prints the loopback address and the port it really bound, which answers', async () => {
    const run = startExample(
      process.execPath,
      ['--import', 'tsx', 'examples/webhook-receiver.ts'],
      {
        cwd: ROOT,
        env: { PORT: '0', HOST: '' },
      },
    );
    started.push(run);
    const [, port] = await run.waitFor(
      /^receiving webhooks on http:\/\/127\.0\.0\.1:(\d+)\/hooks\/…$/,
      50_000,
    );
    expect(Number(port)).toBeGreaterThan(0);
    const answer = await fetch(`http://127.0.0.1:${port}/nowhere`);
    expect(answer.status).toBe(404);
  });
});

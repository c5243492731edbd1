/**
 * docs/webhooks.md's "Try it" runs as written: the files its shell blocks write, the
 * server's flags from its `npm start` lines and its `curl` calls are read from the guide
 * and carried out (on free ports instead of 3000 and 8000), against the example receiver
 * started with its default secret. So the guide's defaults and the server's rules (a
 * secret of at least 16 characters, loopback allowed in the operator's file, and through
 * the API only with --webhooks-allow-private) cannot drift apart.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliTempDir, endCliRuns, runCli } from '../../reference-server/test/run-cli.js';
import { type ExampleProcess, startExample } from './example-process.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Generous: the receiver and the server each start a TypeScript process. */
const WAIT_MS = 50_000;

/** The guide's "Try it" section: its shell blocks, in order. */
function tryItBlocks(): string[] {
  const guide = readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8');
  const start = guide.indexOf('## Try it');
  const end = guide.indexOf('\n## ', start + 1);
  const section = guide.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? '').replace(/^ {3}/gm, ''),
  );
}

/** The files a block writes with `cat > name <<'EOF'`. */
function heredocs(block: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const match of block.matchAll(/cat > (\S+) <<'EOF'\n([\s\S]*?)\nEOF/g)) {
    files.set(match[1] ?? '', match[2] ?? '');
  }
  return files;
}

/** The flags of the block's `npm start -- …` line. */
function serverFlags(block: string): string[] {
  const line = /^npm start -- (.*)$/m.exec(block)?.[1];
  if (!line) throw new Error(`no npm start line in:\n${block}`);
  return line.split(/\s+/);
}

/** The block's curl call as a fetch: its URL, headers and body. */
function curlCall(block: string): { url: string; init: RequestInit } {
  const command = block.replace(/\\\n\s*/g, ' ');
  const url = /curl .*?(http:\/\/\S+)/.exec(command)?.[1];
  if (!url) throw new Error(`no curl URL in:\n${block}`);
  const headers: Record<string, string> = {};
  for (const match of command.matchAll(/-H (?:'([^']*)'|"([^"]*)")/g)) {
    const [name, ...value] = (match[1] ?? match[2] ?? '').split(':');
    headers[(name ?? '').trim()] = value.join(':').trim();
  }
  const body = /-d '([^']*)'/.exec(command)?.[1];
  return { url, init: { method: 'POST', headers, body } };
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

const started: ExampleProcess[] = [];
afterEach(async () => {
  // The servers first: a receiver closes once nothing delivers to it.
  endCliRuns();
  await Promise.all(started.splice(0).map((run) => run.stop()));
});

/** The example receiver as step 1 starts it (its default secret), on `port`. */
async function receiver(port: number): Promise<ExampleProcess> {
  expect(process.env.ADIS_WEBHOOK_SECRET, 'the default secret is what is tried').toBeUndefined();
  const run = startExample(process.execPath, ['--import', 'tsx', 'examples/webhook-receiver.ts'], {
    cwd: ROOT,
    env: { PORT: String(port) },
  });
  started.push(run);
  await run.waitFor(/receiving webhooks on/, WAIT_MS);
  return run;
}

/** The guide's text with its ports (3000 the receiver's, 8000 the server's) replaced. */
function onPorts(text: string, receiverPort: number, serverPort: number): string {
  return text.replaceAll(':3000/', `:${receiverPort}/`).replaceAll(':8000/', `:${serverPort}/`);
}

describe('docs/webhooks.md, "Try it"', () => {
  it('delivers a signup to the example receiver through the webhooks file', async () => {
    const [, serverBlock = '', signupBlock = ''] = tryItBlocks();
    const [receiverPort, serverPort] = [await freePort(), await freePort()];
    const dir = cliTempDir('adis-webhook-guide-');
    for (const [name, text] of heredocs(serverBlock)) {
      writeFileSync(join(dir, name), onPorts(text, receiverPort, serverPort));
    }
    const got = await receiver(receiverPort);
    const server = runCli([...serverFlags(serverBlock), '--port', String(serverPort), '--quiet'], {
      cwd: dir,
      env: { ...process.env, INIT_CWD: dir },
    });
    await server.ready;
    expect(server.output().stdout).toContain('Webhooks: 1 subscription loaded from webhooks.json');

    const { url, init } = curlCall(onPorts(signupBlock, receiverPort, serverPort));
    const answer = await fetch(url, init);
    expect(answer.ok, await answer.clone().text()).toBe(true);
    const self = ((await answer.json()) as { _links: { self: { href: string } } })._links.self.href;
    const line = await got.waitFor(/^new person (\S+)/, WAIT_MS);
    expect(line[1]).toBe(self);
  });

  it('takes a loopback subscription through the API only with --webhooks-allow-private', async () => {
    const blocks = tryItBlocks();
    const [, serverBlock = '', , apiBlock = ''] = blocks;
    const [receiverPort, serverPort] = [await freePort(), await freePort()];
    const dir = cliTempDir('adis-webhook-guide-');
    const keys = heredocs(serverBlock).get('keys.json');
    expect(keys).toBeDefined();
    writeFileSync(join(dir, 'keys.json'), keys ?? '');
    const flags = serverFlags(apiBlock);
    expect(flags).toContain('--webhooks-allow-private');
    const subscribe = curlCall(onPorts(apiBlock, receiverPort, serverPort));

    // Without the flag: refused, naming the address.
    const strict = runCli(
      [
        ...flags.filter((flag) => flag !== '--webhooks-allow-private'),
        '--port',
        String(serverPort),
        '--quiet',
      ],
      { cwd: dir, env: { ...process.env, INIT_CWD: dir } },
    );
    await strict.ready;
    const refused = await fetch(subscribe.url, subscribe.init);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('127.0.0.1');
    strict.child.kill('SIGTERM');
    expect(await strict.exited).toBe(0);

    // With it, as the guide runs it: subscribed, and a signup reaches the receiver.
    const got = await receiver(receiverPort);
    const server = runCli([...flags, '--port', String(serverPort), '--quiet'], {
      cwd: dir,
      env: { ...process.env, INIT_CWD: dir },
    });
    await server.ready;
    const subscribed = await fetch(subscribe.url, subscribe.init);
    expect(subscribed.status, await subscribed.clone().text()).toBe(201);
    const { url, init } = curlCall(onPorts(blocks[2] ?? '', receiverPort, serverPort));
    expect((await fetch(url, init)).ok).toBe(true);
    await got.waitFor(/^new person /, WAIT_MS);
  });
});

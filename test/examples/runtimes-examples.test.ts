import { access, constants, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../reference-server/src/index.js';
import { createTestServer, type TestServer } from '../../reference-server/src/testing.js';
import { connect } from '../../src/index.js';
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from '../../src/webhooks/index.js';
import { type ExampleProcess, startExample } from './example-process.js';

// Runs examples/bun/ and examples/deno/ as a user would: the real runtime binary, the
// files as they are (importing the built 'adis-sdk' by its name), against a reference
// server on loopback. The sync script's signature is delivered by the server's webhook
// worker to the same runtime's receiver, so each runtime's pair is tested end to end.
const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name: string): string => `${root}node_modules/.bin/${name}`;
const PEOPLE = 30;
const SECRET = 'whsec_runtime_examples';

/** A task's command line from examples/deno/deno.json, without its leading `deno`. */
async function denoTask(name: string): Promise<string[]> {
  const text = await readFile(`${root}examples/deno/deno.json`, 'utf8');
  // deno.json allows // comments; these are whole lines.
  const json = text.replace(/^\s*\/\/.*$/gm, '');
  const tasks = (JSON.parse(json) as { tasks: Record<string, string> }).tasks;
  const [deno, ...args] = (tasks[name] ?? '').split(' ');
  if (deno !== 'deno') throw new Error(`deno.json has no task "${name}" running deno`);
  return args;
}

interface RuntimeExamples {
  runtime: string;
  binary: string;
  /** Where the examples run from. */
  cwd: string;
  /** The family name the sync script signs with. */
  signer: string;
  sync: () => Promise<string[]>;
  receive: () => Promise<string[]>;
  /** The command that type-checks the examples, and its arguments. */
  check: () => [string, string[]];
}

const runtimes: RuntimeExamples[] = [
  {
    runtime: 'bun',
    binary: bin('bun'),
    cwd: root,
    signer: 'Bun',
    sync: async () => ['run', 'examples/bun/sync-people.ts'],
    receive: async () => ['run', 'examples/bun/webhook-receiver.ts'],
    // Node's types and bun-globals.d.ts: no @types/bun in this repository.
    check: () => [bin('tsc'), ['-p', 'examples/bun']],
  },
  {
    runtime: 'deno',
    binary: bin('deno'),
    cwd: `${root}examples/deno`,
    signer: 'Deno',
    // The tasks' own permissions: the run fails if they are not enough. (`deno task`
    // itself would run node_modules/.bin/deno, the npm package, as a script.)
    sync: () => denoTask('sync'),
    receive: () => denoTask('receive'),
    check: () => [bin('deno'), ['check', 'sync-people.ts', 'webhook-receiver.ts']],
  },
];

// The type checks take seconds: both start first and run beside the other tests.
const typeChecks = new Map<string, ExampleProcess>();
beforeAll(() => {
  for (const example of runtimes) {
    const [checker, args] = example.check();
    typeChecks.set(example.runtime, startExample(checker, args, { cwd: example.cwd, env: {} }));
  }
});
afterAll(async () => {
  await Promise.all([...typeChecks.values()].map((check) => check.stop()));
});

describe.each(runtimes.map((example) => [example.runtime, example] as const))(
  'examples/%s',
  (_runtime, example) => {
    let kit: TestServer;
    let running: RunningServer;
    let receiver: ExampleProcess;
    let receiverUrl: string;
    const started: ExampleProcess[] = [];
    const start = async (args: Promise<string[]>, env: Record<string, string>) => {
      const run = startExample(example.binary, await args, { cwd: example.cwd, env });
      started.push(run);
      return run;
    };

    beforeAll(async () => {
      // A missing binary fails here, with its path: never a skip.
      await access(example.binary, constants.X_OK);
      kit = createTestServer({ seed: { people: PEOPLE, activity: true } });
      running = await kit.listen();
      receiver = await start(example.receive(), { ADIS_WEBHOOK_SECRET: SECRET, PORT: '0' });
      const [, port] = await receiver.waitFor(
        // This machine only, unless HOST says otherwise.
        /^Receiving webhooks on http:\/\/127\.0\.0\.1:(\d+)\/webhooks$/,
      );
      receiverUrl = `http://127.0.0.1:${port}/webhooks`;
      await kit.webhooks.subscribe({ url: receiverUrl, secret: SECRET, triggers: ['signature'] });
    });
    afterAll(async () => {
      await Promise.all(started.map((run) => run.stop()));
      await kit?.close();
    });

    it('type-checks', async () => {
      const typeCheck = typeChecks.get(example.runtime);
      if (!typeCheck) throw new Error(`no type check started for ${example.runtime}`);
      const code = await typeCheck.exited;
      expect(`${code} ${typeCheck.lines.join('\n')}${typeCheck.errors()}`).toMatch(/^0 /);
    });

    it('sync-people pages every person, records a signature, and the receiver gets it', async () => {
      const client = await connect(running.entryPoint, { apiKey: kit.keys.read });
      expect(await client.people.toArray()).toHaveLength(PEOPLE);
      const petition = await client.petitions.items({ limit: 1 })[Symbol.asyncIterator]().next();
      if (petition.done) throw new Error('the seeded server has no petition');
      const before = Number(petition.value.data.total_signatures);

      const sync = await start(example.sync(), {
        ADIS_URL: running.entryPoint,
        ADIS_KEY: kit.keys.write,
      });
      expect(await sync.exited, sync.errors()).toBe(0);
      expect(sync.lines[0]).toMatch(
        new RegExp(`^People: ${PEOPLE} in \\d+ pages? \\(${PEOPLE} with an email address\\)$`),
      );
      expect(sync.lines[1]).toBe(
        `Signed "${petition.value.data.title}": 201, complete, total_signatures ${before} → ${before + 1}`,
      );
      // The server holds the signature, and the signer.
      expect(Number((await petition.value.refresh()).data.total_signatures)).toBe(before + 1);
      const signers = await client.people.toArray();
      expect(signers.map((person) => person.data.family_name)).toContain(example.signer);

      // The server's webhook worker delivers it, signed, to the receiver, which runs it.
      await kit.webhooks.deliver();
      const deliveries = kit.webhooks.deliveries.filter((d) => d.url === receiverUrl);
      expect(deliveries.map((d) => d.status)).toEqual([200]);
      const [, petitionUrl] = await receiver.waitFor(/^signature: Ada signed (\S+)$/);
      // The server names itself by its configured origin in bodies it sends: compare paths.
      expect(new URL(String(petitionUrl)).pathname).toBe(new URL(petition.value.url).pathname);
    });

    it('the receiver answers a signed delivery 200 and a forged one 401', async () => {
      const body = JSON.stringify([
        {
          'osdi:signature': {
            person: { given_name: 'Grace' },
            _links: { 'osdi:petition': { href: 'https://adis.example/api/v1/petitions/7' } },
          },
          idempotency_key: `runtime-examples-${example.runtime}`,
        },
      ]);
      const post = async (secret: string) =>
        fetch(receiverUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [WEBHOOK_SIGNATURE_HEADER]: await signWebhookBody([secret], body, Date.now() / 1000),
          },
          body,
        });

      const forged = await post('not-the-secret');
      expect(forged.status).toBe(401);
      expect(await forged.json()).toMatchObject({ error: 'WEBHOOK_SIGNATURE', reason: 'mismatch' });

      const signed = await post(SECRET);
      expect(signed.status).toBe(200);
      expect(await signed.json()).toEqual({ received: 1, handled: 1, duplicates: 0 });
      await receiver.waitFor(
        /^signature: Grace signed https:\/\/adis\.example\/api\/v1\/petitions\/7$/,
      );
      // The forged one ran nothing: Grace was printed once, for the signed one.
      expect(receiver.lines.filter((line) => line.startsWith('signature: Grace'))).toHaveLength(1);

      expect((await fetch(receiverUrl.replace('/webhooks', '/elsewhere'))).status).toBe(404);
    });
  },
);

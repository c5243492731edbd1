/**
 * Delivery by the command line's server, across a crash: an event committed while the
 * receiver is down, or while its delivery is in flight, arrives after the server is
 * killed with SIGKILL and started again on the same database (the outbox and the
 * cursors are in it); and SIGTERM waits for a delivery in flight.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../src/storage/sqlite.js';
import { type CliRun, cliTempDir, endCliRuns, runCli } from './run-cli.js';
import {
  elementsOf,
  HANG_MS,
  type Receiver,
  signatureCheck,
  startReceiver,
} from './webhook-receiver.js';

const SECRET = 'whsec_cli-delivery-secret';
const WRITE_KEY = 'cli-webhooks-write-key';
const receivers: Receiver[] = [];

afterEach(async () => {
  // The servers first: a receiver closes once nothing delivers to it.
  endCliRuns();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A database path, a keys file and a webhooks file subscribing tenant acme to `url`. */
function setup(url: string): string[] {
  const dir = cliTempDir('adis-webhook-delivery-');
  const keys = join(dir, 'keys.json');
  writeFileSync(
    keys,
    JSON.stringify({ keys: [{ token: WRITE_KEY, tenant: 'acme', access: 'write' }] }),
  );
  const webhooks = join(dir, 'webhooks.json');
  writeFileSync(
    webhooks,
    JSON.stringify({ webhooks: [{ tenant: 'acme', url, secret: SECRET, triggers: ['*'] }] }),
  );
  return [
    '--port',
    '0',
    '--quiet',
    '--seed',
    '0',
    '--db',
    join(dir, 'adis.db'),
    '--keys',
    keys,
    '--webhooks',
    webhooks,
  ];
}

async function createPerson(entryPoint: string, given: string): Promise<void> {
  const res = await fetch(`${entryPoint}people`, {
    method: 'POST',
    headers: { 'STD-API-Token': WRITE_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ given_name: given }),
  });
  expect(res.status).toBe(201);
}

/** Resolves once the run's stdout matches `pattern`, checked as each chunk arrives. */
function printed(run: CliRun, pattern: RegExp, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(run.output().stdout)) return false;
      clearTimeout(timer);
      run.child.stdout?.off('data', check);
      resolve();
      return true;
    };
    const timer = setTimeout(() => {
      run.child.stdout?.off('data', check);
      reject(new Error(`no ${what} within ${HANG_MS} ms`));
    }, HANG_MS);
    if (!check()) run.child.stdout?.on('data', check);
  });
}

async function kill(run: CliRun): Promise<void> {
  run.child.kill('SIGKILL');
  await run.exited;
}

describe('webhook delivery by the command line', () => {
  it('kill -9 between commit and delivery: after a restart the event arrives', async () => {
    const hook = await startReceiver();
    receivers.push(hook);
    // Down: refused first, then taking the retry and never answering.
    hook.answer(({ n }) => (n === 0 ? 503 : new Promise<number>(() => undefined)));
    const args = setup(hook.url);
    const first = runCli(args);
    const entryPoint = await first.ready;
    await createPerson(entryPoint, 'Ana');
    await hook.until(
      () => hook.received.length === 2,
      'refused delivery, then its retry in flight',
    );
    await kill(first);

    hook.answer(() => 200);
    const second = runCli(args);
    await second.ready;
    await hook.until(
      () => hook.received.some((post) => post.status === 200),
      'delivery after the restart',
    );
    const delivered = hook.received.filter((post) => post.status === 200);
    expect(delivered).toHaveLength(1);
    const keys = hook.received.map((post) => elementsOf(post)[0]?.idempotency_key);
    // The same event each time: a receiver dedupes by its idempotency key.
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    const [resent] = delivered;
    if (!resent) throw new Error('no delivery');
    expect(elementsOf(resent)[0]?.['std:signup'].given_name).toBe('Ana');
    expect(await signatureCheck(resent, SECRET)).toBe('ok');
  });

  it('SIGTERM waits for a delivery in flight, which is logged before the database closes', async () => {
    const hook = await startReceiver();
    receivers.push(hook);
    let release: (status: number) => void = () => undefined;
    hook.answer(() => new Promise<number>((done) => (release = done)));
    const args = setup(hook.url);
    const run = runCli(args);
    const entryPoint = await run.ready;
    await createPerson(entryPoint, 'Cy');
    await hook.until(() => hook.received.length === 1, 'delivery in flight');

    run.child.kill('SIGTERM');
    await printed(run, /SIGTERM: shutting down/, 'shutdown notice');
    expect(run.child.exitCode).toBeNull();
    release(200);
    expect(await run.exited).toBe(0);

    const db = args[args.indexOf('--db') + 1] as string;
    const storage = openStorage(db);
    try {
      const [subscription] = await storage.webhooks.listSubscriptions();
      const attempts = await storage.webhooks.listAttempts(subscription?.id ?? '', 10);
      expect(attempts.map((attempt) => [attempt.outcome, attempt.status])).toEqual([
        ['delivered', 200],
      ]);
    } finally {
      await storage.close();
    }
  });
});

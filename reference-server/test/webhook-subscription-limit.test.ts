/**
 * The bound on the webhook subscriptions a tenant makes through the API: past it a
 * create is a 409 `WEBHOOK_LIMIT_REACHED` that says the limit and how to raise it; a
 * delete makes room; other tenants and the operator's file are not counted; creates
 * racing at the bound do not both pass (on PostgreSQL too: this file runs on both
 * engines). The option's default and checks, and the command line's flag.
 */
import { describe, expect, it } from 'vitest';
import { parseArguments, type ServerArguments } from '../src/cli/arguments.js';
import { serverApp } from '../src/cli/server-app.js';
import { serverSettings } from '../src/cli/server-settings.js';
import { UsageError } from '../src/cli/usage-error.js';
import { appConfigOf } from '../src/http/app.js';
import { createApp, openStorage } from '../src/index.js';
import { errorOf, harness, type Json, OTHER } from './helpers.js';

// A public address written as an IP literal: the SSRF check takes it without DNS.
const PUBLIC_URL = 'https://93.184.216.34/hooks/adis';
const WEBHOOKS = '/api/v1/webhooks';

function create(h: ReturnType<typeof harness>, key?: string) {
  return h.json('POST', WEBHOOKS, {
    body: { url: PUBLIC_URL },
    ...(key === undefined ? {} : { key }),
  });
}

function expectLimitReached(answer: { status: number; body: Json }, limit: number) {
  expect(answer.status).toBe(409);
  const [error] = errorOf(answer.body);
  expect(error?.error_code).toBe('WEBHOOK_LIMIT_REACHED');
  expect(error?.description).toContain(`this server allows ${limit} at most`);
  expect(error?.hint).toContain('--webhook-subscription-limit');
  expect(error?.hint).toContain('webhookSubscriptionLimit');
  expect(answer.body['std:error'].resource_status[0].resource).toBe('std:webhook');
}

describe('the bound on webhook subscriptions per tenant', () => {
  it('refuses a create past the bound with a 409 that says the limit and how to raise it', async () => {
    const h = harness({ webhookSubscriptionLimit: 2 });
    expect((await create(h)).status).toBe(201);
    const second = await create(h);
    expect(second.status).toBe(201);
    const third = await create(h);
    expectLimitReached(third, 2);
    expect(errorOf(third.body)[0]?.description).toContain('the tenant has 2 webhook subscriptions');
    // Nothing was added, and another tenant has a bound of its own.
    expect((await h.json('GET', WEBHOOKS)).body.total_records).toBe(2);
    expect((await create(h, OTHER)).status).toBe(201);
    // A delete makes room again.
    expect((await h.call('DELETE', second.body._links.self.href)).status).toBe(204);
    expect((await create(h)).status).toBe(201);
    expectLimitReached(await create(h), 2);
  });

  it("does not count the operator's --webhooks file, and 0 allows no API subscription", async () => {
    const h = harness({ webhookSubscriptionLimit: 1 });
    await h.ready;
    const tenant = await h.storage.tenants.ensure('acme');
    for (const n of [1, 2, 3]) {
      await h.storage.webhooks.addSubscription({
        id: `file-${n}`,
        tenantId: tenant.id,
        url: `http://127.0.0.1:900${n}/hook`,
        secret: 'whsec_from_the_file_0000',
        triggers: ['*'],
        source: 'file',
        createdMs: Date.now(),
      });
    }
    expect((await create(h)).status).toBe(201);
    expectLimitReached(await create(h), 1);

    const none = harness({ webhookSubscriptionLimit: 0 });
    expectLimitReached(await create(none), 0);
  });

  it('lets exactly the bound through when creates race at it', async () => {
    const limit = 3;
    const h = harness({ webhookSubscriptionLimit: limit });
    expect((await create(h)).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 12 }, () => create(h)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([
      ...Array<number>(limit - 1).fill(201),
      ...Array<number>(12 - (limit - 1)).fill(409),
    ]);
    for (const answer of answers.filter((one) => one.status === 409)) {
      expectLimitReached(answer, limit);
    }
    expect((await h.json('GET', WEBHOOKS)).body.total_records).toBe(limit);
  });

  it('is 100 by default, and must be a whole number from 0', () => {
    const storage = openStorage(':memory:');
    try {
      expect(appConfigOf(createApp({ storage }))?.webhookSubscriptionLimit).toBe(100);
      expect(
        appConfigOf(createApp({ storage, webhookSubscriptionLimit: 5 }))?.webhookSubscriptionLimit,
      ).toBe(5);
      for (const bad of [-1, 1.5, Number.NaN]) {
        expect(() => createApp({ storage, webhookSubscriptionLimit: bad })).toThrow(
          /webhookSubscriptionLimit must be a whole number from 0/,
        );
      }
    } finally {
      void storage.close();
    }
  });
});

describe('--webhook-subscription-limit and --webhook-concurrency', () => {
  const place = { serverRoot: '/srv/adis', userDir: '/srv/adis', env: {} };
  const settings = (argv: string[]) =>
    serverSettings(parseArguments([...argv, '--db', ':memory:']) as ServerArguments, place);

  it('reads the flags, with the defaults without them', () => {
    expect(settings([])).toMatchObject({ webhookSubscriptionLimit: 100, webhookConcurrency: 16 });
    expect(
      settings(['--webhook-subscription-limit', '0', '--webhook-concurrency', '64']),
    ).toMatchObject({ webhookSubscriptionLimit: 0, webhookConcurrency: 64 });
  });

  it('gives them to the app the command line serves, and so to its delivery worker', () => {
    const storage = openStorage(':memory:');
    try {
      const app = serverApp(
        storage,
        settings(['--quiet', '--webhook-subscription-limit', '7', '--webhook-concurrency', '6']),
      );
      expect(appConfigOf(app)?.webhookSubscriptionLimit).toBe(7);
      expect(appConfigOf(app)?.webhookConcurrency).toEqual({ concurrency: 6, perTenant: 3 });
    } finally {
      void storage.close();
    }
  });

  it('refuses values that are not whole numbers in range, naming the flag', () => {
    for (const [argv, message] of [
      [['--webhook-subscription-limit=-1'], /--webhook-subscription-limit must be an integer/],
      [['--webhook-subscription-limit', '1e3'], /--webhook-subscription-limit must be an integer/],
      [['--webhook-concurrency', '0'], /--webhook-concurrency must be at least 1/],
      [['--webhook-concurrency', '99999'], /--webhook-concurrency must be an integer from 0 to/],
    ] as const) {
      expect(() => settings([...argv])).toThrow(UsageError);
      expect(() => settings([...argv])).toThrow(message);
    }
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileSubscriptionId } from '../src/domain/webhook-subscriptions.js';
import { cliTempDir, endCliRuns, runCli } from './run-cli.js';

afterEach(endCliRuns);

const tempDir = () => cliTempDir('adis-webhooks-cli-');

function writeJson(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

// Nothing listens there; no event is written in these runs, so nothing is sent.
const HOOK = 'http://127.0.0.1:9/hook';
const SECRET = 'whsec_operator-secret-0001';

describe('--webhooks and --webhooks-allow-private', () => {
  it('exits 2 on a webhooks file it cannot use, naming every problem', async () => {
    const dir = tempDir();
    const invalid = writeJson(dir, 'invalid.json', {
      webhooks: [
        { tenant: 'acme', url: 'ftp://example.org/x', secret: 'short', triggers: ['petition'] },
        { tenant: 'acme', url: HOOK, secret: SECRET, extra: true },
      ],
    });
    const twice = writeJson(dir, 'twice.json', {
      webhooks: [
        { tenant: 'acme', url: HOOK, secret: SECRET },
        { tenant: 'acme', url: HOOK, secret: SECRET, triggers: ['signup'] },
      ],
    });
    const notJson = writeJson(dir, 'not-json.json', '{ "webhooks": [');
    const runs = [invalid, twice, notJson, join(dir, 'missing.json')].map((file) => ({
      file,
      run: runCli(['--port', '0', '--db', ':memory:', '--webhooks', file]),
    }));
    const stderr: string[] = [];
    for (const { file, run } of runs) {
      expect(await run.exited, file).toBe(2);
      stderr.push(run.output().stderr);
      expect(run.output().stdout).not.toContain('Entry point:');
    }
    expect(stderr[0]).toContain(`error: webhooks file ${invalid} is invalid:`);
    expect(stderr[0]).toContain('webhooks.0.url: must be an absolute http or https URL');
    expect(stderr[0]).toContain('webhooks.0.secret: must have at least 16 characters');
    expect(stderr[0]).toContain(
      'webhooks.0.triggers.0: unknown event type "petition"; known: signup, signature, submission, donation, outreach, attendance, canvass, or * for all',
    );
    expect(stderr[0]).toMatch(/webhooks\.1: Unrecognized key: "extra"/);
    expect(stderr[1]).toContain(
      `webhooks.1.url: tenant acme already subscribes ${HOOK} at webhooks.0; list each URL once per tenant`,
    );
    expect(stderr[2]).toContain(`webhooks file ${notJson} is not valid JSON`);
    expect(stderr[3]).toContain('cannot read webhooks file');
  });

  it('loads the file into the API, keeps ids across restarts, and refuses private URLs unless allowed', async () => {
    const dir = tempDir();
    const db = join(dir, 'adis.db');
    const keys = writeJson(dir, 'keys.json', {
      keys: [{ token: 'acme-write-key-01', tenant: 'acme', access: 'write' }],
    });
    const webhooks = writeJson(dir, 'webhooks.json', {
      webhooks: [
        { tenant: 'acme', url: HOOK, secret: SECRET, triggers: ['signature', 'signup'] },
        // A tenant no key names yet: created.
        { tenant: 'beta', url: HOOK, secret: SECRET },
      ],
    });
    const headers = { 'STD-API-Token': 'acme-write-key-01', 'Content-Type': 'application/json' };
    const args = ['--port', '0', '--db', db, '--keys', keys, '--webhooks', webhooks, '--seed', '0'];

    const first = runCli(args);
    const entry = await first.ready;
    expect(first.output().stdout).toContain(`Webhooks: 2 subscriptions loaded from ${webhooks}`);
    const list = (await (await fetch(`${entry}webhooks`, { headers })).json()) as {
      _embedded: { 'std:webhooks': Record<string, unknown>[] };
    };
    const id = fileSubscriptionId('acme', HOOK);
    expect(list._embedded['std:webhooks']).toEqual([
      expect.objectContaining({
        url: HOOK,
        source: 'file',
        triggers: ['signature', 'signup'],
        secret: `…${SECRET.slice(-4)}`,
        _links: expect.objectContaining({ self: { href: `${entry}webhooks/${id}` } }),
      }),
    ]);
    const refused = await fetch(`${entry}webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/mine' }),
    });
    expect(refused.status).toBe(400);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = runCli([...args, '--webhooks-allow-private']);
    const again = await second.ready;
    const listed = (await (await fetch(`${again}webhooks`, { headers })).json()) as {
      _embedded: { 'std:webhooks': { _links: { self: { href: string } } }[] };
    };
    expect(listed._embedded['std:webhooks'].map((s) => s._links.self.href)).toEqual([
      `${again}webhooks/${id}`,
    ]);
    const allowed = await fetch(`${again}webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/mine' }),
    });
    expect(allowed.status).toBe(201);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { app, DEV_SECRET } from '../../examples/webhook-receiver.js';
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from '../../src/webhooks/index.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/webhooks/${name}.json`, import.meta.url), 'utf8');

// examples/webhook-receiver.ts, as docs/webhooks.md tests a receiver.
describe('examples/webhook-receiver.ts', () => {
  it('runs a signed delivery and refuses a forged one', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const body = JSON.stringify([
      { 'std:signature': { comments: 'Count me in' }, idempotency_key: 'test-1' },
    ]);
    const signature = await signWebhookBody([DEV_SECRET], body, Date.now() / 1000);
    const response = await app.request('/hooks/adis', {
      method: 'POST',
      headers: { [WEBHOOK_SIGNATURE_HEADER]: signature },
      body,
    });
    expect(response.status).toBe(200);
    expect(log).toHaveBeenCalledWith('undefined signed undefined', 'Count me in');

    const forged = await app.request('/hooks/adis', { method: 'POST', body });
    expect(forged.status).toBe(401);
    log.mockRestore();
  });

  it("takes Action Network's deliveries on the secret path only", async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const ok = await app.request('/hooks/action-network/change-me', {
      method: 'POST',
      body: fixture('signature'),
    });
    expect(ok.status).toBe(200);
    expect(log.mock.calls[0]?.[0]).toMatch(/^Marisol signed https:\/\/actionnetwork\.org\//);
    const guessed = await app.request('/hooks/action-network/guess', {
      method: 'POST',
      body: fixture('signature'),
    });
    expect(guessed.status).toBe(404);
    log.mockRestore();
  });
});

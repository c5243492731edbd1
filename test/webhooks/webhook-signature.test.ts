import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkWebhookSignature,
  DEFAULT_SIGNATURE_TOLERANCE_SECONDS,
  signWebhookBody,
} from '../../src/webhooks/index.js';

const NOW = 1_764_165_600;
const BODY = '[{"std:signature":{"comments":"yes"},"idempotency_key":"k-1"}]';

describe('signWebhookBody', () => {
  it('is t=<seconds>,v1=<HMAC-SHA256 of "<t>.<body>"> (checked with node:crypto)', async () => {
    const header = await signWebhookBody(['whsec_a'], BODY, NOW + 0.7);
    const expected = createHmac('sha256', 'whsec_a').update(`${NOW}.${BODY}`).digest('hex');
    expect(header).toBe(`t=${NOW},v1=${expected}`);
  });

  it('signs with each secret while one is rotated', async () => {
    const header = await signWebhookBody(['old', 'new'], BODY, NOW);
    expect(header.split(',').filter((part) => part.startsWith('v1='))).toHaveLength(2);
    expect(await checkWebhookSignature(header, BODY, 'old', { nowSeconds: NOW })).toBe('ok');
    expect(await checkWebhookSignature(header, BODY, 'new', { nowSeconds: NOW })).toBe('ok');
    expect(await checkWebhookSignature(header, BODY, 'other', { nowSeconds: NOW })).toBe(
      'mismatch',
    );
  });
});

describe('checkWebhookSignature', () => {
  it('holds for the body as signed, within the tolerance both ways', async () => {
    const header = await signWebhookBody(['s'], BODY, NOW);
    const edge = DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
    for (const nowSeconds of [NOW, NOW + edge, NOW - edge]) {
      expect(await checkWebhookSignature(header, BODY, 's', { nowSeconds })).toBe('ok');
    }
  });

  it('refuses a forged body, a forged signature and a wrong secret', async () => {
    const header = await signWebhookBody(['s'], BODY, NOW);
    const options = { nowSeconds: NOW };
    expect(await checkWebhookSignature(header, BODY.replace('yes', 'no'), 's', options)).toBe(
      'mismatch',
    );
    const forged = header.replace(/v1=([0-9a-f])/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    expect(await checkWebhookSignature(forged, BODY, 's', options)).toBe('mismatch');
    expect(await checkWebhookSignature(header, BODY, 'not-s', options)).toBe('mismatch');
    // A signature moved to another timestamp no longer holds: the time is signed.
    const moved = header.replace(`t=${NOW}`, `t=${NOW + 1}`);
    expect(await checkWebhookSignature(moved, BODY, 's', options)).toBe('mismatch');
  });

  it('refuses a replay past the tolerance, and one from the future', async () => {
    const header = await signWebhookBody(['s'], BODY, NOW);
    const late = NOW + DEFAULT_SIGNATURE_TOLERANCE_SECONDS + 1;
    expect(await checkWebhookSignature(header, BODY, 's', { nowSeconds: late })).toBe('expired');
    expect(await checkWebhookSignature(header, BODY, 's', { nowSeconds: NOW - 301 })).toBe(
      'expired',
    );
    expect(
      await checkWebhookSignature(header, BODY, 's', {
        nowSeconds: NOW + 30,
        toleranceSeconds: 10,
      }),
    ).toBe('expired');
  });

  it.each([
    ['no header', null, 'missing'],
    ['an empty header', '  ', 'missing'],
    ['no t=', 'v1=abc', 'malformed'],
    ['no v1=', `t=${NOW}`, 'malformed'],
    ['a t= that is not seconds', 't=soon,v1=abc', 'malformed'],
    ['a fractional t=', `t=${NOW}.5,v1=abc`, 'malformed'],
    ['only an unknown scheme', `t=${NOW},v0=abc`, 'malformed'],
    ['garbage', 'Bearer xyz', 'malformed'],
  ] as const)('says %s is %s', async (_, header, expected) => {
    expect(await checkWebhookSignature(header, BODY, 's', { nowSeconds: NOW })).toBe(expected);
  });

  it('ignores unknown schemes beside v1 and reads v1 in any case', async () => {
    const header = await signWebhookBody(['s'], BODY, NOW);
    const upper = header.replace(
      /v1=(\w+)/,
      (_, hex: string) => `v0=dead,v1=${hex.toUpperCase()},v2=beef`,
    );
    expect(await checkWebhookSignature(upper, BODY, 's', { nowSeconds: NOW })).toBe('ok');
  });
});

// The webhook signature both sides speak: the reference server signs every delivery with
// it and `adis-sdk/webhooks` checks it. Stripe's scheme, in one header:
//
//   ADIS-Webhook-Signature: t=1764165600,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
//
// Why a timestamp inside the signed text: a captured delivery replayed later fails the
// tolerance check, and the timestamp cannot be changed without the secret. Why several
// `v1=` allowed: a sender rotating its secret signs with both for a while. Unknown schemes
// (`v0=`, `v2=`) are ignored, so a newer sender stays readable. Web Crypto only (global
// in Node 20+, browsers, Deno, Bun, Workers): nothing here imports.

/** The header that carries the signature of a webhook delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'ADIS-Webhook-Signature';

/** How old (or how far in the future) a signature's timestamp may be: five minutes. */
export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

/** Why a signature was refused; `'ok'` when it holds. */
export type WebhookSignatureCheck =
  | 'ok'
  | 'missing' // no header at all
  | 'malformed' // no `t=` or no `v1=`, or a `t=` that is not whole seconds
  | 'expired' // the timestamp is outside the tolerance: a replay, or a wrong clock
  | 'mismatch'; // no `v1=` is the HMAC of this body under this secret

const encoder = new TextEncoder();

async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  let hex = '';
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Compares in time independent of where the strings differ (no early exit). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * The value of {@link WEBHOOK_SIGNATURE_HEADER} for `body` sent at `timestampSeconds`
 * (Unix seconds) and signed with each of `secrets`.
 *
 * @example
 * ```ts
 * import { signWebhookBody } from 'adis-sdk/webhooks';
 *
 * const header = await signWebhookBody(['whsec_1'], '[]', Math.floor(Date.now() / 1000));
 * // 't=1764165600,v1=5d41…'
 * ```
 */
export async function signWebhookBody(
  secrets: readonly string[],
  body: string,
  timestampSeconds: number,
): Promise<string> {
  const t = Math.floor(timestampSeconds);
  const signatures = await Promise.all(secrets.map((secret) => hmacHex(secret, `${t}.${body}`)));
  return [`t=${t}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}

/**
 * Checks `header` (the value of {@link WEBHOOK_SIGNATURE_HEADER}, or null when absent)
 * against the raw `body` as received and `secret`. `nowSeconds` and `toleranceSeconds`
 * bound replays (defaults: the clock, {@link DEFAULT_SIGNATURE_TOLERANCE_SECONDS}).
 *
 * @example
 * ```ts
 * import { checkWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from 'adis-sdk/webhooks';
 *
 * async function receive(request: Request, secret: string): Promise<Response> {
 *   const body = await request.text();
 *   const check = await checkWebhookSignature(request.headers.get(WEBHOOK_SIGNATURE_HEADER), body, secret);
 *   if (check !== 'ok') return new Response(null, { status: 401 });
 *   return new Response(null, { status: 204 });
 * }
 * ```
 */
export async function checkWebhookSignature(
  header: string | null | undefined,
  body: string,
  secret: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): Promise<WebhookSignatureCheck> {
  if (header === null || header === undefined || header.trim() === '') return 'missing';
  let timestamp: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    if (name === 't') timestamp = value;
    else if (name === 'v1') candidates.push(value.toLowerCase());
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp) || candidates.length === 0) {
    return 'malformed';
  }
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) return 'expired';
  const expected = await hmacHex(secret, `${timestamp}.${body}`);
  return candidates.some((candidate) => sameText(candidate, expected)) ? 'ok' : 'mismatch';
}

import { InvalidIdempotencyKeyError } from '../errors/invalid-idempotency-key-error.js';

// Shared by the transport and the light browser entry (`adis-sdk/helpers`): no run-time
// import beyond the error class, and every byte counts in a page.

/**
 * The header that makes a POST safe to retry (Stripe's convention, and the IETF draft
 * "The Idempotency-Key HTTP Header Field"): a server that has seen the key answers a
 * repeat with the first answer instead of acting twice.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** 1 to 255 visible ASCII characters: what every server can store and compare as bytes. */
const VALID_KEY = /^[!-~]{1,255}$/;

/**
 * A new random idempotency key: a version 4 UUID from `crypto.getRandomValues`, which,
 * unlike `crypto.randomUUID`, works on plain http pages too (not only in secure
 * contexts). The SDK makes one per logical call by itself; make one yourself to keep
 * the same key across calls that must act once: a form submitted again after a network
 * error or a timeout (whose outcome is unknown), or a queued job that is retried whole.
 * After an answer, make a new one: the server replays the old key's answer, or refuses
 * it (422) for a corrected body.
 *
 * @example
 * ```ts
 * import { isNetworkError, isTimeoutError, newIdempotencyKey, recordSignature } from 'adis-sdk/helpers';
 *
 * const form = document.querySelector('form')!;
 * const href = form.dataset.helperHref!;
 * let idempotencyKey = newIdempotencyKey(); // '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
 * form.addEventListener('submit', async () => {
 *   const person = { given_name: String(new FormData(form).get('given_name')) };
 *   try {
 *     await recordSignature(href, { person }, { idempotencyKey });
 *     idempotencyKey = newIdempotencyKey(); // answered: the next submit is a new request
 *   } catch (error) {
 *     if (!isNetworkError(error) && !isTimeoutError(error)) idempotencyKey = newIdempotencyKey();
 *   }
 * });
 * ```
 */
export function newIdempotencyKey(): string {
  const random = crypto.getRandomValues(new Uint8Array(31));
  let next = 0;
  // Each 0 and 1 of the pattern becomes a random hex digit; the 4 stays (the version),
  // and the 8 becomes 8 to b (the variant, RFC 9562): the shortest code for a page.
  return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (digit) =>
    (Number(digit) ^ ((random[next++] as number) & (15 >> (Number(digit) / 4)))).toString(16),
  );
}

/**
 * The key one call sends: the caller's own (checked: an
 * {@link InvalidIdempotencyKeyError} before any request when it cannot be sent), a new
 * one when none is given and keys are on, or none (`false`, or keys off).
 *
 * @example
 * ```ts
 * import { idempotencyKeyFor } from './idempotency-key.js';
 *
 * const url = 'https://api.example.org/api/v1/people';
 * idempotencyKeyFor(undefined, true, 'POST', url); // a new UUID
 * idempotencyKeyFor('job-42', false, 'POST', url); // 'job-42'
 * idempotencyKeyFor(false, true, 'POST', url); // undefined
 * ```
 */
export function idempotencyKeyFor(
  given: string | false | undefined,
  byDefault: boolean,
  method: string,
  url: string,
): string | undefined {
  if (given === undefined) return byDefault ? newIdempotencyKey() : undefined;
  if (given === false) return undefined;
  if (typeof given === 'string' && VALID_KEY.test(given)) return given;
  throw new InvalidIdempotencyKeyError(method, url, given);
}

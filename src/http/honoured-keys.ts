import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key.js';
import { originOf } from './origins.js';

/**
 * The response header by which a server says that it honours `Idempotency-Key` (answers
 * a repeated key with the first answer instead of acting again): `Idempotency-Key-Honoured:
 * true`, on any answer, so that the entry point read by `connect` already tells. The
 * specification defines no such header; the reference server sends it on every answer
 * past authentication.
 */
export const IDEMPOTENCY_KEY_HONOURED_HEADER = 'Idempotency-Key-Honoured';

/**
 * Whether an answer shows that its server honours `Idempotency-Key`: it says so with
 * {@link IDEMPOTENCY_KEY_HONOURED_HEADER}, or it echoes the key the request carried in
 * its own `Idempotency-Key` header (as Stripe does). A server that ignores the header
 * does neither.
 *
 * @example
 * ```ts
 * import { showsHonouredKeys } from './honoured-keys.js';
 *
 * showsHonouredKeys(new Headers({ 'Idempotency-Key': 'k1' }), 'k1'); // true
 * showsHonouredKeys(new Headers(), 'k1'); // false
 * ```
 */
export function showsHonouredKeys(headers: Headers, sentKey: string | undefined): boolean {
  return (
    headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER) === 'true' ||
    (sentKey !== undefined && headers.get(IDEMPOTENCY_KEY_HEADER) === sentKey)
  );
}

/**
 * The origins a transport knows to honour `Idempotency-Key`, where a POST that carries a
 * key may be retried after a failure that could have happened after the server acted
 * (a 5xx, a timeout, a reset): every origin when the caller or a preset said so
 * (`idempotencyKeys: 'honoured'`), else those whose answers showed it
 * ({@link showsHonouredKeys}). Known per origin: one server's word says nothing of
 * another's.
 */
export class KeyHonouringOrigins {
  readonly #origins = new Set<string>();

  /**
   * Knows no origin yet, unless `all`.
   *
   * @param all - True when every server this transport talks to honours the key.
   */
  constructor(private readonly all: boolean) {}

  /**
   * Whether the origin of a URL is known to honour `Idempotency-Key`.
   */
  has(url: string): boolean {
    return this.all || this.#origins.has(originOf(url) ?? '');
  }

  /**
   * Remembers the origin of an answer that shows it honours the key (any status, any
   * method); an answer that does not show it forgets nothing.
   */
  learn(url: string, headers: Headers, sentKey: string | undefined): void {
    if (this.all || !showsHonouredKeys(headers, sentKey)) return;
    const origin = originOf(url);
    if (origin !== undefined) this.#origins.add(origin);
  }
}

/**
 * Answers stored under an `Idempotency-Key`: the `idempotency` sub-store of a
 * {@link Storage}. The HTTP layer (`http/idempotency.ts`) replays them.
 */

/**
 * Whose idempotency key a stored answer is filed under: keys are per tenant, and calls
 * without an API key (a page calling a helper, the tenant being the record's) have a
 * namespace of their own beside the tenant's keyed calls.
 */
export interface IdempotencyKeyRef {
  tenantId: number;
  /** True for calls without an API key. */
  anonymous: boolean;
  /** The `Idempotency-Key` header as sent. */
  key: string;
}

/** The answer to a POST that carried an `Idempotency-Key`, as stored for its repeats. */
export interface IdempotentAnswer {
  /** Hash of what identifies the request (method, path and query, body bytes). */
  fingerprint: string;
  status: number;
  /** The answer's headers (name, value), in order. */
  headers: readonly (readonly [string, string])[];
  body: Uint8Array;
  /** When the first request was answered, in milliseconds since the epoch. */
  createdMs: number;
}

/**
 * Expired answers each stored answer removes at most: a table written at any rate holds
 * about one retention period of answers, and no save pays for a long sweep.
 */
export const EXPIRED_ANSWERS_PER_SAVE = 2;

/** The idempotency sub-store. */
export interface IdempotencyStore {
  /**
   * The stored answer filed under `ref`, unless it was stored before `notBeforeMs`
   * (an expired answer is as good as none).
   */
  find(ref: IdempotencyKeyRef, notBeforeMs: number): Promise<IdempotentAnswer | undefined>;
  /**
   * Files `answer` under `ref` (replacing an expired one), and removes a few answers
   * stored before `expireBeforeMs`, so that a table written at any rate holds about one
   * retention period of answers. Call it inside the {@link Storage.unit} of the request
   * it answers, to commit it with the request's writes.
   */
  save(ref: IdempotencyKeyRef, answer: IdempotentAnswer, expireBeforeMs: number): Promise<void>;
}

import { AdisError } from './adis-error.js';

/**
 * What is wrong with a webhook delivery, one word per case:
 * - `not-json`: the body does not parse as JSON;
 * - `not-an-array`: the body is JSON but not the array of elements senders POST;
 * - `element-not-an-object`: an element of the array is not an object;
 * - `no-type`: an element has no member naming its type (`osdi:signature`, …);
 * - `several-types`: an element has more than one such member;
 * - `closure-not-an-object`: the member naming the type does not hold an object;
 * - `invalid-idempotency-key`: an `idempotency_key` that is not a non-empty string, or
 *   two different ones in one element;
 * - `invalid-member`: a member the SDK reads has the wrong JSON type (`person` not an
 *   object, `add_tags` not an array of strings, `_links` not an object);
 * - `invalid-record`: validation was asked for (`parseWebhook`'s `validate`) and the
 *   record does not match its kind's schema.
 */
export type WebhookPayloadProblem =
  | 'not-json'
  | 'not-an-array'
  | 'element-not-an-object'
  | 'no-type'
  | 'several-types'
  | 'closure-not-an-object'
  | 'invalid-idempotency-key'
  | 'invalid-member'
  | 'invalid-record';

/** What a {@link WebhookPayloadError} is built from. */
export interface WebhookPayloadErrorInit {
  /** What is wrong. */
  problem: WebhookPayloadProblem;
  /** The index of the element at fault in the delivered array; absent for the whole body. */
  index?: number | undefined;
  /** The member at fault (`osdi:signature`, `idempotency_key`), when one is. */
  member?: string | undefined;
  /** A sentence for people: what was found, and what was expected. */
  detail: string;
  /** The error behind this one (JSON's SyntaxError, a schema's issues). */
  cause?: unknown;
}

/**
 * A webhook delivery is not what `parseWebhook` reads: not JSON, not an array of
 * elements each holding one record under its type's key (`osdi:signature`), or a member
 * of the wrong JSON type. The message names the element (by its index in the array) and
 * the member. A receiver answers it with 400: sending the same body again would fail
 * the same way. An element of a type the SDK does not know is not an error (it is kept
 * as an event of type `unknown`).
 *
 * @example
 * ```ts
 * import { isWebhookPayloadError, parseWebhook } from 'adis-sdk/webhooks';
 *
 * const body = '[{"osdi:signature": {}}]';
 * try {
 *   parseWebhook(body);
 * } catch (error) {
 *   if (isWebhookPayloadError(error)) console.error(error.problem, error.index, error.message);
 * }
 * ```
 */
export class WebhookPayloadError extends AdisError {
  /** Always `'WEBHOOK_PAYLOAD'`. */
  readonly code = 'WEBHOOK_PAYLOAD' as const;
  /** Always `'WebhookPayloadError'`. */
  override readonly name = 'WebhookPayloadError' as const;
  /** What is wrong. */
  declare readonly problem: WebhookPayloadProblem;
  /** The index of the element at fault; undefined when the whole body is. */
  declare readonly index: number | undefined;
  /** The member at fault, when one is. */
  declare readonly member: string | undefined;

  /**
   * Builds the error; the message names the element and the member at fault.
   *
   * @param init - The problem, where it is, and a sentence saying what was found.
   */
  constructor(init: WebhookPayloadErrorInit) {
    const where = [
      init.index === undefined ? undefined : `element ${init.index}`,
      init.member === undefined ? undefined : JSON.stringify(init.member),
    ].filter((part) => part !== undefined);
    super(
      `Invalid webhook payload: ${where.length > 0 ? `${where.join(', ')}: ` : ''}${init.detail}`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.problem = init.problem;
    this.index = init.index;
    this.member = init.member;
  }
}

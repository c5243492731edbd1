/**
 * One step of one subscription's delivery: the next batch of its events after its
 * cursor, POSTed and logged, the outcome applied to the subscription.
 *
 * At least once, in order: the cursor moves only when the receiver answered 2xx (in
 * the transaction that logs the attempt), so a crash between the POST and that commit
 * sends the batch again after a restart; receivers dedupe by `idempotency_key`. A batch
 * that fails is retried as it is (the same first event), with backoff, until it is
 * delivered or the retry window is over, when the subscription is switched off.
 */
import type { WebhookEvent, WebhookStore, WebhookSubscription } from '../storage/webhook-store.js';
import type { AttemptAborts } from './attempt-aborts.js';
import { type Backoff, retryDelayMs } from './backoff.js';
import { type BatchPostResult, postBatch } from './post-batch.js';
import type { WebhookBodies } from './webhook-body.js';

/** What a step works with: the store, the renderer, and the outside world (injectable). */
export interface DeliveryContext {
  store: WebhookStore;
  bodies: WebhookBodies;
  /** Events a batch holds at most. */
  batchSize: number;
  /** How long a run of failures may last before the subscription is switched off (ms). */
  retryWindowMs: number;
  /** How long one attempt may take (ms). */
  timeoutMs: number;
  backoff: Backoff;
  fetch: typeof globalThis.fetch;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Uniform in [0, 1): the backoff's jitter. */
  random: () => number;
  /** Why the server may not POST to a URL now, or undefined (the SSRF check, at delivery time). */
  checkAddress: (url: string) => Promise<string | undefined>;
  log: (message: string) => void;
  /** Aborted when shutdown's grace is over: attempts in flight end, unlogged. */
  aborts: AttemptAborts;
}

/**
 * How a step ended. `sent`/`skipped`: progress, more may be pending; `failed`: retried
 * later; `switched_off`: given up; `nothing`: no event pending, not due, or inactive.
 */
export type StepOutcome = 'sent' | 'skipped' | 'failed' | 'switched_off' | 'nothing';

/** How many events one step reads at most while skipping ones the triggers do not take. */
const SCAN_LIMIT_FACTOR = 20;

/**
 * Whether a subscription takes events of `type`.
 *
 * @example
 * ```ts
 * import { takesEvent } from './subscription-delivery.js';
 *
 * takesEvent(['*'], 'signature'); // true
 * takesEvent(['attendance'], 'signature'); // false
 * ```
 */
export function takesEvent(triggers: readonly string[], type: string): boolean {
  return triggers.includes('*') || triggers.includes(type);
}

/** The batch to send, and how far the cursor may move once it is delivered. */
interface Batch {
  events: WebhookEvent[];
  /** Seq of the last event looked at: the batch's last, or a skipped one before it. */
  throughSeq: number;
}

/**
 * The next events the subscription takes, at most `batchSize`, reading at most a few
 * batches' worth of events it does not take.
 */
async function nextBatch(
  store: WebhookStore,
  subscription: WebhookSubscription,
  batchSize: number,
): Promise<Batch> {
  const events: WebhookEvent[] = [];
  let throughSeq = subscription.cursor;
  let read = 0;
  while (events.length < batchSize && read < batchSize * SCAN_LIMIT_FACTOR) {
    const page = await store.eventsAfter(subscription.tenantId, throughSeq, batchSize);
    for (const event of page) {
      if (takesEvent(subscription.triggers, event.type)) events.push(event);
      throughSeq = event.seq;
      if (events.length === batchSize) break;
    }
    read += page.length;
    if (page.length < batchSize) break;
  }
  // A full batch stops at its last event: what follows was not read, so the cursor
  // must not pass it.
  return { events, throughSeq };
}

/** The attempt number of a batch starting at `firstSeq`: one more than its last failure's. */
async function attemptNumber(
  store: WebhookStore,
  subscriptionId: string,
  firstSeq: number,
): Promise<number> {
  const [last] = await store.listAttempts(subscriptionId, 1);
  return last && last.outcome === 'failed' && last.firstSeq === firstSeq ? last.attempt + 1 : 1;
}

/**
 * Delivers the next batch of `subscriptionId` if one is pending and due (see the top
 * of this module). Throws only when storage does.
 */
export async function deliverNextBatch(
  context: DeliveryContext,
  subscriptionId: string,
): Promise<StepOutcome> {
  const { store, now } = context;
  const subscription = await store.getSubscription(subscriptionId);
  if (!subscription?.active) return 'nothing';
  const startMs = now();
  if (subscription.nextAttemptMs !== undefined && subscription.nextAttemptMs > startMs) {
    return 'nothing';
  }
  const batch = await nextBatch(store, subscription, context.batchSize);
  const first = batch.events[0];
  const last = batch.events[batch.events.length - 1];
  if (!first || !last) {
    if (batch.throughSeq === subscription.cursor) return 'nothing';
    await store.skipTo(subscription.id, batch.throughSeq);
    return 'skipped';
  }

  const attempt = await attemptNumber(store, subscription.id, first.seq);
  // The operator's file may name any URL; one given through the API is checked again
  // now, since its name may resolve elsewhere than when it was created.
  const refused =
    subscription.source === 'file' ? undefined : await context.checkAddress(subscription.url);
  const result: BatchPostResult =
    refused === undefined
      ? await send(context, subscription, batch.events)
      : { delivered: false, error: `address refused: ${refused}` };
  // Cut short by shutdown: not the receiver's failure. Unlogged, the batch is sent
  // again after the restart, without a backoff it did not earn.
  if (!result.delivered && context.aborts.aborted) return 'nothing';

  const endMs = now();
  const logged = {
    subscriptionId: subscription.id,
    firstSeq: first.seq,
    lastSeq: last.seq,
    eventCount: batch.events.length,
    attempt,
    atMs: startMs,
    durationMs: Math.max(0, endMs - startMs),
    ...(result.status === undefined ? {} : { status: result.status }),
  };
  if (result.delivered) {
    await store.recordAttempt({ ...logged, outcome: 'delivered' }, { advanceTo: batch.throughSeq });
    return 'sent';
  }
  const error = result.error ?? 'failed';
  const failingSinceMs = subscription.failingSinceMs ?? startMs;
  if (endMs - failingSinceMs >= context.retryWindowMs) {
    const disabledReason = `switched off at ${new Date(endMs).toISOString()}: deliveries failed since ${new Date(failingSinceMs).toISOString()}, longer than the retry window of ${describeDuration(context.retryWindowMs)} (last error: ${error})`;
    await store.recordAttempt(
      { ...logged, outcome: 'gave_up', error },
      { disabledReason, failingSinceMs },
    );
    context.log(`webhook subscription ${subscription.id} (${subscription.url}) ${disabledReason}`);
    return 'switched_off';
  }
  const nextAttemptMs = endMs + retryDelayMs(attempt, context.random, context.backoff);
  await store.recordAttempt(
    { ...logged, outcome: 'failed', error, nextAttemptMs },
    { failingSinceMs },
  );
  context.log(
    `webhook delivery to ${subscription.url} failed (${error}), attempt ${attempt}; next at ${new Date(nextAttemptMs).toISOString()}`,
  );
  return 'failed';
}

/** Renders and POSTs a batch; a batch that cannot be rendered fails like a refusal. */
async function send(
  context: DeliveryContext,
  subscription: WebhookSubscription,
  events: readonly WebhookEvent[],
): Promise<BatchPostResult> {
  let body: string;
  try {
    body = await context.bodies.body(events);
  } catch (error) {
    return { delivered: false, error: `cannot render the events: ${(error as Error).message}` };
  }
  // A signal of this attempt's own: see attempt-aborts.ts.
  const abort = context.aborts.begin();
  try {
    return await postBatch({
      url: subscription.url,
      body,
      secret: subscription.secret,
      timestampSeconds: Math.floor(context.now() / 1000),
      timeoutMs: context.timeoutMs,
      fetch: context.fetch,
      signal: abort.signal,
    });
  } finally {
    abort.end();
  }
}

/** `24 hours`, `90 seconds`: a window in words for the reason a subscription was switched off. */
function describeDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return `${ms / 1000} seconds`;
  return `${ms} ms`;
}

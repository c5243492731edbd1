/**
 * The webhook side of storage: subscriptions, the outbox of events and the delivery log.
 *
 * Why it lives in the same database as the records (a transactional outbox): an event is
 * appended inside the transaction of the write that makes it, so it commits with that
 * write or not at all. No acknowledged write is without its event, and no event is
 * without its write, whatever crashes when. Delivery reads the outbox afterwards, from
 * any process that opens the database, so a restart resumes where the last one stopped.
 *
 * Delivery is per subscription, in event order: each subscription keeps a cursor (the
 * seq of the last event it has been sent, or skipped because its triggers do not take
 * it) and is sent the events after it, oldest first, in batches. Fan-out costs nothing
 * at write time: one outbox row per event, whatever the number of subscriptions.
 */
import type { JsonObject } from './json-object.js';

/** Attempts kept per subscription by every engine: the newest, enough to read a day of retries. */
export const ATTEMPTS_KEPT = 300;

/** Where a subscription came from: the operator's `--webhooks` file, or the API. */
export type SubscriptionSource = 'file' | 'api';

/** What a new subscription is made of; the store sets its cursor to the newest event. */
export interface NewWebhookSubscription {
  /** UUID; the API's record id. */
  id: string;
  tenantId: number;
  /** Where deliveries are POSTed (http or https). */
  url: string;
  /** Signing secret: every delivery carries `ADIS-Webhook-Signature` made with it. */
  secret: string;
  /**
   * Event types delivered (`signature`, `attendance`, `signup`, …); `['*']` for all.
   * An event whose type is not listed moves the cursor past it unsent.
   */
  triggers: readonly string[];
  source: SubscriptionSource;
  /** When it was created, in milliseconds since the epoch. */
  createdMs: number;
}

/** A subscription as stored: what it was made of, and where its deliveries stand. */
export interface WebhookSubscription extends NewWebhookSubscription {
  /** False once switched off (failing for the whole retry window); see `disabledReason`. */
  active: boolean;
  /** Why it was switched off, for the API and the log; undefined while active. */
  disabledReason?: string;
  /** Seq of the last event sent to it (or skipped); it is sent the events after it. */
  cursor: number;
  /** When the next attempt is due (ms since the epoch); undefined: now, if anything is pending. */
  nextAttemptMs?: number;
  /** When the current run of failures began (ms); undefined when the last attempt succeeded. */
  failingSinceMs?: number;
}

/** An event, as appended to the outbox in the transaction of its write. */
export interface NewWebhookEvent {
  tenantId: number;
  /** Event type: `signature`, `attendance`, `submission`, `donation`, `outreach`, `signup`, … */
  type: string;
  /** Unique per event (UUID); sent as `idempotency_key`, the same on every retry. */
  idempotencyKey: string;
  /**
   * What the event says, as data the delivery renders (the record's kind, id and
   * document as written, the person's): a snapshot, so a later change or deletion of
   * the record does not change what the event says.
   */
  payload: JsonObject;
  createdMs: number;
}

/** An event as stored. */
export interface WebhookEvent extends NewWebhookEvent {
  /** Outbox order: strictly increasing, never reused. */
  seq: number;
}

/** How one delivery attempt ended. */
export type DeliveryOutcome =
  /** The receiver answered 2xx: the cursor moved past the batch. */
  | 'delivered'
  /** Refused (non-2xx), unreachable or timed out: retried at `nextAttemptMs`. */
  | 'failed'
  /** Failed, and the retry window is over: the subscription was switched off. */
  | 'gave_up';

/** One attempt, as logged. */
export interface DeliveryAttempt {
  id: number;
  subscriptionId: string;
  /** Seqs of the first and last event of the batch. */
  firstSeq: number;
  lastSeq: number;
  eventCount: number;
  /** 1 for the first attempt of this batch, then 2, 3, … */
  attempt: number;
  /** When it was made (ms since the epoch). */
  atMs: number;
  outcome: DeliveryOutcome;
  /** The receiver's HTTP status, when it answered. */
  status?: number;
  /** What went wrong, when it failed (`connection refused`, `timed out after 10000 ms`, `HTTP 503`). */
  error?: string;
  /** When the next attempt is due, after a failure. */
  nextAttemptMs?: number;
  /** How long the attempt took, in milliseconds. */
  durationMs: number;
}

/**
 * The webhook storage contract, implemented by the same engine as {@link Storage} (the
 * outbox must share its transactions). Asynchronous, like the rest of storage, but for
 * the per-process bookkeeping of what this process appended and announced.
 */
export interface WebhookStore {
  /** Adds a subscription, its cursor at the newest event (it gets events from now on). */
  addSubscription(subscription: NewWebhookSubscription): Promise<WebhookSubscription>;
  /**
   * Replaces every subscription from the `--webhooks` file with `subscriptions`:
   * one whose id (derived from tenant and URL by the caller) is kept keeps its cursor
   * and state; new ones start at the newest event; missing ones are deleted.
   */
  replaceFileSubscriptions(subscriptions: readonly NewWebhookSubscription[]): Promise<void>;
  /** Deletes a subscription (and its log); false when the tenant has none with that id. */
  deleteSubscription(tenantId: number, id: string): Promise<boolean>;
  /** One subscription; `tenantId` limits it to a tenant's. */
  getSubscription(id: string, tenantId?: number): Promise<WebhookSubscription | undefined>;
  /** A tenant's subscriptions, or every one (delivery), oldest first. */
  listSubscriptions(tenantId?: number): Promise<WebhookSubscription[]>;
  /**
   * Whether `tenantId` has an active subscription: the outbox is written only then, so
   * a server without subscribers pays nothing per write. Cached; every change above
   * refreshes it.
   */
  hasSubscribers(tenantId: number): Promise<boolean>;

  /**
   * Appends an event to the outbox. Call it inside the transaction of the write that
   * makes the event: it commits with it. Resolves with its seq; or with 0 where the
   * engine holds it with the transaction's other writes (PostgreSQL, inside a
   * transaction: its seq is drawn when the writes are sent).
   */
  appendEvent(event: NewWebhookEvent): Promise<number>;
  /**
   * How many events this process has appended (rolled back ones included): a request
   * compares it before and after, to know whether it made any.
   */
  readonly appendedCount: number;
  /**
   * Tells the watchers that events appended so far are committed (the HTTP layer calls
   * it after the commit of a request that made events), so delivery need not wait for
   * its next poll.
   */
  announceCommitted(): void;
  /** Calls `watcher` at each {@link announceCommitted}; returns what stops it. */
  watchCommitted(watcher: () => void): () => void;
  /**
   * The next events for a subscription: its tenant's, with seq after its cursor, oldest
   * first, at most `limit`.
   */
  eventsAfter(tenantId: number, cursor: number, limit: number): Promise<WebhookEvent[]>;
  /**
   * Logs an attempt and applies its outcome in one transaction: `delivered` moves the
   * cursor to `advanceTo` (the last event delivered or skipped) and clears the failure
   * state; `failed` sets `nextAttemptMs` and, if not yet set, `failingSinceMs`;
   * `gave_up` switches the subscription off with `disabledReason`.
   * Keeps the newest {@link ATTEMPTS_KEPT} attempts of each subscription only. Undefined,
   * and nothing written, when the subscription was deleted while the attempt ran.
   */
  recordAttempt(
    attempt: Omit<DeliveryAttempt, 'id'>,
    effect: { advanceTo?: number; disabledReason?: string; failingSinceMs?: number },
  ): Promise<DeliveryAttempt | undefined>;
  /**
   * Makes a failing subscription's next attempt due now (its backoff forgotten, its
   * failure run kept): a test's or an operator's "retry now". Nothing for one switched off.
   */
  retryNow(subscriptionId: string): Promise<void>;
  /**
   * Claims the delivery of a subscription's events for `owner` (one server process)
   * until `untilMs`: false when another owner holds a claim that has not expired.
   * Several processes share one database; each subscription is delivered by one of them
   * at a time, in order. A claim ends with {@link releaseSubscription}, or when it
   * expires (a process killed mid-delivery): the owner renews it while it delivers.
   */
  claimSubscription(
    subscriptionId: string,
    owner: string,
    nowMs: number,
    untilMs: number,
  ): Promise<boolean>;
  /** Ends `owner`'s claim on a subscription, if it holds one. */
  releaseSubscription(subscriptionId: string, owner: string): Promise<void>;
  /** Moves a cursor past events its triggers do not take (nothing sent, nothing logged). */
  skipTo(subscriptionId: string, seq: number): Promise<void>;
  /** A subscription's attempts, newest first. */
  listAttempts(subscriptionId: string, limit: number): Promise<DeliveryAttempt[]>;
  /**
   * Deletes outbox events every subscription of their tenant has passed (and those of
   * tenants without subscriptions), a few hundred at a time; returns how many.
   */
  pruneEvents(): Promise<number>;
}

/**
 * `Idempotency-Key` on POSTs (the IETF draft "The Idempotency-Key HTTP Header Field"):
 * a POST that carries a key is answered once; a repeat of it within
 * {@link IDEMPOTENCY_RETENTION_MS} gets the first answer again, byte for byte, and
 * writes nothing, so a client may retry a create or a helper call that timed out.
 *
 * - The key is 1 to 255 visible ASCII characters, compared as sent; else 400
 *   `INVALID_HEADER`. Without the header nothing here runs beyond reading it.
 * - Keys are per tenant: the API key's tenant; for a call without an API key (a page
 *   calling a helper) the tenant of the record in its URL, in a namespace of its own, so
 *   that an anonymous caller can never be answered with a keyed call's answer (anonymous
 *   answers say nothing about stored data: `{}` or a std:error).
 * - The same request is the same method, path and query, and body bytes (a sha256 of
 *   them). The same key with another request: 422 `IDEMPOTENCY_KEY_REUSED`.
 * - A repeat that arrives while the first is still running (or its commit not yet
 *   durable) waits for it, up to `waitMs`, then gets 409 `IDEMPOTENCY_KEY_IN_PROGRESS`
 *   with `Retry-After`. In-process: one server owns its database file.
 * - What is stored: every answer the route gave, 2xx and 4xx (the 400 of a helper call
 *   that wrote part of its work included), except statuses a retry may change (401,
 *   403, 408, 409, 413, 425, 429) and 5xx. Refusals before the route (authentication,
 *   rate and size limits) never reach this middleware. A repeat of a request whose answer
 *   was not stored runs again.
 * - Atomicity: the answer is saved in the same commit as the request's writes (one
 *   `Storage.unit` spans the look-up, the route and the save), so after a crash both
 *   exist or neither does.
 * - Clients are told, since the specification defines no such header and most servers
 *   ignore it (a client must not retry a POST that may have been applied on a server
 *   that does): every answer that passes this middleware (any method and status; not
 *   the refusals before it) carries `Idempotency-Key-Honoured: true`, the entry point's
 *   included, and the answer to a keyed POST echoes its `Idempotency-Key` (as Stripe
 *   does), the 409 of a repeat in progress included. The SDK learns from either.
 */
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { ApiError, apiError, ErrorCode } from '../domain/errors.js';
import type { IdempotencyKeyRef, IdempotentAnswer } from '../storage/storage.js';
import { anonymousCallOf } from './anonymous.js';
import type { AppConfig, AppEnv } from './env.js';
import { requestHeader } from './request-header.js';
import { sentJson } from './respond.js';

/**
 * The request header naming a POST's idempotency key.
 *
 * @example
 * ```ts
 * import { IDEMPOTENCY_KEY_HEADER } from 'adis-server';
 *
 * const headers = new Headers({ [IDEMPOTENCY_KEY_HEADER]: crypto.randomUUID() });
 * ```
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * The response header (value `true`) marking an answer replayed from an earlier request
 * with the same key.
 *
 * @example
 * ```ts
 * import { IDEMPOTENT_REPLAYED_HEADER } from 'adis-server';
 *
 * const replayed = (res: Response) => res.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true';
 * ```
 */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The response header (value `true`) by which the server says, on every answer past
 * authentication and the limits, that it honours `Idempotency-Key`: a client may retry
 * a keyed POST whose answer it lost. Not part of the specification; the SDK reads it.
 *
 * @example
 * ```ts
 * import { IDEMPOTENCY_KEY_HONOURED_HEADER } from 'adis-server';
 *
 * const safeToRetry = (res: Response) => res.headers.get(IDEMPOTENCY_KEY_HONOURED_HEADER) === 'true';
 * ```
 */
export const IDEMPOTENCY_KEY_HONOURED_HEADER = 'Idempotency-Key-Honoured';

/**
 * How long an answer is kept for repeats: 24 hours. An older key counts as new.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long a repeat waits for the first request with its key, by default: 10 s.
 *
 * @example
 * ```ts
 * import { createApp, DEFAULT_IDEMPOTENCY_WAIT_MS, openStorage } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * createApp({ storage, idempotency: { waitMs: DEFAULT_IDEMPOTENCY_WAIT_MS / 2 } });
 * ```
 */
export const DEFAULT_IDEMPOTENCY_WAIT_MS = 10_000;

/**
 * Options of the `Idempotency-Key` handling (`AppOptions.idempotency`).
 */
export interface IdempotencyOptions {
  /**
   * How long (ms) a repeat waits for the first request with its key to finish before it
   * is answered 409 `IDEMPOTENCY_KEY_IN_PROGRESS`. Default
   * {@link DEFAULT_IDEMPOTENCY_WAIT_MS}.
   */
  waitMs?: number;
  /** The clock answers are dated and expired by, in ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** 1 to 255 visible ASCII characters (0x21 to 0x7E), as the SDK sends them. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Statuses a retry may change, never stored: an expired or wrong API key, a conflict
 * with the current state, a request too large or too early, a rate limit.
 */
const NOT_STORED = new Set([401, 403, 408, 409, 413, 425, 429]);

/** Response headers about the connection, not the answer: never stored. */
const CONNECTION_HEADERS = new Set([
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
]);

/** Seconds a repeat refused with 409 is told to wait. */
const IN_PROGRESS_RETRY_AFTER = '1';

/** A first request still running, and when its answer may be given (or is known lost). */
interface Running {
  fingerprint: string;
  done: Promise<void>;
}

/**
 * The middleware (registered in `app.ts` after authentication and the body limits,
 * before the routes).
 */
export function idempotentPosts(
  config: AppConfig,
  options: IdempotencyOptions = {},
): MiddlewareHandler<AppEnv> {
  const waitMs = options.waitMs ?? DEFAULT_IDEMPOTENCY_WAIT_MS;
  if (!Number.isFinite(waitMs) || waitMs < 0) {
    throw new RangeError(`idempotency.waitMs must be a number of ms >= 0, got ${waitMs}`);
  }
  const now = options.now ?? Date.now;
  const { storage } = config;
  const running = new Map<string, Running>();
  // Resolves with a stored answer to replay, or undefined once the route has answered.
  const keyed = async (
    c: Context<AppEnv>,
    next: Next,
    key: string,
  ): Promise<Response | undefined> => {
    checkKey(key);
    const ref = await refOf(c, config, key);
    // An anonymous call naming no record of any tenant: the route answers 404.
    if (!ref) {
      await next();
      return undefined;
    }
    const fingerprint = fingerprintOf(c);
    const slot = `${ref.tenantId}\u0000${ref.anonymous ? 'a' : 'k'}\u0000${key}`;
    const deadline = performance.now() + waitMs;
    for (let first = running.get(slot); first; first = running.get(slot)) {
      if (first.fingerprint !== fingerprint) throw reused(key);
      if (!(await settledWithin(first.done, deadline - performance.now()))) throw inProgress(key);
    }
    // From the loop's end to running.set nothing awaits: no other request of this process
    // can start with this key.
    let finish = () => {};
    running.set(slot, { fingerprint, done: new Promise<void>((resolve) => (finish = resolve)) });
    const mark = storage.commitMark();
    try {
      // One unit: the look-up, the route's writes and the answer stored commit together.
      // Inside it the look-up also keeps other processes on the same database from
      // running the key at the same time (PostgreSQL locks the key until the commit).
      const replay = await storage.unit(async () => {
        const stored = await storage.idempotency.find(ref, now() - IDEMPOTENCY_RETENTION_MS);
        if (stored) {
          if (stored.fingerprint !== fingerprint) throw reused(key);
          return responseOf(stored, true);
        }
        await next();
        const status = c.res.status;
        if (status >= 200 && status < 500 && !NOT_STORED.has(status)) {
          const sent = sentJson(c.res);
          const answer = await answerOf(c.res, sent, fingerprint, now());
          await storage.idempotency.save(ref, answer, answer.createdMs - IDEMPOTENCY_RETENTION_MS);
          // A body read from the stream is gone from the route's answer: send the copy.
          if (sent === undefined) {
            // Unset first: Hono would otherwise rebuild the new answer around a stream.
            c.res = undefined;
            c.res = responseOf(answer, false);
          }
        }
        return undefined;
      });
      if (replay) return replay;
      // Repeats wait until this answer may be given (its commit durable); if the commit
      // fails, the answer is gone with the writes and a repeat runs the request again.
      await storage.durable(mark).catch(() => undefined);
    } finally {
      running.delete(slot);
      finish();
    }
    return undefined;
  };
  // Set on the final answer: the route's, an error's, or a replay (returned, not yet c.res).
  const tell = (c: Context<AppEnv>, replay: Response | undefined, key: string | undefined) => {
    const { headers } = replay ?? c.res;
    headers.set(IDEMPOTENCY_KEY_HONOURED_HEADER, 'true');
    if (key !== undefined) headers.set(IDEMPOTENCY_KEY_HEADER, key);
    return replay;
  };
  return (c, next) => {
    const key = c.req.method === 'POST' ? requestHeader(c, IDEMPOTENCY_KEY_HEADER) : undefined;
    // Without a key: a method check, a header look-up and one header set.
    if (key === undefined) return next().then(() => tell(c, undefined, undefined));
    return keyed(c, next, key).then((replay) => tell(c, replay, key));
  };
}

/** Refuses a key that is not 1 to 255 visible ASCII characters. */
function checkKey(key: string): void {
  if (VALID_KEY.test(key)) return;
  const problem =
    key.length === 0
      ? 'is empty'
      : key.length > 255
        ? `is ${key.length} characters long`
        : `has a character outside visible ASCII at position ${[...key].findIndex((ch) => !VALID_KEY.test(ch)) + 1}`;
  throw apiError(
    400,
    ErrorCode.INVALID_HEADER,
    `the ${IDEMPOTENCY_KEY_HEADER} header ${problem}: it must be 1 to 255 visible ASCII characters (no spaces)`,
    { hint: `${IDEMPOTENCY_KEY_HEADER}: <a new UUID for each request>` },
  );
}

/** Whose key it is: the API key's tenant, or for a call without one the record's tenant. */
async function refOf(
  c: Context<AppEnv>,
  config: AppConfig,
  key: string,
): Promise<IdempotencyKeyRef | undefined> {
  if (c.get('anonymous') !== true)
    return { tenantId: c.get('auth').tenant.id, anonymous: false, key };
  const call = anonymousCallOf(config.registry, c.req.method, c.req.path, config.apiPrefix);
  const tenant = call && (await config.storage.records.tenantOf(call.kind.singular, call.id));
  return tenant ? { tenantId: tenant.id, anonymous: true, key } : undefined;
}

/** sha256 of the method, the path and query, and the body bytes as received. */
function fingerprintOf(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  const hash = createHash('sha256').update(`${c.req.method} ${url.pathname}${url.search}\n`);
  const body = c.get('body');
  if (body !== undefined) hash.update(body);
  return hash.digest('base64url');
}

/** True once `done` settles, false when `ms` pass first. */
function settledWithin(done: Promise<void>, ms: number): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void done.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The route's answer, to store: the JSON it was built from, else its body read whole. */
async function answerOf(
  res: Response,
  sent: string | Uint8Array | undefined,
  fingerprint: string,
  createdMs: number,
): Promise<IdempotentAnswer> {
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (!CONNECTION_HEADERS.has(name)) headers.push([name, value]);
  });
  const body =
    sent === undefined
      ? new Uint8Array(await res.arrayBuffer())
      : typeof sent === 'string'
        ? Buffer.from(sent)
        : sent;
  return { fingerprint, status: res.status, headers, body, createdMs };
}

/** A stored answer as a response; `replayed` adds `Idempotent-Replayed: true`. */
function responseOf(answer: IdempotentAnswer, replayed: boolean): Response {
  const headers = new Headers(
    answer.headers.map(([name, value]): [string, string] => [name, value]),
  );
  if (replayed) headers.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  // A copy as Uint8Array<ArrayBuffer>, which BodyInit takes (a Buffer from SQLite may sit
  // in a shared pool); an empty body as none, which a 204 requires.
  const body = answer.body.byteLength === 0 ? null : new Uint8Array(answer.body);
  return new Response(body, { status: answer.status, headers });
}

function reused(key: string): ApiError {
  return apiError(
    422,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    `the ${IDEMPOTENCY_KEY_HEADER} ${JSON.stringify(key)} was used in the last 24 hours for another request (method, path, query or body differ)`,
    {
      hint: `send a new ${IDEMPOTENCY_KEY_HEADER} for a new request; repeat a request byte for byte`,
    },
  );
}

function inProgress(key: string): ApiError {
  return new ApiError(
    409,
    [
      {
        error_code: ErrorCode.IDEMPOTENCY_KEY_IN_PROGRESS,
        description: `a request with this ${IDEMPOTENCY_KEY_HEADER} is still in progress; retry in ${IN_PROGRESS_RETRY_AFTER} s`,
        hint: 'wait for Retry-After seconds, then repeat the request: it gets the first answer',
      },
    ],
    'request',
    {
      'Retry-After': IN_PROGRESS_RETRY_AFTER,
      [IDEMPOTENCY_KEY_HONOURED_HEADER]: 'true',
      [IDEMPOTENCY_KEY_HEADER]: key,
    },
  );
}

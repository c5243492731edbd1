/**
 * Calls processed in the background (`?background_request=true`, as Action Network
 * documents it, or `?background_processing=true`, the spelling clients sent before):
 * the call is checked at once (a missing record still gets its 404, a bad body its 400),
 * answered with `{}` (202 Accepted, or 200 under a preset that documents so:
 * `ServingPreset.background`), and its work runs right after, in the same process.
 * Which calls take it is the preset's data (`presets/background-processing.ts`): every
 * helper call on the plain server, the operations Action Network lists under its
 * preset; any other call is done at once, as if the parameter had not been sent.
 * Nobody waits for the outcome, so a failure (an exception, an atomic 400 such as
 * tickets sold out, an action function that failed, a commit that failed) is logged
 * through the app's `logError` (stderr by default) with a reference code and the
 * `std:error` the caller would have received.
 *
 * An accepted call is not durable until processed: the `{}` says only that the call was
 * checked and queued in memory. If the process dies before the work has run and
 * committed (a crash, `kill -9`), the call is lost and the caller cannot learn so. A
 * clean shutdown waits for the work ({@link backgroundIdle}, used by `shutdown.ts`).
 *
 * The work is a detached unit (`Storage.unit(…, { detached: true })`) begun at the
 * acceptance. On SQLite its hold on commits starts then, so whatever the accepting
 * request wrote commits with the work: under an `Idempotency-Key` the stored answer and
 * the work's writes are one commit, and a crash leaves both or neither; a keyed call's
 * answer therefore leaves once the work has committed. With group commit the open batch
 * waits for the work too, one turn of the event loop. On PostgreSQL the request's
 * transaction (its stored answer) commits first and the work's right after: a crash
 * between the two leaves a key whose replay is the `{}` without the work
 * (docs/reference-server.md says so). Without a key the answer leaves at once on both.
 *
 * The pending work is kept per storage: it is writes to that database, and closing the
 * database is what must wait for it.
 */
import { DEFAULT_BACKGROUND_PARAMETER } from 'adis-sdk/server-kit';
import type { Context } from 'hono';
import { ApiError, apiError, ErrorCode, errorBody } from '../domain/errors.js';
import { type BackgroundOperation, takesBackground } from '../presets/background-processing.js';
import type { JsonObject, Storage } from '../storage/storage.js';
import type { AppConfig, AppEnv } from './env.js';
import { singleQuery } from './query.js';
import { hal } from './respond.js';

/**
 * The query parameter asking for background processing, as Action Network documents it
 * and the SDK sends it.
 */
export const BACKGROUND_PARAMETER = DEFAULT_BACKGROUND_PARAMETER;

/**
 * The spelling this server took before `background_request`, and that clients in the
 * wild send (earlier versions of the SDK and its conformance checker among them): still
 * accepted, with the same meaning, so that none of them breaks.
 */
export const LEGACY_BACKGROUND_PARAMETER = 'background_processing';

/** Every spelling taken, the documented one first. */
const SPELLINGS = [BACKGROUND_PARAMETER, LEGACY_BACKGROUND_PARAMETER] as const;

/**
 * The work of an accepted call. Throws on an atomic failure; returns the `std:error`
 * body of a failure short of one (some action functions failed), else nothing.
 */
export type BackgroundWork = () => Promise<JsonObject | undefined>;

/** The work accepted and not yet finished, per storage. */
const pending = new WeakMap<Storage, Set<Promise<void>>>();

/**
 * Whether a call is to be processed in the background: the preset takes `operation` on
 * records of `plural` in the background (else no, and the query is not even read), and
 * the call asks for it. Each spelling is `true`, `false` or absent; any other value, or
 * one spelling given twice, is 400 `INVALID_PARAMETER` naming it. With both spellings
 * the rule is "either one true": `background_request=false&background_processing=true`
 * asks. A `true` under either name is a client asking to be answered at once; a `false`
 * beside it is more likely a default its library puts in every URL than a refusal.
 */
export function wantsBackground(
  c: Context<AppEnv>,
  config: AppConfig,
  plural: string,
  operation: BackgroundOperation,
): boolean {
  if (!takesBackground(config.preset.background, plural, operation)) return false;
  // Every spelling is read, so that a bad value is refused whichever one carries it.
  return SPELLINGS.map((name) => asked(c, name)).includes(true);
}

/** One spelling's value: true, false (or absent), else a 400 naming it. */
function asked(c: Context<AppEnv>, name: string): boolean {
  const value = singleQuery(c, name);
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw apiError(
    400,
    ErrorCode.INVALID_PARAMETER,
    `${name} must be true or false, not ${JSON.stringify(value)}`,
    { properties: [name], hint: `${BACKGROUND_PARAMETER}=true` },
  );
}

function describe(error: unknown): string {
  if (error instanceof ApiError) return JSON.stringify(errorBody(error));
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Answers `{}` with the preset's status (202, or Action Network's 200) and runs `work`
 * right after the answer (on the next turn of the event loop, or when
 * `config.scheduleBackground` starts it), then waits for its writes to be committed. Commits are held from
 * this call until `work` has run (or thrown), so that the request's own writes (a stored
 * idempotent answer) commit with the work's. Call it only once the call has been
 * checked: what fails later is only logged.
 */
export function acceptInBackground(
  c: Context<AppEnv>,
  config: AppConfig,
  work: BackgroundWork,
): Response {
  const { storage } = config;
  const what = `${c.req.method} ${c.req.path}`;
  let tasks = pending.get(storage);
  if (!tasks) {
    tasks = new Set();
    pending.set(storage, tasks);
  }
  // The request's id (X-Request-Id, the access log's last column) finds the failure later.
  const reference = c.get('requestId');
  const log = (detail: string) => {
    config.logError(
      `[${new Date().toISOString()}] ${reference} background ${what} failed: ${detail}`,
    );
  };
  // A unit of its own, begun now and ended with the work. With SQLite its hold starts
  // at the acceptance: what the call's request commits (its stored answer under an
  // Idempotency-Key) commits with the work, never before it. With PostgreSQL the
  // request's answer commits first and the work in its own transaction right after.
  let mark = storage.commitMark();
  const task: Promise<void> = storage
    .unit(
      async () => {
        await new Promise<void>((resolve) => config.scheduleBackground(resolve));
        mark = storage.commitMark();
        const failure = await work();
        if (failure) log(JSON.stringify(failure));
      },
      { detached: true },
    )
    // Only a commit makes it happen: a failed one loses the writes, so say so.
    .then(() => storage.durable(mark))
    .catch((error: unknown) => log(describe(error)))
    .finally(() => {
      tasks.delete(task);
    });
  tasks.add(task);
  return hal({}, config.preset.background.status);
}

/**
 * Resolves once no accepted call on `storage` is waiting to run or to commit, including
 * calls accepted while it waits. For shutdown: close the database only after it.
 *
 * @example
 * ```ts
 * import type { RunningServer, Storage } from 'adis-server';
 * import { backgroundIdle } from './background.js';
 *
 * async function stop(running: RunningServer, storage: Storage): Promise<void> {
 *   await running.close(); // no new calls
 *   await backgroundIdle(storage);
 *   await storage.close();
 * }
 * ```
 */
export async function backgroundIdle(storage: Storage): Promise<void> {
  const tasks = pending.get(storage);
  while (tasks && tasks.size > 0) await Promise.all([...tasks]);
}

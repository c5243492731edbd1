/**
 * Answers only after the commit: every API request waits, before its answer leaves,
 * until every write that may have happened while it ran is committed (group commit
 * batches the writes of concurrent requests into one commit, on the next turn of the
 * event loop; see `storage/sqlite/commits.ts`). If that commit failed, the answer is replaced by
 * a 500 `std:error`: the writes are lost, so nothing about them may be acknowledged.
 *
 * Why every request and not only writes: with one connection, a request's reads see the
 * open batch, so an answer may show (or depend on: a DUPLICATE_IDENTIFIER, a match by
 * email) a write not yet committed. Waiting for that batch's commit before answering
 * means no client ever sees data a crash could still take away, whatever the handler
 * did and whenever it did it. A request that ran while no batch was open does not wait.
 */
import type { MiddlewareHandler } from 'hono';
import { CommitError } from '../storage/storage.js';
import type { AppConfig, AppEnv } from './env.js';
import { errorHandler } from './middleware.js';

/**
 * The middleware (registered in `app.ts` before authentication, which reads storage).
 */
export function answerAfterCommit(config: AppConfig): MiddlewareHandler<AppEnv> {
  const onError = errorHandler(config);
  return async (c, next) => {
    const mark = config.storage.commitMark();
    const appended = config.storage.webhooks.appendedCount;
    await next();
    try {
      await config.storage.durable(mark);
      // The request's webhook events are committed: delivery may send them now.
      if (config.storage.webhooks.appendedCount !== appended) {
        config.storage.webhooks.announceCommitted();
      }
    } catch (error) {
      if (!(error instanceof CommitError)) throw error;
      // Unset first: Hono would otherwise copy the lost answer's headers (Location).
      c.res = undefined;
      c.res = await onError(error, c);
    }
  };
}

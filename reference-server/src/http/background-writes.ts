/**
 * Plain writes (create, update, delete) processed in the background, for a preset whose
 * server offers `?background_request=true` on writes (`ServingPreset.background`: Action
 * Network's lists some), not only on helper calls. They are answered as helper calls
 * are (`background.ts`): `{}` once checked (202, or the preset's 200), the work right
 * after.
 *
 * "Checked" means everything the write itself would refuse: the write is rehearsed in a
 * transaction that is then rolled back, so a missing record still gets its 404 and a bad
 * body, a link to nothing or a duplicate name its 400, exactly as without the
 * parameter. The rehearsal costs a second write, only on calls that ask for it.
 */
import type { Context } from 'hono';
import type { Storage } from '../storage/storage.js';
import { acceptInBackground } from './background.js';
import type { AppConfig, AppEnv } from './env.js';

/** Thrown inside the rehearsal's transaction to roll it back; never escapes. */
class RolledBack extends Error {}

/**
 * Runs `write` in a transaction and rolls it back: its refusals (`ApiError`s) are thrown
 * as they would be, and nothing is kept.
 */
export async function rehearse(storage: Storage, write: () => Promise<unknown>): Promise<void> {
  const rollBack = new RolledBack('rehearsal');
  try {
    await storage.transaction(async () => {
      await write();
      throw rollBack;
    });
  } catch (error) {
    if (error !== rollBack) throw error;
  }
}

/**
 * Answers a write processed in the background: rehearses `write` (its 404 or 400 is the
 * answer), then answers `{}` and does it right after (see `acceptInBackground`:
 * what fails then is logged).
 */
export async function writeInBackground(
  c: Context<AppEnv>,
  config: AppConfig,
  write: () => Promise<unknown>,
): Promise<Response> {
  await rehearse(config.storage, write);
  return acceptInBackground(c, config, async () => {
    await write();
    return undefined;
  });
}

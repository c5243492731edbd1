/**
 * The message helpers: `POST`/`DELETE` on a message's `send` and `schedule` paths.
 */
import type { Hono } from 'hono';
import type { AppConfig, AppEnv } from '../env.js';

/**
 * Registers the message helper routes (before the generic record routes).
 *
 * @example
 * ```ts
 * registerMessageHelpers(app, config);
 * ```
 */
export function registerMessageHelpers(_app: Hono<AppEnv>, _config: AppConfig): void {
  // Filled in by slice 3.
}

/**
 * The record helpers: `POST <record URL>/<helper path>` for every helper a kind
 * declares (record signature, outreach, attendance, donation, canvass, submission).
 */
import type { Hono } from 'hono';
import type { AppConfig, AppEnv } from '../env.js';

/**
 * Registers the record helper routes (before the generic record routes, whose
 * sub-collection route would otherwise take the helper path).
 *
 * @example
 * ```ts
 * registerHelperRoutes(app, config);
 * ```
 */
export function registerHelperRoutes(_app: Hono<AppEnv>, _config: AppConfig): void {
  // Filled in by slice 3.
}

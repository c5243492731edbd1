/**
 * The person signup helper: `POST` to the href of the entry point's
 * `std:person_signup_helper` link. Keyed callers only. Takes `?background_processing=true`
 * like the record helpers (`helpers.ts`).
 */
import type { Hono } from 'hono';
import { applyPersonSignup, checkPersonSignup } from '../../domain/person-signup.js';
import { acceptInBackground, wantsBackground } from '../background.js';
import { readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { methodNotAllowed } from '../middleware.js';
import { helperContext, helperResponse, incompleteError } from './helpers.js';

/**
 * Registers the helper route (before the generic record routes, whose `:id` would
 * otherwise take `person_signup_helper`).
 *
 * @example
 * ```ts
 * registerPersonSignup(app, config);
 * ```
 */
export function registerPersonSignup(app: Hono<AppEnv>, config: AppConfig): void {
  const path = `${config.apiPrefix}/${config.preset.personSignupPath}`;
  app.post(path, async (c) => {
    const background = wantsBackground(c);
    const { control, rest } = takeControl(await readJsonObject(c));
    const context = helperContext(c, config, c.get('auth').tenant, false);
    const call = checkPersonSignup(rest);
    if (background) {
      return acceptInBackground(c, config, () => incompleteError(applyPersonSignup(context, call)));
    }
    return helperResponse(c, config, context, applyPersonSignup(context, call), control);
  });
  app.all(path, methodNotAllowed(['POST']));
}

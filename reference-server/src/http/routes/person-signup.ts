/**
 * The person signup helper: `POST` to the href of the entry point's
 * `std:person_signup_helper` link (`people/person_signup_helper` on the plain server).
 * Keyed callers only. Takes `?background_request=true` like the record helpers
 * (`helpers.ts`), listed as a helper of `people` (`ServingPreset.background`).
 *
 * A preset may put it at the people collection (`personSignupPath: 'people'`, Action
 * Network's upsert): a POST there is then the helper, not the specification's create,
 * and a body without a `person` member is read as the person itself (`{ given_name,
 * email_addresses }` upserts that person), since clients written for such servers post
 * either.
 */
import type { Hono } from 'hono';
import { applyPersonSignup, checkPersonSignup } from '../../domain/person-signup.js';
import type { JsonObject } from '../../storage/storage.js';
import { acceptInBackground, wantsBackground } from '../background.js';
import { readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { methodNotAllowed } from '../middleware.js';
import { helperContext, helperResponse, incompleteError } from './helpers.js';

/**
 * A signup body as the helper reads it: as sent, or, at a collection's address, a bare
 * person wrapped as the helper's `person`.
 */
function signupBody(body: JsonObject, atCollection: boolean): JsonObject {
  return atCollection && body.person === undefined ? { person: body } : body;
}

/**
 * Registers the helper route. It comes before the generic record routes: their `:id`
 * would otherwise take `person_signup_helper`, and their collection POST the people
 * collection where a preset puts the helper. There the other methods stay the
 * collection's (GET lists people), so only the helper's own path answers 405 to them.
 */
export function registerPersonSignup(app: Hono<AppEnv>, config: AppConfig): void {
  const { personSignupPath, vocabulary } = config.preset;
  const path = `${config.apiPrefix}/${personSignupPath}`;
  const atCollection = config.registry.byPlural(personSignupPath) !== undefined;
  // Listed for the background under the kind it writes: people.
  const people = config.registry.bySingular('person')?.plural ?? 'people';
  app.post(path, async (c) => {
    const background = wantsBackground(c, config, people, 'helper');
    const { control, rest } = takeControl(await readJsonObject(c));
    const context = helperContext(c, config, c.get('auth').tenant, false);
    const call = checkPersonSignup(signupBody(rest, atCollection), vocabulary);
    if (background) {
      return acceptInBackground(c, config, async () =>
        incompleteError(await applyPersonSignup(context, call)),
      );
    }
    // One unit: the signup and its action functions commit together (see helpers.ts).
    const outcome = await config.storage.unit(() => applyPersonSignup(context, call));
    return helperResponse(c, config, context, outcome, control);
  });
  if (!atCollection) app.all(path, methodNotAllowed(['POST']));
}

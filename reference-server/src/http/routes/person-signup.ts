/**
 * The person signup helper: `POST` to the href of the entry point's
 * `std:person_signup_helper` link.
 */
import type { Hono } from 'hono';
import { nonAtomicErrorBody } from '../../domain/errors.js';
import { personKind } from '../../domain/person.js';
import { personSignup } from '../../domain/person-signup.js';
import { readJsonObject, takeControl } from '../body.js';
import type { AppConfig, AppEnv } from '../env.js';
import { API_PREFIX } from '../links.js';
import { methodNotAllowed } from '../middleware.js';
import { minimalRecord, renderRecord } from '../render.js';
import { hal } from '../respond.js';

/** Path of the helper below the API base. */
export const PERSON_SIGNUP_PATH = 'people/person_signup_helper';

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
  const path = `${API_PREFIX}/${PERSON_SIGNUP_PATH}`;
  app.post(path, async (c) => {
    const { control, rest } = takeControl(await readJsonObject(c));
    const result = personSignup(config.records, c.get('auth').tenant, rest);
    const urls = c.get('urls');
    const person = control.returnResponse
      ? renderRecord(urls, config.registry, personKind, result.record, undefined, true)
      : minimalRecord(urls, personKind, result.record);
    const status = result.created ? 201 : 200;
    const location = { Location: urls.record(personKind.plural, result.record.id) };
    if (result.unsupported.length === 0) return hal(person, status, result.created ? location : {});
    // Non-atomic: the person was written, the action functions were not.
    return hal(
      {
        ...nonAtomicErrorBody([
          { resource: 'std:person', response_code: status },
          ...result.unsupported,
        ]),
        'std:person': person,
      },
      400,
      location,
    );
  });
  app.all(path, methodNotAllowed(['POST']));
}

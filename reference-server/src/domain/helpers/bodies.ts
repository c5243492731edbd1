/**
 * The helper bodies the server checks calls with: the SDK's, on the side of the server's
 * vocabulary (`strict`: the specification's; `extended`: with `remove_tags` and the
 * vocabulary a real server documents besides, under its preset).
 */
import type { HELPER_BODIES } from 'adis-sdk/schema';
import { extendedHelperBodies, strictHelperBodies } from 'adis-sdk/server-kit';
import type { Vocabulary } from '../vocabulary.js';

/**
 * The helper bodies as the server checks them under `vocabulary`. Each set is built on
 * first use.
 *
 * @example
 * ```ts
 * import { helperBodiesFor } from './bodies.js';
 *
 * helperBodiesFor('extended').personSignup.parse({ person: { given_name: 'Ana' }, remove_tags: ['lapsed'] });
 * ```
 */
export function helperBodiesFor(vocabulary: Vocabulary): typeof HELPER_BODIES {
  return vocabulary === 'extended' ? extendedHelperBodies() : strictHelperBodies();
}

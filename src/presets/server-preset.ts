import type { ClientOptions } from '../navigator/client.js';

/**
 * What a kind of server needs of {@link connect} that it cannot find out by itself: its
 * key header, its curie prefix, a request rate it tolerates, its name for background
 * processing (`backgroundParameter`, where it is not `background_request`), and the like. A preset is
 * plain data, a part of the connect options: spread it first and put your own options
 * after it, so that yours win (`{ ...actionNetwork, apiKey, rateLimit: 2 }`).
 *
 * No key, URL, fetch or hooks belong in a preset: those are the caller's. A server's own
 * kinds (collections the specification does not have) go in `kinds`; declare the preset
 * `as const satisfies ServerPreset` so that `connect` types their collections.
 *
 * @example
 * ```ts
 * import { connect, type ServerPreset } from 'adis-sdk';
 * import { defineKind, optional } from 'adis-sdk/schema';
 * import * as z from 'zod/mini';
 *
 * const apiKey = process.env.ACME_KEY;
 * const acmeCrm: ServerPreset = { apiKeyHeader: 'X-Acme-Key', curiePrefix: 'acme', rateLimit: 8 };
 * const client = await connect('https://api.acme.example/osdi/', { ...acmeCrm, apiKey });
 *
 * // With its own kinds: `client.surveys` is typed.
 * const surveyKind = defineKind({
 *   singular: 'survey',
 *   plural: 'surveys',
 *   description: 'A survey',
 *   shape: () => ({ title: optional(z.string()) }),
 * });
 * const acmeWithSurveys = { ...acmeCrm, kinds: [surveyKind] } as const satisfies ServerPreset;
 * const typed = await connect('https://api.acme.example/osdi/', { ...acmeWithSurveys, apiKey });
 * for await (const survey of typed.surveys) console.log(survey.data.title);
 * ```
 */
export type ServerPreset = Readonly<
  Partial<
    Pick<
      ClientOptions,
      | 'apiKeyHeader'
      | 'curiePrefix'
      | 'rateLimit'
      | 'retry'
      | 'timeout'
      | 'idleTimeout'
      | 'headers'
      | 'validate'
      | 'idempotencyKeys'
      | 'backgroundParameter'
    >
  >
> &
  Readonly<Pick<ClientOptions, 'kinds'>>;

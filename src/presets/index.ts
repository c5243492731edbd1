// Server presets: connect options for servers in the wild, declared once as data. The
// main entry re-exports them; a bundle that imports `connect` alone leaves them out.
import { actionNetwork } from './action-network.js';
import type { ServerPreset } from './server-preset.js';

export * from './action-network/index.js';
export { actionNetwork } from './action-network.js';
export type { ServerPreset } from './server-preset.js';

/**
 * Every preset by the name the command line knows it by (`adis-export --server
 * action-network`). Add a server here and to the docs' table (servers-in-the-wild.md).
 *
 * @example
 * ```ts
 * import { connect, SERVER_PRESETS } from 'adis-sdk';
 *
 * const preset = SERVER_PRESETS['action-network'];
 * const client = await connect('https://actionnetwork.org/api/v2/', {
 *   ...preset,
 *   apiKey: process.env.ACTION_NETWORK_KEY,
 * });
 * Object.keys(SERVER_PRESETS); // ['action-network']
 * ```
 */
export const SERVER_PRESETS: Readonly<Record<string, ServerPreset>> = {
  'action-network': actionNetwork,
};

/**
 * The preset of that name in {@link SERVER_PRESETS}, or undefined: only the table's own
 * names count (`toString` is not a server).
 *
 * @example
 * ```ts
 * import { presetNamed } from 'adis-sdk';
 *
 * presetNamed('action-network'); // { apiKeyHeader: 'OSDI-API-Token', … }
 * presetNamed('toString'); // undefined
 * ```
 */
export function presetNamed(name: string): ServerPreset | undefined {
  return Object.hasOwn(SERVER_PRESETS, name) ? SERVER_PRESETS[name] : undefined;
}

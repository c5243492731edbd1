import { ACTION_NETWORK_PRESET } from './action-network.js';
import type { ServerPreset } from './server-preset.js';
import { SPECIFICATION_PRESET } from './specification.js';

export { ACTION_NETWORK_PRESET } from './action-network.js';
export type {
  PresetEmbeds,
  PresetMetadataList,
  PresetMetadataSource,
  PresetSeed,
  PresetSeedOptions,
  ServerPreset,
  Vocabulary,
} from './server-preset.js';
export { SPECIFICATION_PRESET } from './specification.js';

/**
 * The presets by command-line name (`--preset action-network`).
 *
 * @example
 * ```ts
 * SERVER_PRESETS['action-network'] === ACTION_NETWORK_PRESET; // true
 * ```
 */
export const SERVER_PRESETS: Readonly<Record<string, ServerPreset>> = {
  specification: SPECIFICATION_PRESET,
  'action-network': ACTION_NETWORK_PRESET,
};

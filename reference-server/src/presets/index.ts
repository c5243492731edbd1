import { ACTION_NETWORK_PRESET } from './action-network.js';
import type { ServingPreset } from './serving-preset.js';
import { SPECIFICATION_PRESET } from './specification.js';

export { ACTION_NETWORK_PRESET } from './action-network.js';
export type {
  DateTimeStyle,
  PresetEmbeds,
  PresetMetadataList,
  PresetMetadataSource,
  PresetSeed,
  PresetSeedOptions,
  ServingPreset,
  Vocabulary,
} from './serving-preset.js';
export { SPECIFICATION_PRESET } from './specification.js';

/**
 * The presets by command-line name (`--preset action-network`).
 *
 * @example
 * ```ts
 * import { ACTION_NETWORK_PRESET, SERVING_PRESETS } from 'adis-server';
 *
 * SERVING_PRESETS['action-network'] === ACTION_NETWORK_PRESET; // true
 * ```
 */
export const SERVING_PRESETS: Readonly<Record<string, ServingPreset>> = {
  specification: SPECIFICATION_PRESET,
  'action-network': ACTION_NETWORK_PRESET,
};

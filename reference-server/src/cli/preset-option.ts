/**
 * `--preset`: which real server's documented API the server answers as.
 */
import { SERVING_PRESETS, type ServingPreset } from '../presets/index.js';
import { UsageError } from './usage-error.js';

/**
 * The preset `--preset` names, the specification's without the flag; a usage error
 * listing the known names otherwise.
 *
 * @example
 * ```ts
 * import { presetOption } from './preset-option.js';
 *
 * presetOption('action-network').apiKeyHeader; // 'OSDI-API-Token'
 * presetOption(undefined).name; // 'specification'
 * ```
 */
export function presetOption(raw: string | undefined): ServingPreset {
  const name = raw ?? 'specification';
  const preset = SERVING_PRESETS[name];
  if (!preset) {
    throw new UsageError(
      `--preset must be one of ${Object.keys(SERVING_PRESETS).join(', ')}, got ${JSON.stringify(name)}`,
    );
  }
  return preset;
}

/**
 * The start-up line that says how the server answers, when the command line changed it.
 */
import type { ServerSettings } from './server-settings.js';

/**
 * `Preset action-network. Key header OSDI-API-Token, curie prefix osdi, at most 4 calls
 * a second per key`: printed when `--preset`, `--key-header`, `--curie-prefix` or
 * `--key-rate` is given, so the operator sees what clients must send (a default start
 * prints nothing: the specification's values are what the docs say). The flags win over
 * the preset's values, as in the app.
 *
 * @example
 * ```ts
 * import { SPECIFICATION_PRESET } from 'adis-server';
 * import { answeringLine } from './startup-line.js';
 *
 * answeringLine({ presetGiven: false, preset: SPECIFICATION_PRESET, apiKeyHeader: undefined, curiePrefix: 'osdi', keyRate: undefined });
 * // 'Key header STD-API-Token, curie prefix osdi, no limit per key'
 * ```
 */
export function answeringLine(
  settings: Pick<
    ServerSettings,
    'presetGiven' | 'preset' | 'apiKeyHeader' | 'curiePrefix' | 'keyRate'
  >,
): string | undefined {
  const { presetGiven, preset, apiKeyHeader, curiePrefix, keyRate } = settings;
  if (!presetGiven && !apiKeyHeader && !curiePrefix && !keyRate) return undefined;
  const rate = keyRate ?? preset.keyRateLimit;
  return `${presetGiven ? `Preset ${preset.name}. ` : ''}Key header ${apiKeyHeader ?? preset.apiKeyHeader}, curie prefix ${curiePrefix ?? preset.curiePrefix}, ${
    rate ? `at most ${rate} calls a second per key` : 'no limit per key'
  }`;
}

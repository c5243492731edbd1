/**
 * How the sync's tests connect the SDK to a server of the test world: the connect
 * preset of the server's kind (the specification's defaults, or `actionNetwork`), with
 * the client's own rate limit off. SDK only, no reference server: the sync process
 * (sync-process.ts, a plain `node` child) imports it too.
 */
import { actionNetwork, type ClientOptions } from '../../src/index.js';

/** The kinds of server the world runs: the reference server's two presets. */
export type PresetName = 'specification' | 'action-network';

/**
 * The connect options for a server of `preset` with `apiKey`: the SDK's preset for it,
 * without its client rate (Action Network's 3.5 requests a second would make a copy of
 * thousands of records take many minutes; the world's servers turn their key rate off
 * too), and `overrides` last.
 *
 * @example
 * ```ts
 * const client = await connect(entryPoint, clientOptionsFor('action-network', 'source-write-key'));
 * ```
 */
export function clientOptionsFor(
  preset: PresetName,
  apiKey: string,
  overrides: ClientOptions = {},
): ClientOptions {
  if (preset === 'specification') return { apiKey, ...overrides };
  // The preset without its rate: `rateLimit` undefined is no client limit at all.
  const { rateLimit: _rate, ...withoutRate } = actionNetwork;
  return { ...withoutRate, apiKey, ...overrides };
}

/**
 * The kind of server an entry point of the world belongs to, by its path: Action
 * Network's preset serves `/api/v2/`, the specification's `/api/v1/`.
 *
 * @example
 * ```ts
 * presetOfEntryPoint('http://127.0.0.1:4000/api/v2/'); // 'action-network'
 * ```
 */
export function presetOfEntryPoint(entryPoint: string): PresetName {
  return new URL(entryPoint).pathname.startsWith('/api/v2') ? 'action-network' : 'specification';
}

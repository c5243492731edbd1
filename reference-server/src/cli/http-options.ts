/**
 * The flags that shape the server's HTTP answers (`--public-url`, `--cors-origin`,
 * `--key-header`, `--curie-prefix`, `--key-rate`): the text as given (`undefined`
 * without the flag) in, the value for `createApp` out, or a {@link UsageError}.
 * Where the library checks the same option, its check is used, so the flag and the
 * option of `createApp` refuse the same values with the same words.
 */
import { httpUrlOrUndefined } from 'adis-sdk/server-kit';
import { checkCorsOrigins } from '../http/cors.js';
import { checkKeyRate } from '../http/key-rate-limit.js';
import { checkApiKeyHeader } from '../http/middleware.js';
import { checkCuriePrefix } from '../http/relations.js';
import { UsageError } from './usage-error.js';

/**
 * An option checked by the library's own check, whose RangeError becomes a usage error
 * (exit code 2): its message after the flag, unless the message names the flag itself.
 *
 * @example
 * ```ts
 * import { checkCuriePrefix } from '../http/relations.js';
 * import { checkedOption } from './http-options.js';
 *
 * checkedOption('curie-prefix', 'osdi', checkCuriePrefix); // 'osdi'
 * checkedOption('curie-prefix', undefined, checkCuriePrefix); // undefined
 * ```
 */
export function checkedOption<T>(
  name: string,
  raw: string | undefined,
  check: (value: string) => T,
): T | undefined {
  if (raw === undefined) return undefined;
  try {
    return check(raw);
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(message.startsWith(`--${name} `) ? message : `--${name}: ${message}`);
  }
}

/**
 * `--key-header`: the header that carries the API key, checked by `checkApiKeyHeader`.
 */
export function keyHeaderOption(raw: string | undefined): string | undefined {
  return checkedOption('key-header', raw, checkApiKeyHeader);
}

/**
 * `--curie-prefix`: the prefix of the relations the server writes, checked by
 * `checkCuriePrefix`.
 */
export function curiePrefixOption(raw: string | undefined): string | undefined {
  return checkedOption('curie-prefix', raw, checkCuriePrefix);
}

/**
 * `--key-rate`: calls per key in any rolling second, from 1; `undefined` without the
 * flag (no limit). `checkKeyRate` is told the flag's name, so its message names it.
 */
export function keyRateOption(raw: string | undefined): number | undefined {
  return checkedOption('key-rate', raw, (value) =>
    checkKeyRate(value, { name: '--key-rate', unlimited: 'leave it out' }),
  );
}

/**
 * `--cors-origin` values: `*` (also without the flag), or origins (comma-separated,
 * flag repeatable), each checked as `createApp` checks its `corsOrigins`.
 *
 * @example
 * ```ts
 * import { corsOriginsOption } from './http-options.js';
 *
 * corsOriginsOption(['https://a.example, https://b.example']); // ['https://a.example', 'https://b.example']
 * corsOriginsOption(undefined); // '*'
 * ```
 */
export function corsOriginsOption(raw: readonly string[] | undefined): string[] | '*' {
  if (raw === undefined) return '*';
  const origins = raw.flatMap((value) => value.split(',')).map((value) => value.trim());
  if (origins.includes('*')) {
    if (origins.length > 1) throw new UsageError('--cors-origin * cannot be combined with origins');
    return '*';
  }
  try {
    checkCorsOrigins(origins);
  } catch (error) {
    throw new UsageError(`--cors-origin: ${(error as Error).message}`);
  }
  return origins;
}

/**
 * `--public-url`: an absolute http(s) URL, the root of the links the server writes;
 * `undefined` without the flag (links then follow each request's origin).
 *
 * @example
 * ```ts
 * import { publicUrlOption } from './http-options.js';
 *
 * publicUrlOption('https://api.example.org'); // 'https://api.example.org'
 * publicUrlOption('api.example.org'); // UsageError: --public-url must be an absolute http(s) URL
 * ```
 */
export function publicUrlOption(raw: string | undefined): string | undefined {
  if (raw !== undefined && !httpUrlOrUndefined(raw)) {
    throw new UsageError('--public-url must be an absolute http(s) URL');
  }
  return raw;
}

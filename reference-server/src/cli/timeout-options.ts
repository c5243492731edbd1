/**
 * `--headers-timeout`, `--request-timeout` and `--keep-alive-timeout`: seconds on the
 * command line, milliseconds for the server (`ServerTimeouts`).
 */
import { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from '../server-timeouts.js';
import { UsageError } from './usage-error.js';

/**
 * A timeout flag: seconds above 0 (fractions allowed), at most an hour; in whole
 * milliseconds, at least 1, as the server takes them (`0.0001` must not round to 0).
 * `undefined` without the flag.
 *
 * @example
 * ```ts
 * import { secondsOption } from './timeout-options.js';
 *
 * secondsOption('headers-timeout', '2.5'); // 2500
 * ```
 */
export function secondsOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(
      `--${name} must be a number of seconds above 0 and at most 3600, got ${JSON.stringify(raw)}`,
    );
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/**
 * The server's timeouts from their flags, over the defaults. The headers' must fit in the
 * request's (Node requires it): the message says when the request's is its default, since
 * then the operator gave only one of the two.
 *
 * @example
 * ```ts
 * import { timeoutsOption } from './timeout-options.js';
 *
 * timeoutsOption({ 'headers-timeout': '2' }); // { headersMs: 2000, requestMs: 30000, keepAliveMs: 5000 }
 * ```
 */
export function timeoutsOption(values: {
  'headers-timeout'?: string;
  'request-timeout'?: string;
  'keep-alive-timeout'?: string;
}): ServerTimeouts {
  const timeouts = {
    headersMs:
      secondsOption('headers-timeout', values['headers-timeout']) ??
      DEFAULT_SERVER_TIMEOUTS.headersMs,
    requestMs:
      secondsOption('request-timeout', values['request-timeout']) ??
      DEFAULT_SERVER_TIMEOUTS.requestMs,
    keepAliveMs:
      secondsOption('keep-alive-timeout', values['keep-alive-timeout']) ??
      DEFAULT_SERVER_TIMEOUTS.keepAliveMs,
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new UsageError(
      `--headers-timeout (${timeouts.headersMs / 1000} s) must not exceed --request-timeout (${timeouts.requestMs / 1000} s${values['request-timeout'] === undefined ? ', its default' : ''})`,
    );
  }
  return timeouts;
}

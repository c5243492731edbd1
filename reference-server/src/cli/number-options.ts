/**
 * The flags that take a number (`--port`, `--pool-size`, `--seed`, `--message-send-rate`,
 * `--webhook-retry-hours`, `--webhook-subscription-limit`, `--webhook-concurrency`): the
 * text as given (`undefined` without the flag) in, the number the server runs with out,
 * or a {@link UsageError} naming the flag, the range and what was given. Digits only:
 * `1e3`, `0x10` and `+5` are refused rather than read as something the operator may not
 * have meant.
 */
import { UsageError } from './usage-error.js';

/**
 * A whole number from 0 to `max`, or `fallback` without the flag.
 *
 * @example
 * ```ts
 * import { integerOption } from './number-options.js';
 *
 * integerOption('port', '8080', 8000, 65535); // 8080
 * integerOption('port', '-1', 8000, 65535); // UsageError: --port must be an integer from 0 to 65535, got "-1"
 * ```
 */
export function integerOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw new UsageError(
      `--${name} must be an integer from 0 to ${max}, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

/**
 * A whole number from 1 to `max`, or `fallback` without the flag: for counts where 0
 * would stop the server working (no database connection, a send that never ends). The
 * range is checked first, so `-1` gets the range's message and `0` its own.
 *
 * @example
 * ```ts
 * import { positiveIntegerOption } from './number-options.js';
 *
 * positiveIntegerOption('pool-size', '0', 10, 1000); // UsageError: --pool-size must be at least 1
 * ```
 */
export function positiveIntegerOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  max: number,
): number {
  const value = integerOption(name, raw, fallback, max);
  if (value === 0) throw new UsageError(`--${name} must be at least 1`);
  return value;
}

/**
 * `--webhook-retry-hours`: a positive number of hours (fractions allowed), at most 30
 * days; 24 without the flag.
 *
 * @example
 * ```ts
 * import { webhookRetryHoursOption } from './number-options.js';
 *
 * webhookRetryHoursOption('0.5'); // 0.5
 * webhookRetryHoursOption(undefined); // 24
 * ```
 */
export function webhookRetryHoursOption(raw: string | undefined): number {
  if (raw === undefined) return 24;
  const hours = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || hours <= 0 || hours > 720) {
    throw new UsageError(
      `--webhook-retry-hours must be a number of hours above 0 and at most 720, got ${JSON.stringify(raw)}`,
    );
  }
  return hours;
}

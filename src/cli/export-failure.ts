/**
 * `adis-export`'s failure messages: what went wrong, said in terms of the request.
 */
import type { ExportProgress } from '../export/run-export.js';
import {
  DEFAULT_MAX_RETRY_AFTER,
  isHTTPError,
  isInvalidLinkError,
  isLinkNotFoundError,
  isNetworkError,
  isRateLimitError,
  isResponseFormatError,
  isTimeoutError,
} from '../index.js';
import { requestedWait } from '../wire/retry-after.js';
import type { ExportRequest } from './export-arguments.js';
import { waitText } from './wait-notice.js';

/** What an interrupted export says: how far it got, and how to continue when it can. */
export function interruptedMessage(
  last: ExportProgress,
  label: string,
  resumable: boolean,
): string {
  const done = `Interrupted after ${count(last.records)} ${label}.`;
  if (!resumable) return `\n${done}\n`;
  return `\n${done} Run the same command with --resume to continue where it stopped.\n`;
}

/** The one-line message for a failure, naming what to check. */
export function describeFailure(error: unknown, request: ExportRequest): string {
  if (isHTTPError(error)) {
    if (error.status === 401 || error.status === 403) {
      const given = request.key === undefined ? 'no API key was given' : 'check the key';
      return `${error.method} ${error.url} was refused (${error.status} ${error.statusText}): ${given} (--key or ADIS_KEY${request.keyHeader || request.server ? '' : '; --server or --key-header if the server reads another header'})`;
    }
    if (error.status === 429) {
      // Still refused after the retries: name the last wait asked for, if any.
      const wait = requestedWait(error.headers);
      const asked =
        wait.kind === 'wait' ? `; the server asks to wait ${waitText(wait.ms, Date.now())}` : '';
      return `${error.message}${asked}: run the command again later, with a lower --rate`;
    }
    if (error.status === 404) {
      return `${error.method} ${error.url} answered 404 Not Found: is --url the API entry point?`;
    }
    return error.message;
  }
  if (isNetworkError(error)) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `cannot reach ${error.url}${cause}; check --url and the network`;
  }
  if (isTimeoutError(error)) return `${error.message}; the server is slow or unreachable`;
  if (isRateLimitError(error)) {
    return (
      `rate limited: ${error.method} ${error.url} answered ${error.status} ${error.statusText}, ` +
      `and the server asks to wait ${waitText(error.retryAfter, Date.now())}, longer than the ` +
      `${DEFAULT_MAX_RETRY_AFTER / 1000} s adis-export waits by itself: run the command again after that`
    );
  }
  if (isResponseFormatError(error) && isEntryPoint(error.url, request.url)) {
    return `${error.url} is not an ADIS entry point (${error.reason ?? 'not HAL+JSON'}): check --url`;
  }
  if (isInvalidLinkError(error)) return `the server sent an unusable address: ${error.message}`;
  if (isLinkNotFoundError(error)) {
    return `the server links no ${error.rel} from its entry point (it links: ${error.available.join(', ') || 'nothing'})`;
  }
  return error instanceof Error ? error.message : String(error);
}

// Whether a failing URL is the entry point the command was given (not a page or record).
function isEntryPoint(url: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  try {
    return new URL(given).toString() === url;
  } catch {
    return false;
  }
}

const integer = new Intl.NumberFormat('en-US');

/**
 * A count as the messages write it.
 *
 * @example
 * ```ts
 * import { count } from './export-failure.js';
 *
 * count(12500); // '12,500'
 * ```
 */
export function count(n: number): string {
  return integer.format(n);
}

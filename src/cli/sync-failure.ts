/**
 * `adis-sync`'s failure messages: what went wrong, on which server, and what to do.
 */
import {
  DEFAULT_MAX_RETRY_AFTER,
  isAdisError,
  isHTTPError,
  isLinkNotFoundError,
  isNetworkError,
  isRateLimitError,
  isResponseFormatError,
  isTimeoutError,
} from '../index.js';
import { SyncConnectError, sideName } from './sync-connect.js';
import { KEY_SOURCES, type SyncSide } from './sync-keys.js';
import { waitText } from './wait-notice.js';

/** The pair of servers, and what the command knows of each side. */
export interface SyncPair {
  from: string;
  to: string;
  /** Whether a key was given, by side. */
  keys: Readonly<Record<SyncSide, boolean>>;
  /** The preset each side was connected with, if any. */
  presets: Readonly<Record<SyncSide, string | undefined>>;
}

/**
 * Which side an address is on: the entry point it shares the most of (origin, then
 * path), or undefined when it is on neither's origin.
 */
export function sideOf(
  url: string | undefined,
  pair: Pick<SyncPair, 'from' | 'to'>,
): SyncSide | undefined {
  if (url === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const score = (entry: string): number => {
    const base = new URL(entry);
    if (base.origin !== target.origin) return -1;
    let common = 0;
    while (common < base.pathname.length && base.pathname[common] === target.pathname[common]) {
      common += 1;
    }
    return common;
  };
  const from = score(pair.from);
  const to = score(pair.to);
  if (from < 0 && to < 0) return undefined;
  return from >= to ? 'from' : 'to';
}

/**
 * The one-line message for a failure, naming the server it came from (`the target (to)
 * https://…`) and what to do.
 */
export function describeSyncFailure(error: unknown, pair: SyncPair): string {
  if (error instanceof SyncConnectError) return error.message;
  const side = sideOf(urlOf(error), pair);
  const where = side === undefined ? 'a server' : sideName(side, pair[side]);
  if (isHTTPError(error)) {
    if (error.status === 401 || error.status === 403) {
      const source = side === undefined ? undefined : KEY_SOURCES[side];
      const fix =
        source === undefined
          ? 'check the keys'
          : pair.keys[side as SyncSide]
            ? `check the key in ${source.flag} or ${source.env}`
            : `no key was given: put it in a file and give ${source.flag}, or set ${source.env}`;
      const preset =
        side !== undefined && pair.presets[side] === undefined
          ? `; if the server reads the key from another header, name it with --${side}-preset`
          : '';
      return `${where} refused ${error.method} ${error.url} (${error.status} ${error.statusText}): ${fix}${preset}`;
    }
    if (error.status === 429) {
      return `${where} still answers 429 Too Many Requests after the retries (${error.method} ${error.url}): run the same command again later, with a lower --rate`;
    }
    if (error.status === 404 && side !== undefined && sameUrl(error.url, pair[side])) {
      return `${where} answered 404 Not Found: is it the API entry point?`;
    }
    return `${where}: ${error.message}`;
  }
  if (isNetworkError(error)) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `cannot reach ${where} (${error.method} ${error.url}${cause}); check the URL and the network, then run the same command again`;
  }
  if (isTimeoutError(error)) {
    return `${where}: ${error.message}; the server is slow or unreachable (a longer --timeout may help), then run the same command again`;
  }
  if (isRateLimitError(error)) {
    return (
      `${where} asks to wait ${waitText(error.retryAfter, Date.now())} (${error.method} ${error.url}), ` +
      `longer than the ${DEFAULT_MAX_RETRY_AFTER / 1000} s adis-sync waits by itself: run the same command again after that`
    );
  }
  if (isResponseFormatError(error) && side !== undefined && sameUrl(error.url, pair[side])) {
    return `${where} is not an ADIS entry point (${error.reason ?? 'not HAL+JSON'}): check the URL`;
  }
  if (isLinkNotFoundError(error)) {
    return `${where}: ${error.message}`;
  }
  if (isFileError(error)) {
    const file = error.path === undefined ? 'the state' : `the state file ${error.path}`;
    return `cannot use ${file}: ${error.message}; check --state, the folder's permissions and the disk`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return isAdisError(error) && side !== undefined ? `${where}: ${message}` : message;
}

/**
 * Whether a failure is none of those the command knows (the SDK's errors, a side that
 * cannot be connected, a file that cannot be used): a fault of the command itself, whose
 * stack is worth printing for a report.
 */
export function isUnexpectedFailure(error: unknown): boolean {
  return !(isAdisError(error) || error instanceof SyncConnectError || isFileError(error));
}

function isFileError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    typeof (error as NodeJS.ErrnoException).syscall === 'string'
  );
}

function urlOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { url, documentUrl } = error as { url?: unknown; documentUrl?: unknown };
  if (typeof url === 'string') return url;
  return typeof documentUrl === 'string' ? documentUrl : undefined;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

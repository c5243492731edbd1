/**
 * Request ids and the access log.
 *
 * Every request gets an id, sent back as `X-Request-Id`, written on its access log line,
 * and given as the `reference_code` of a 500: a client quoting it points the operator
 * at the request's log line and at the stack trace.
 *
 * An `X-Request-Id` the client sends is kept when it is sane (1 to 128 characters of
 * `A-Z a-z 0-9 _ - . : =`), so that a proxy or a client that already tags its requests
 * finds the same id in this server's log. It is not trusted for anything else: two
 * requests may then share an id, which only makes a log search return both. Anything
 * else sent there is ignored and a new id made, so that a log line never holds text a
 * client chose beyond those characters.
 */
import { randomFillSync } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppConfig, AppEnv } from './env.js';
import { requestHeader } from './request-header.js';

/**
 * The header carrying the request id, both ways.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** What a client's request id may be to be kept. */
const SANE_REQUEST_ID = /^[\w.:=-]{1,128}$/;

/** Random bytes drawn 4 KiB at a time: one `randomBytes` call per id cost 25 times more. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

/**
 * A new request id: 16 hex digits (64 random bits), unique in practice.
 */
export function newRequestId(): string {
  if (poolAt + 8 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 8;
  return pool.toString('hex', poolAt - 8, poolAt);
}

/**
 * The id of a request: the one the client sent when it is sane, else a new one.
 *
 * @example
 * ```ts
 * import { requestIdFor } from './access-log.js';
 *
 * requestIdFor('checkout-42'); // 'checkout-42'
 * requestIdFor('two words'); // a new id
 * ```
 */
export function requestIdFor(sent: string | undefined): string {
  return sent !== undefined && SANE_REQUEST_ID.test(sent) ? sent : newRequestId();
}

/**
 * What one access log line says.
 */
export interface AccessEntry {
  /** When the request arrived (ms since the epoch). */
  at: number;
  method: string;
  /** The path as the client sent it (percent-encoded), without the query. */
  path: string;
  status: number;
  /** Time from arrival to the answer being ready, in milliseconds. */
  ms: number;
  /** The tenant of the key, or undefined without one (anonymous, refused, docs). */
  tenant: string | undefined;
  requestId: string;
}

/**
 * One access log line: time of arrival, method, path, status, duration, tenant (`-`
 * without a key) and request id, separated by spaces. A tenant name that holds a
 * space, a quote or a character outside printable ASCII is written as a JSON string,
 * so that every line splits into the same fields.
 *
 * @example
 * ```ts
 * import { accessLine } from './access-log.js';
 *
 * accessLine({ at: 0, method: 'GET', path: '/api/v1/', status: 200, ms: 1.25, tenant: 'demo', requestId: 'ab12' });
 * // '1970-01-01T00:00:00.000Z GET /api/v1/ 200 1.3ms demo ab12'
 * ```
 */
export function accessLine(entry: AccessEntry): string {
  const { at, method, path, status, ms, tenant, requestId } = entry;
  return `${new Date(at).toISOString()} ${method} ${field(path)} ${status} ${ms.toFixed(1)}ms ${
    tenant === undefined ? '-' : field(tenant)
  } ${requestId}`;
}

/** A value as one space-free field of a log line. */
function field(value: string): string {
  return /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(value) ? value : JSON.stringify(value);
}

/** The path of a request URL as sent (still percent-encoded), without its query. */
function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const query = url.indexOf('?', start);
  return url.slice(start, query === -1 ? undefined : query);
}

/**
 * The first middleware of the app: gives the request its id (`c.get('requestId')`),
 * sets `X-Request-Id` on the answer, and hands an access log line to
 * `config.accessLog` once the answer is ready (its status known), if there is one.
 * The query is left out of the line: filters may carry email addresses and names.
 */
export function requestLog(config: AppConfig): MiddlewareHandler<AppEnv> {
  const log = config.accessLog;
  return async (c, next) => {
    const at = log ? Date.now() : 0;
    const started = log ? performance.now() : 0;
    const id = requestIdFor(requestHeader(c, REQUEST_ID_HEADER));
    c.set('requestId', id);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, id);
    if (log) log(accessLine(entryOf(c, at, performance.now() - started, id)));
  };
}

function entryOf(c: Context<AppEnv>, at: number, ms: number, requestId: string): AccessEntry {
  return {
    at,
    method: c.req.method,
    path: rawPath(c.req.url),
    status: c.res.status,
    ms,
    tenant: c.get('auth')?.tenant.name,
    requestId,
  };
}

/**
 * A line sink that writes the lines of one turn of the event loop together, after the
 * answers of that turn have gone out: one write for many requests under load, and no
 * write before an answer.
 *
 * @example
 * ```ts
 * import { createApp, openStorage } from 'adis-server';
 * import { batchedLines } from './access-log.js';
 *
 * const log = batchedLines((text) => process.stdout.write(text));
 * createApp({ storage: openStorage('data/adis.db'), accessLog: log.write });
 * process.on('exit', log.flush);
 * ```
 */
export function batchedLines(write: (text: string) => void): {
  write: (line: string) => void;
  flush: () => void;
} {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = `${pending.join('\n')}\n`;
    pending = [];
    write(text);
  };
  return {
    write(line) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

/**
 * Reading a request's headers and body without building the request's web `Request`.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/**
 * The node request behind a call served by @hono/node-server (its `env` bindings), or
 * undefined in-process (`app.fetch`).
 */
export function incomingOf(env: unknown): IncomingMessage | undefined {
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  const incoming = env.incoming as IncomingMessage | undefined;
  return Array.isArray(incoming?.rawHeaders) ? incoming : undefined;
}

/**
 * A request header, as `c.req.header(name)` gives it (repeated headers joined with
 * `, `), read from the node request's raw headers when @hono/node-server serves the
 * app: the adapter builds the web `Headers` of a request only when something asks for
 * them, and for a keyed read that cost more than the rest of authenticating it.
 * In-process calls (`app.fetch`) read the web request.
 */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const incoming = incomingOf(c.env);
  if (!incoming) return c.req.header(name);
  const wanted = name.toLowerCase();
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length === wanted.length && key.toLowerCase() === wanted) {
      const found = raw[i + 1] as string;
      value = value === undefined ? found : `${value}, ${found}`;
    }
  }
  return value;
}

/**
 * What the command line says when the server cannot listen: one line naming the cause
 * and the option that gets past it, instead of Node's `listen EADDRINUSE: ...`.
 */

/**
 * The one-line message for a `listen` failure on `port` of `host`, or `undefined` for
 * an error that is not one (which is then reported as it is). A taken port (the usual
 * case: another server, or this one started twice) points to `--port`; a port the user
 * may not open (below 1024 without privileges) and an address this machine does not
 * have point to the option to change.
 *
 * @example
 * ```ts
 * import { listenFailureMessage } from './listen-failure.js';
 *
 * const taken = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
 * listenFailureMessage(taken, 8000, '127.0.0.1');
 * // 'port 8000 is taken: another program is listening on 127.0.0.1:8000; use --port <n>, or --port 0 for a free one'
 * ```
 */
export function listenFailureMessage(
  error: unknown,
  port: number,
  host: string,
): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} is taken: another program is listening on ${address}; use --port <n>, or --port 0 for a free one`;
    case 'EACCES':
      return `port ${port} needs privileges this user does not have (${address}); use --port <n> with a port from 1024 up, or --port 0 for a free one`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host}: this machine has no such address; use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface)`;
    default:
      return undefined;
  }
}

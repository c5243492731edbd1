/**
 * A port another listener holds for the whole test file: where a start must fail.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * Listens on a free loopback port before the file's tests and closes it after them;
 * returns the port's getter (the port is known once `beforeAll` has run).
 *
 * @example
 * ```ts
 * const taken = holdTakenPort();
 * it('fails', () => runCli(['--port', String(taken())]));
 * ```
 */
export function holdTakenPort(): () => number {
  let holder: Server | undefined;
  let port = 0;
  beforeAll(async () => {
    const server = createServer();
    holder = server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => (holder ? holder.close(() => done()) : done())));
  return () => port;
}

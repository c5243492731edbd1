/**
 * Stopping the command line's server cleanly: on SIGINT or SIGTERM, and when it was
 * started by npm and npm's shell went away.
 *
 * Why the parent watch: npm runs a script through `sh -c`, and forwards SIGTERM and
 * SIGINT only to that shell. The server's own scripts `exec` past the shell, but
 * `npx adis-server` cannot: its shell dies of the forwarded signal without passing it
 * on, and the server would keep the port, orphaned. So a server started by npm also
 * stops when its parent process is gone. It is not done otherwise: a server started
 * with `nohup … &` is meant to outlive its shell.
 */
import { backgroundIdle } from './http/background.js';
import type { RunningServer } from './server.js';
import type { Storage } from './storage/storage.js';
import type { WebhookDelivery } from './webhooks/delivery-worker.js';

/** How long requests in flight may take to finish before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 5000;

/** How often the parent watch looks. */
const PARENT_POLL_MS = 250;

/** Options of {@link stopGracefully}. */
export interface GracefulStopOptions {
  running: RunningServer;
  storage: Storage;
  /** Also stop when the process that started this one is gone. */
  watchParent: boolean;
  /** The webhook delivery worker: stopped once requests have drained, before the database closes. */
  delivery?: Pick<WebhookDelivery, 'stop'>;
  /** Where the one-line notice goes. Default: stdout. */
  log?: (message: string) => void;
}

/**
 * Closes the database once the helper calls accepted for background processing have
 * run and committed (they were answered 202 and nobody else will do them), waiting at
 * most `graceMs`: past it, what is still pending is lost, and said so through `log`.
 *
 * @example
 * ```ts
 * import type { RunningServer, Storage } from 'adis-server';
 * import { closeStorageWhenIdle } from './shutdown.js';
 *
 * async function stop(running: RunningServer, storage: Storage): Promise<void> {
 *   await running.close();
 *   await closeStorageWhenIdle(storage);
 * }
 * ```
 */
export async function closeStorageWhenIdle(
  storage: Storage,
  graceMs = SHUTDOWN_GRACE_MS,
  log: (message: string) => void = (message) => console.error(message),
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((done) => {
    timer = setTimeout(() => done(true), graceMs);
  });
  const timedOut = await Promise.race([backgroundIdle(storage).then(() => false), late]);
  clearTimeout(timer);
  if (timedOut) log(`background work still pending after ${graceMs} ms is lost`);
  await storage.close();
}

/** Whether the process `pid` still exists (EPERM: it does, but is not ours to signal). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Installs the process's shutdown: on SIGINT, SIGTERM or (with `watchParent`) the
 * parent's exit, the server stops accepting connections and closes idle ones; requests
 * in flight have {@link SHUTDOWN_GRACE_MS} to finish before their connections are cut;
 * then webhook deliveries in flight get as long to finish (the rest are sent after the
 * next start: their cursors are in the database); then helper calls accepted for background processing get as long again to finish
 * ({@link closeStorageWhenIdle}); then the database is closed, which checkpoints
 * its WAL, and the process exits 0 (1 if closing failed). Acknowledged writes are
 * already durable (fsynced before they were answered); closing only tidies the files.
 *
 * @example
 * ```ts
 * import { createApp, openStorage, startServer } from 'adis-server';
 * import { stopGracefully } from './shutdown.js';
 *
 * const storage = openStorage('data/adis.db');
 * const running = await startServer({ app: createApp({ storage }), port: 8000 });
 * stopGracefully({ running, storage, watchParent: process.env.npm_lifecycle_event !== undefined });
 * ```
 */
export function stopGracefully(options: GracefulStopOptions): void {
  const { running, storage } = options;
  const log = options.log ?? ((message: string) => console.log(message));
  let stopping = false;
  const stop = (reason: string) => {
    // Repeats are ignored, not taken as "hurry": Ctrl-C under npm delivers SIGINT to the
    // server several times at once (from the terminal, and forwarded by each npm).
    if (stopping) return;
    stopping = true;
    log(`${reason}: shutting down`);
    const cut = setTimeout(() => running.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    cut.unref();
    let code = 0;
    running
      .close()
      .catch((error: unknown) => {
        console.error(error);
        code = 1;
      })
      .then(() => clearTimeout(cut))
      .then(() => options.delivery?.stop(SHUTDOWN_GRACE_MS))
      .then(() => closeStorageWhenIdle(storage))
      .catch((error: unknown) => {
        console.error(error);
        code = 1;
      })
      .finally(() => process.exit(code));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (options.watchParent) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (isAlive(parent)) return;
      clearInterval(watch);
      stop(`parent process ${parent} exited`);
    }, PARENT_POLL_MS);
    watch.unref();
  }
}

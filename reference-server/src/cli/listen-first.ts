/**
 * The first step of a start: the port.
 */
import { listenFailureMessage } from '../listen-failure.js';
import { type ListeningServer, listen } from '../server.js';
import type { ServerSettings } from './server-settings.js';

/**
 * Claims the port before anything else, so that a port taken by another program fails
 * the start before the database is opened, migrated or seeded, or a key written into it.
 * Requests that arrive meanwhile get 503 until the app is served. A failure to listen
 * becomes one line that says what to do, rather than Node's `listen EADDRINUSE: ...`.
 */
export async function listenFirst(
  settings: Pick<ServerSettings, 'port' | 'host' | 'timeouts'>,
): Promise<ListeningServer> {
  const { port, host, timeouts } = settings;
  try {
    return await listen({ port, host, timeouts });
  } catch (error) {
    const message = listenFailureMessage(error, port, host);
    throw message === undefined ? error : new Error(message);
  }
}

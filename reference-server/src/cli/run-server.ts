/**
 * The start-up sequence of `adis-server`, once its settings are checked: each step a
 * named function, in the order that lets a failed start leave nothing behind.
 */
import { openDatabase } from '../open-database.js';
import type { RunningServer } from '../server.js';
import { stopGracefully } from '../shutdown.js';
import type { Storage } from '../storage/storage.js';
import { startWebhookDelivery } from '../webhooks/delivery-worker.js';
import { listenFirst } from './listen-first.js';
import { prepareDatabase } from './prepare-database.js';
import { serverApp } from './server-app.js';
import type { ServerSettings } from './server-settings.js';
import { answeringLine } from './startup-line.js';

/**
 * Starts the server: the port, then the database (opened, loaded, seeded), then the app
 * served, the webhook delivery and the graceful stop; `Entry point: <url>` last. A step
 * that fails closes what the earlier ones opened and rejects.
 */
export async function runServer(settings: ServerSettings): Promise<void> {
  const listening = await listenFirst(settings);
  // SQLite with group commit (concurrent requests share one fsync; each answer waits for
  // its commit), or PostgreSQL migrated at start. Tenants created from here on get the
  // preset's namespace (`action_network:<id>`).
  const storage = await openDatabase(settings.location, {
    defaultNamespace: settings.preset.namespace,
    poolSize: settings.poolSize,
  }).catch(async (error: unknown) => {
    await listening.close();
    throw error;
  });
  let app: ReturnType<typeof serverApp>;
  let running: RunningServer;
  try {
    await prepareDatabase(storage, settings);
    const line = answeringLine(settings);
    if (line !== undefined) console.log(line);
    app = serverApp(storage, settings);
    running = listening.serve(app);
  } catch (error) {
    await listening.close();
    await storage.close();
    throw error;
  }
  startBesideTheServer(app, running, storage, settings);
  // Last: whoever waits for this line (a script, a test, an operator) may stop the
  // server at once, and a SIGTERM then finds the graceful shutdown in place.
  console.log(`Entry point: ${running.entryPoint}`);
}

/**
 * The webhook delivery and the graceful stop, once the app is served. Delivery runs
 * beside the server, not in its requests: pending deliveries (a restart's too) go out
 * from now on, with hrefs under the root clients reach the server at.
 */
function startBesideTheServer(
  app: ReturnType<typeof serverApp>,
  running: RunningServer,
  storage: Storage,
  settings: ServerSettings,
): void {
  const delivery = startWebhookDelivery({
    app,
    rootUrl: settings.publicUrl ?? running.url,
    retryWindowMs: settings.webhookRetryHours * 60 * 60 * 1000,
    log: (message) => console.error(message),
  });
  stopGracefully({
    running,
    storage,
    delivery,
    // npm sets npm_lifecycle_event for the scripts it runs, npx included.
    watchParent: process.env.npm_lifecycle_event !== undefined,
  });
}

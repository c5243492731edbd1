/**
 * The Hono app the command line serves, with its access log.
 */
import { batchedLines } from '../http/access-log.js';
import { createApp } from '../http/app.js';
import type { Storage } from '../storage/storage.js';
import type { ServerSettings } from './server-settings.js';

/**
 * The app over `storage` as the settings ask for it, logging one line per request on
 * stdout unless `--quiet`. The lines are written once per turn of the event loop, after
 * that turn's answers (one write for many requests under load); the last ones when the
 * process exits.
 */
export function serverApp(
  storage: Storage,
  settings: ServerSettings,
): ReturnType<typeof createApp> {
  const accessLog = settings.quiet ? undefined : batchedLines((text) => process.stdout.write(text));
  if (accessLog) process.on('exit', accessLog.flush);
  return createApp({
    storage,
    preset: settings.preset,
    publicUrl: settings.publicUrl,
    corsOrigins: settings.corsOrigins,
    trustProxy: settings.trustProxy,
    keylessOpen: settings.keylessOpen,
    messageSendRate: settings.messageSendRate,
    apiKeyHeader: settings.apiKeyHeader,
    curiePrefix: settings.curiePrefix,
    keyRateLimit: settings.keyRate,
    accessLog: accessLog?.write,
    webhooksAllowPrivate: settings.webhooksAllowPrivate,
    webhookSubscriptionLimit: settings.webhookSubscriptionLimit,
    webhookConcurrency: settings.webhookConcurrency,
  });
}

#!/usr/bin/env node
/**
 * Command line: `tsx src/cli.ts [--port n] [--host addr] [--db path] [--keys file] [--seed n] …`,
 * or `adis-server …` once the package is installed (this file is its bin).
 * (`--help` lists every option).
 * Exit codes: 0 after a clean shutdown, 1 on a start-up failure, 2 on bad arguments.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { parseConfigFile } from './config-file.js';
import {
  type DatabaseLocation,
  databaseSetting,
  parseDatabaseLocation,
} from './database-location.js';
import { batchedLines } from './http/access-log.js';
import { createApp, defaultRegistry } from './http/app.js';
import { checkCorsOrigins } from './http/cors.js';
import { checkKeyRate } from './http/key-rate-limit.js';
import { checkApiKeyHeader } from './http/middleware.js';
import { checkCuriePrefix } from './http/relations.js';
import { listenFailureMessage } from './listen-failure.js';
import { describeDatabase, openDatabase } from './open-database.js';
import { SERVER_PRESETS } from './presets/index.js';
import { httpUrlOrUndefined } from './sdk-wire.js';
import { seedPeople } from './seed.js';
import { describeActivity, seedActivity } from './seed-activity.js';
import { listen, type RunningServer } from './server.js';
import { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from './server-timeouts.js';
import { stopGracefully } from './shutdown.js';
import type { Storage } from './storage/storage.js';
import { startWebhookDelivery } from './webhooks/delivery-worker.js';
import {
  fileSubscriptions,
  parseWebhooksFile,
  type WebhooksFile,
} from './webhooks/subscriptions-file.js';

const HELP = `ADIS reference server

Usage: adis-server [options]     (npx adis-server where installed from npm;
                                  npm start -- [options] in the adis-sdk repository)

Options:
  --port <n>        TCP port (default 8000; 0 picks a free port)
  --host <addr>     interface to listen on (default 127.0.0.1)
  --db <path|url>   SQLite file, :memory:, or a PostgreSQL URL
                    (postgres://user:password@host:5432/db; several instances may
                    share it) (default: $DATABASE_URL when set, else data/adis.db in
                    the server's folder of this repository; ./adis.db when installed
                    from npm); a URL of another engine (mysql://…) is refused
  --pool-size <n>   PostgreSQL connections of this instance (default 10)
  --keys <file>     JSON API keys: {"keys":[{"token":"…","tenant":"…","access":"read"|"write"}]}
                    (without it, a write key for the 'demo' tenant is created and printed)
  --webhooks <file> JSON webhook subscriptions: {"webhooks":[{"tenant":"…","url":"…",
                    "secret":"…","triggers":["*"]}]}; any http(s) URL; triggers:
                    signature, attendance, submission, donation, outreach, canvass,
                    signup, or * for all (the default); tenants created when missing
  --remove-demo-key remove the demo tenant's write key an earlier start without
                    --keys left in the database (needs --keys)
  --webhooks-allow-private
                    let subscriptions made through the API name loopback, private
                    and link-local addresses (default: refused, with a 400)
  --seed <n>        add n demo people to the 'demo' tenant
                    (default: 300 when the database is new, 0 otherwise); on a new
                    database with n > 0, also demo activity for the first 60 of them
                    (petitions, signatures, events, donations, tags, …); --seed 0 on a
                    new database leaves it empty
  --public-url <u>  absolute root for links (default: the request's origin)
  --cors-origin <o> origins whose browser pages may call the API, comma-separated
                    or repeated, like https://www.example.org (default: * = any)
  --trust-proxy     count calls without a key per X-Forwarded-For (only behind a
                    proxy you run, which sets it), not per TCP peer
  --message-send-rate <n>
                    recipients per second of a simulated message send (default 50)
  --preset <name>   answer as a real server documents its API: action-network
                    (entry point /api/v2/, OSDI-API-Token, osdi: and action_network:
                    relations, 4 calls a second per key, pages of 25, identifiers
                    action_network:<id>, nested record addresses, POST /people as
                    the upsert, its vocabulary and its own collections); the flags
                    below win over the preset's values (default: specification)
  --key-header <name>
                    header carrying the API key (default STD-API-Token)
  --curie-prefix <name>
                    curie prefix of the relations the server writes (default std);
                    with osdi: osdi:people, osdi:error, osdi_version
  --key-rate <n>    at most n calls per API key in any rolling second; more get 429
                    with Retry-After (default: no limit)
  --webhook-retry-hours <n>
                    how long a failing webhook subscription is retried (with
                    backoff) before it is switched off (default 24)
  --headers-timeout <s>
                    seconds a client may take to send a request's headers; then 408
                    and the connection is closed (default 10)
  --request-timeout <s>
                    seconds a client may take to send a whole request, body included,
                    at least --headers-timeout (default 30)
  --keep-alive-timeout <s>
                    seconds an idle connection is kept open for the next request
                    (default 5; above your load balancer's idle timeout behind one)
  --quiet           no access log (default: one line per request on stdout)
  --help            show this help

Every flag in detail: https://github.com/adis-project/adis-sdk/tree/main/reference-server#flags
`;

/** Error in the command line: message and exit code 2. */
class UsageError extends Error {}

const KeysFileSchema = z.strictObject({
  keys: z
    .array(
      z.strictObject({
        token: z.string().min(8, 'token must have at least 8 characters'),
        tenant: z.string().min(1),
        access: z.enum(['read', 'write']),
        namespace: z
          .string()
          .regex(/^[A-Za-z0-9_.-]+$/, 'namespace may hold letters, digits, _ . -')
          .optional(),
      }),
    )
    .min(1, 'list at least one key'),
});

type KeysFile = z.output<typeof KeysFileSchema>;

/** An operator's file read and parsed by `parse`; what goes wrong is a usage error (exit 2). */
function readConfigFile<T>(path: string, what: string, parse: (text: string) => T): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} file ${path}: ${(error as Error).message}`);
  }
  try {
    return parse(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function readKeysFile(path: string): KeysFile {
  return readConfigFile(path, 'keys', (text) =>
    parseConfigFile(text, path, 'keys', KeysFileSchema),
  );
}

function readWebhooksFile(path: string): WebhooksFile {
  return readConfigFile(path, 'webhooks', (text) => parseWebhooksFile(text, path));
}

/**
 * Where the data lives without `--db`: beside the server in this repository, but in the
 * user's directory when the package is installed, since a file under node_modules is
 * deleted by the next `npm install` and data must not be lost that way.
 */
function defaultDatabase(serverRoot: string, userDir: string): string {
  return serverRoot.split(/[\\/]/).includes('node_modules')
    ? resolve(userDir, 'adis.db')
    : resolve(serverRoot, 'data/adis.db');
}

/**
 * The database that `--db`, else `DATABASE_URL`, names (a SQLite file, `:memory:` or a
 * PostgreSQL URL), else the default file; a URL of another engine is a usage error,
 * never a file name.
 */
function databaseLocation(
  flag: string | undefined,
  serverRoot: string,
  userDir: string,
): DatabaseLocation {
  const setting = databaseSetting(flag, process.env);
  if (setting === undefined)
    return { engine: 'sqlite', path: defaultDatabase(serverRoot, userDir) };
  const location = parseDatabaseLocation(setting, userDir);
  if ('error' in location) throw new UsageError(location.error);
  return location;
}

/**
 * The namespace of each tenant in a keys file: the one any of its keys names (it may
 * stand on any of them), and an error when two keys of one tenant name different ones.
 */
function tenantNamespaces(file: KeysFile): Map<string, string | undefined> {
  const namespaces = new Map<string, string | undefined>();
  for (const key of file.keys) {
    const known = namespaces.get(key.tenant);
    if (key.namespace !== undefined && known !== undefined && known !== key.namespace) {
      throw new UsageError(
        `keys file: tenant ${key.tenant} is given two namespaces, ${known} and ${key.namespace}`,
      );
    }
    namespaces.set(key.tenant, known ?? key.namespace);
  }
  return namespaces;
}

function integerOption(
  name: string,
  raw: string | undefined,
  fallback: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw new UsageError(
      `--${name} must be an integer from 0 to ${max}, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

/**
 * An option checked by the library's own check, whose RangeError becomes a usage error
 * (exit code 2): its message after the flag, unless the message names the flag itself.
 */
function checkedOption<T>(
  name: string,
  raw: string | undefined,
  check: (value: string) => T,
): T | undefined {
  if (raw === undefined) return undefined;
  try {
    return check(raw);
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(message.startsWith(`--${name} `) ? message : `--${name}: ${message}`);
  }
}

/** `--cors-origin` values: `*`, or origins (comma-separated, flag repeatable). */
function corsOriginsOption(raw: string[] | undefined): string[] | '*' {
  if (raw === undefined) return '*';
  const origins = raw.flatMap((value) => value.split(',')).map((value) => value.trim());
  if (origins.includes('*')) {
    if (origins.length > 1) throw new UsageError('--cors-origin * cannot be combined with origins');
    return '*';
  }
  try {
    checkCorsOrigins(origins);
  } catch (error) {
    throw new UsageError(`--cors-origin: ${(error as Error).message}`);
  }
  return origins;
}

/** `--webhook-retry-hours`: a positive number of hours (fractions allowed), at most 30 days. */
function webhookRetryHoursOption(raw: string | undefined): number {
  if (raw === undefined) return 24;
  const hours = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || hours <= 0 || hours > 720) {
    throw new UsageError(
      `--webhook-retry-hours must be a number of hours above 0 and at most 720, got ${JSON.stringify(raw)}`,
    );
  }
  return hours;
}

/** A timeout flag: seconds above 0 (fractions allowed), at most an hour; in milliseconds. */
function secondsOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(
      `--${name} must be a number of seconds above 0 and at most 3600, got ${JSON.stringify(raw)}`,
    );
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/** The server's timeouts from their flags, over the defaults; the headers' within the request's. */
function timeoutsOption(values: {
  'headers-timeout'?: string;
  'request-timeout'?: string;
  'keep-alive-timeout'?: string;
}): ServerTimeouts {
  const timeouts = {
    headersMs:
      secondsOption('headers-timeout', values['headers-timeout']) ??
      DEFAULT_SERVER_TIMEOUTS.headersMs,
    requestMs:
      secondsOption('request-timeout', values['request-timeout']) ??
      DEFAULT_SERVER_TIMEOUTS.requestMs,
    keepAliveMs:
      secondsOption('keep-alive-timeout', values['keep-alive-timeout']) ??
      DEFAULT_SERVER_TIMEOUTS.keepAliveMs,
  };
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new UsageError(
      `--headers-timeout (${timeouts.headersMs / 1000} s) must not exceed --request-timeout (${timeouts.requestMs / 1000} s${values['request-timeout'] === undefined ? ', its default' : ''})`,
    );
  }
  return timeouts;
}

/** `n thing` or `n things`: the count with its noun agreeing. */
function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * The demo tenant's write key. Without a keys file: the one in the database, else a new
 * one, printed either way. With one: a demo key an earlier start left in the database
 * still works, so say so (and remove it with `--remove-demo-key`).
 */
async function demoKey(
  storage: Storage,
  options: { keysFile: boolean; remove: boolean | undefined },
): Promise<void> {
  const existing = (await storage.tenants.getSetting('demo_token')) || undefined;
  if (options.remove) {
    await storage.transaction(async () => {
      await storage.tenants.removeApiKeys('demo');
      await storage.tenants.setSetting('demo_token', '');
    });
    console.log(
      existing
        ? 'Demo key removed from the database (--remove-demo-key)'
        : 'No demo key in the database to remove (--remove-demo-key)',
    );
    return;
  }
  if (options.keysFile) {
    if (existing) {
      console.log(
        `Note: the database also holds a demo key (tenant demo, write: ${existing.slice(0, 9)}…), made by an earlier start without --keys; it still works. --remove-demo-key removes it.`,
      );
    }
    return;
  }
  let token = existing;
  if (!token) {
    const made = `demo-${randomBytes(18).toString('base64url')}`;
    await storage.transaction(async () => {
      await storage.tenants.putApiKey(made, 'demo', 'write', 'demo');
      await storage.tenants.setSetting('demo_token', made);
    });
    token = made;
  }
  console.log(`API key (demo tenant, write): ${token}`);
}

async function main(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = integerOption('port', values.port, 8000, 65535);
  const host = values.host ?? '127.0.0.1';
  // `npm start` from the repository root runs this in reference-server/; npm keeps the
  // directory the user typed the command in as INIT_CWD, and paths the user gives are
  // relative to that.
  const userDir = process.env.INIT_CWD ?? process.cwd();
  const keysFile =
    values.keys === undefined ? undefined : readKeysFile(resolve(userDir, values.keys));
  const namespaces = keysFile === undefined ? undefined : tenantNamespaces(keysFile);
  if (values['remove-demo-key'] && keysFile === undefined) {
    throw new UsageError(
      '--remove-demo-key needs --keys <file>: without it the server would make a demo key again',
    );
  }
  const webhooksFile =
    values.webhooks === undefined ? undefined : readWebhooksFile(resolve(userDir, values.webhooks));
  const serverRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const location = databaseLocation(values.db, serverRoot, userDir);
  const poolSize = integerOption('pool-size', values['pool-size'], 10, 1000);
  if (poolSize === 0) throw new UsageError('--pool-size must be at least 1');
  if (values['public-url'] !== undefined && !httpUrlOrUndefined(values['public-url'])) {
    throw new UsageError('--public-url must be an absolute http(s) URL');
  }

  const corsOrigins = corsOriginsOption(values['cors-origin']);
  const messageSendRate = integerOption(
    'message-send-rate',
    values['message-send-rate'],
    50,
    1_000_000,
  );
  if (messageSendRate === 0) throw new UsageError('--message-send-rate must be at least 1');
  const apiKeyHeader = checkedOption('key-header', values['key-header'], checkApiKeyHeader);
  const curiePrefix = checkedOption('curie-prefix', values['curie-prefix'], checkCuriePrefix);
  const webhookRetryHours = webhookRetryHoursOption(values['webhook-retry-hours']);
  const timeouts = timeoutsOption(values);
  // Calls per key a second, from 1; undefined without the flag (no limit).
  const keyRate = checkedOption('key-rate', values['key-rate'], (raw) =>
    checkKeyRate(raw, { name: '--key-rate', unlimited: 'leave it out' }),
  );

  const presetName = values.preset ?? 'specification';
  const preset = SERVER_PRESETS[presetName];
  if (!preset) {
    throw new UsageError(
      `--preset must be one of ${Object.keys(SERVER_PRESETS).join(', ')}, got ${JSON.stringify(presetName)}`,
    );
  }

  // The port first: what can be checked is checked before the database is opened,
  // migrated or seeded, or a key written into it.
  let listening: Awaited<ReturnType<typeof listen>>;
  try {
    listening = await listen({ port, host, timeouts });
  } catch (error) {
    // One line that says what to do, rather than Node's `listen EADDRINUSE: ...`.
    const message = listenFailureMessage(error, port, host);
    throw message === undefined ? error : new Error(message);
  }
  // SQLite with group commit (concurrent requests share one fsync; each answer waits for
  // its commit), or PostgreSQL migrated at start. Tenants created from here on get the
  // preset's namespace (`action_network:<id>`).
  const opened = await openDatabase(location, {
    defaultNamespace: preset.namespace,
    poolSize,
  }).catch(async (error: unknown) => {
    await listening.close();
    throw error;
  });
  let app: ReturnType<typeof createApp>;
  let running: RunningServer;
  try {
    const seedCount = integerOption('seed', values.seed, opened.created ? 300 : 0, 10_000_000);

    if (keysFile && namespaces) {
      // The file is authoritative for the keys it manages: keys removed from it stop working.
      await opened.transaction(async () => {
        await opened.tenants.removeApiKeys('keys-file');
        for (const [tenant, namespace] of namespaces) {
          const kept = (await opened.tenants.ensure(tenant, namespace)).namespace;
          if (namespace !== undefined && kept !== namespace) {
            console.log(
              `Tenant ${tenant} keeps namespace ${kept}, set when it was created; the keys file's ${namespace} is not applied`,
            );
          }
        }
        for (const key of keysFile.keys) {
          await opened.tenants.putApiKey(key.token, key.tenant, key.access, 'keys-file');
        }
      });
      console.log(`API keys: ${count(keysFile.keys.length, 'key')} loaded from ${values.keys}`);
    }

    if (webhooksFile) {
      // The file is authoritative for the subscriptions it manages, as for keys: those
      // removed from it stop; those kept (same tenant and URL) keep their place in the outbox.
      await opened.transaction(async () => {
        const tenantIds = new Map<string, number>();
        for (const { tenant } of webhooksFile.webhooks) {
          tenantIds.set(tenant, (await opened.tenants.ensure(tenant)).id);
        }
        await opened.webhooks.replaceFileSubscriptions(
          fileSubscriptions(webhooksFile, (tenant) => tenantIds.get(tenant) ?? 0, Date.now()),
        );
      });
      console.log(
        `Webhooks: ${count(webhooksFile.webhooks.length, 'subscription')} loaded from ${values.webhooks}`,
      );
    }

    if (seedCount > 0) {
      const seed = Date.now() & 0x7fffffff;
      let started = performance.now();
      await seedPeople(opened, { tenant: 'demo', count: seedCount, seed });
      console.log(
        `Seeded ${count(seedCount, 'demo person', 'demo people')} in ${Math.round(performance.now() - started)} ms`,
      );
      // Activity only in a new database: a later `--seed n` adds people, not a second copy
      // of the demo petitions and events.
      if (opened.created) {
        started = performance.now();
        // Written with the preset's kinds: its rules (derived members, read-only kinds) apply.
        const registry = defaultRegistry(preset);
        const counts = await seedActivity(opened, { tenant: 'demo', seed, registry });
        console.log(
          `Seeded demo activity in ${Math.round(performance.now() - started)} ms: ${describeActivity(counts)}`,
        );
        if (preset.seed) {
          const own = await preset.seed(opened, { tenant: 'demo', seed, registry });
          console.log(`Seeded ${preset.name} data: ${describeActivity(own)}`);
        }
      }
      await opened.analyze();
    }
    console.log(`Database: ${describeDatabase(location)}`);

    // The demo key last, once nothing else can fail: a start that fails leaves no key
    // behind in a database other instances share.
    await demoKey(opened, { keysFile: keysFile !== undefined, remove: values['remove-demo-key'] });

    if (values.preset !== undefined || apiKeyHeader || curiePrefix || keyRate) {
      const rate = keyRate ?? preset.keyRateLimit;
      console.log(
        `${values.preset === undefined ? '' : `Preset ${preset.name}. `}Key header ${apiKeyHeader ?? preset.apiKeyHeader}, curie prefix ${curiePrefix ?? preset.curiePrefix}, ${
          rate ? `at most ${rate} calls a second per key` : 'no limit per key'
        }`,
      );
    }
    // Lines written once per turn of the event loop, after that turn's answers; the last
    // ones before the process exits.
    const accessLog = values.quiet ? undefined : batchedLines((text) => process.stdout.write(text));
    if (accessLog) process.on('exit', accessLog.flush);
    app = createApp({
      storage: opened,
      preset,
      publicUrl: values['public-url'],
      corsOrigins,
      trustProxy: values['trust-proxy'] ?? false,
      messageSendRate,
      apiKeyHeader,
      curiePrefix,
      keyRateLimit: keyRate,
      accessLog: accessLog?.write,
      webhooksAllowPrivate: values['webhooks-allow-private'] ?? false,
    });
    running = listening.serve(app);
  } catch (error) {
    await listening.close();
    await opened.close();
    throw error;
  }
  // Beside the server, not in its requests: pending deliveries (a restart's too) go out
  // from now on, with hrefs under the root clients reach the server at.
  const delivery = startWebhookDelivery({
    app,
    rootUrl: values['public-url'] ?? running.url,
    retryWindowMs: webhookRetryHours * 60 * 60 * 1000,
    log: (message) => console.error(message),
  });

  // npm sets npm_lifecycle_event for the scripts it runs, npx included.
  stopGracefully({
    running,
    storage: opened,
    delivery,
    watchParent: process.env.npm_lifecycle_event !== undefined,
  });
  // Last: whoever waits for this line (a script, a test, an operator) may stop the
  // server at once, and a SIGTERM then finds the graceful shutdown in place.
  console.log(`Entry point: ${running.entryPoint}`);
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      db: { type: 'string' },
      'pool-size': { type: 'string' },
      keys: { type: 'string' },
      webhooks: { type: 'string' },
      'webhooks-allow-private': { type: 'boolean' },
      'remove-demo-key': { type: 'boolean' },
      seed: { type: 'string' },
      'public-url': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'trust-proxy': { type: 'boolean' },
      'message-send-rate': { type: 'string' },
      preset: { type: 'string' },
      'key-header': { type: 'string' },
      'curie-prefix': { type: 'string' },
      'key-rate': { type: 'string' },
      'webhook-retry-hours': { type: 'string' },
      'headers-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      'keep-alive-timeout': { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`error: ${error.message}\n\nRun with --help for usage.`);
    process.exit(2);
  }
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

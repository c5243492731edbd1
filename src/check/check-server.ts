/**
 * {@link checkServer}: what a server supports of the specification, and where it
 * departs from it, as a typed report. The checks run in a fixed order, each area in its
 * own module (rules/); they share a context (context.ts) and one bounded prober. The
 * server under test is the entry point's origin: nothing elsewhere is contacted unless
 * `followDocs` lets the checker read documentation there.
 */
import { isAdisError } from '../errors/type-guards.js';
import { HalDocument } from '../hal/document.js';
import { isJsonObject } from '../hal/link.js';
import { entryPointVersion } from '../schema/entry-point.js';
import { DEFAULT_API_KEY_HEADER } from '../wire/api-key-header.js';
import { type CheckContext, createContext, onOrigin } from './context.js';
import { detectServer } from './known-servers.js';
import { OffOriginError, type ProbeResponse, Prober, RequestBudgetError } from './prober.js';
import { type CheckArea, type CheckReport, countChecks } from './report.js';
import { checkAuthentication } from './rules/authentication.js';
import { checkCollections } from './rules/collections.js';
import { checkCors } from './rules/cors.js';
import { checkCurieDocs, checkEntryPoint } from './rules/entry-point.js';
import { checkErrors } from './rules/errors.js';
import { checkFiltering } from './rules/filtering.js';
import { checkRelations } from './rules/relations.js';
import { summarise } from './rules/summaries.js';
import { checkWrites } from './rules/writes.js';

/** Options of {@link checkServer}. */
export interface CheckOptions {
  /** The API key; without it only what a server shows anyone is checked. */
  apiKey?: string;
  /** The header the key goes in. Default: STD-API-Token, or a detected server's. */
  keyHeader?: string;
  /** Also create, update and delete records, and call a helper (then deleted). Default false. */
  write?: boolean;
  /**
   * Also read documentation on other origins (a curie's href elsewhere), without the
   * key; a failure there is a warning about that link. Default false: nothing but the
   * entry point's origin is contacted.
   */
  followDocs?: boolean;
  /** Requests in all, at most. Default 500. */
  maxRequests?: number;
  /** Requests a second, at most; 0 for no spacing. Default 4. */
  rate?: number;
  /** Pages read of each collection. Default 2. */
  pagesPerCollection?: number;
  /** Milliseconds a request may take. Default 15 000. */
  timeoutMs?: number;
  /** The `fetch` to send with (tests pass an in-process server's). */
  fetch?: typeof globalThis.fetch;
  /** Stops the run. */
  signal?: AbortSignal;
  /** Told of each request (`GET https://…`) as it is sent: progress for a long walk. */
  onRequest?: (method: string, url: string) => void;
}

/** The checker cannot start: a URL that is not http(s), a key missing or refused. Exit 2. */
export class CheckUsageError extends Error {
  /** Always `'CHECK_USAGE'`. */
  readonly code = 'CHECK_USAGE' as const;
  override readonly name = 'CheckUsageError';
}

/**
 * Checks the server at `url` (its entry point): reads the entry point, the first pages
 * of every collection it links, a sample of relations, filtering, errors,
 * authentication and CORS; with `write`, creates, reads back, writes back and deletes a
 * record of each kind it can. Read-only unless `write` is true: then, and only then, it
 * sends POST, PUT and DELETE. It contacts the entry point's origin only, unless
 * `followDocs`. Rejects with {@link CheckUsageError} when it cannot start (an entry
 * point that redirects to another origin too), and with `NetworkError` when the entry
 * point does not answer.
 *
 * @example
 * ```ts
 * import { checkServer } from 'adis-sdk/check';
 *
 * const report = await checkServer('https://api.example.org/api/v1/', { apiKey: process.env.ADIS_KEY });
 * for (const check of report.checks) if (check.status === 'fail') console.log(check.rule, check.message);
 * ```
 */
export async function checkServer(url: string, options: CheckOptions = {}): Promise<CheckReport> {
  let entryUrl: string;
  try {
    entryUrl = new URL(url).href;
  } catch {
    throw new CheckUsageError(`not a URL: ${JSON.stringify(url)}`);
  }
  if (!/^https?:$/.test(new URL(entryUrl).protocol)) {
    throw new CheckUsageError(`the entry point must be an http(s) URL, not ${entryUrl}`);
  }
  let keyHeader = options.keyHeader ?? DEFAULT_API_KEY_HEADER;
  const keyHeaders = (header: string) => (options.apiKey ? { [header]: options.apiKey } : {});
  const prober = new Prober({
    fetch: options.fetch,
    keyHeaders: keyHeaders(keyHeader),
    origin: new URL(entryUrl).origin,
    rate: options.rate,
    maxRequests: options.maxRequests,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    onRequest: options.onRequest,
  });
  const context = createContext(prober, {
    entryUrl,
    keyHeader,
    hasKey: options.apiKey !== undefined,
    write: options.write === true,
    followDocs: options.followDocs === true,
  });
  let entry = await readEntryPoint(context);
  // A known server's refusal names its header: use it, unless the caller chose one.
  if ((entry.status === 401 || entry.status === 403) && options.keyHeader === undefined) {
    const detected = detectServer({
      url: entryUrl,
      curies: [],
      refusal: `${entry.text} ${entry.headers.get('www-authenticate') ?? ''}`,
    });
    const header = detected?.server.connectOptions.apiKeyHeader;
    if (detected && header && header !== keyHeader) {
      keyHeader = header;
      context.keyHeader = header;
      prober.keyHeaders = keyHeaders(header);
      context.detected = detected.server;
      entry = await readEntryPoint(context);
    }
  }
  if (entry.status === 401 || entry.status === 403) {
    throw new CheckUsageError(
      options.apiKey
        ? `the server refused the key (${entry.status} from ${entryUrl}): check --api-key and --key-header (sent in ${keyHeader})`
        : `the server needs an API key (${entry.status} from ${entryUrl}): give --api-key`,
    );
  }
  // Recognised before any check is made: each check is judged against the server's
  // departures as it is added, the entry point's own among them.
  const body = isJsonObject(entry.json) ? entry.json : undefined;
  const found = detectServer({
    url: entryUrl,
    entryPoint: body,
    curies: body ? HalDocument.parse(body, entryUrl).curies.names() : [],
  });
  if (found) context.detected ??= found.server;
  const evidence = found?.evidence;
  if (checkEntryPoint(context, entry)) {
    const pages = Math.max(1, options.pagesPerCollection ?? 2);
    await runSteps(context, [
      ['entry point', () => checkCurieDocs(context)],
      ['collections', () => checkCollections(context, { pages })],
      ['relations', () => checkRelations(context)],
      ['filtering', () => checkFiltering(context)],
      ['errors', () => checkErrors(context)],
      ['authentication', () => checkAuthentication(context)],
      ['cors', () => checkCors(context)],
      ...(options.write ? [['writes', () => checkWrites(context)] as const] : []),
    ]);
  }
  summarise(context);
  const detected = context.detected;
  const checks = context.checks;
  return {
    server: {
      url: entryUrl,
      ...serverFields(context),
      curies: context.entry?.curies.names() ?? [],
      collections: context.collections.map((collection) => collection.plural),
    },
    detected: detected
      ? {
          name: detected.name,
          preset: detected.preset,
          evidence: evidence ?? 'its 401',
          connectOptions: detected.connectOptions,
          docs: detected.docs,
        }
      : null,
    checks,
    counts: countChecks(checks),
    requests: {
      sent: prober.sent,
      rateLimited: prober.rateLimited.length,
      methods: { ...prober.methods },
    },
    write: context.write,
  };
}

/** The entry point's answer; one that redirects to another origin cannot be checked. */
async function readEntryPoint(context: CheckContext): Promise<ProbeResponse> {
  try {
    return await context.request(context.entryUrl);
  } catch (error) {
    if (!(error instanceof OffOriginError)) throw error;
    throw new CheckUsageError(
      `the entry point ${context.entryUrl} redirects to ${error.url}, on another origin: give that URL`,
    );
  }
}

/**
 * Runs the areas' checks in turn. A spent budget or a server that stopped answering
 * ends the run (the rest is reported as not run); a link to another origin is not
 * followed (the rest of that area is not run, the next one is); anything else an area
 * meets (a link that is no URL, say) fails that area, and the next one runs. Only the
 * server under test's own silence is "the server stopped answering": a request to
 * another origin (documentation, with `followDocs`) that fails says nothing of it.
 */
async function runSteps(
  context: CheckContext,
  steps: readonly (readonly [CheckArea, () => Promise<void>])[],
): Promise<void> {
  for (const [index, [area, step]] of steps.entries()) {
    try {
      await step();
    } catch (error) {
      const rest = steps
        .slice(index + 1)
        .map(([name]) => name)
        .join(', ');
      if (error instanceof RequestBudgetError) {
        context.add(area, 'budget', 'skip', `${error.message}: not run${rest ? `: ${rest}` : ''}`);
        return;
      }
      if (error instanceof OffOriginError) {
        context.add(
          area,
          'checker.other-origin',
          'skip',
          `${error.message}: not contacted (the rest of the ${area} checks not run)`,
          { url: error.url },
        );
        continue;
      }
      if (isAdisError(error) && (error.code === 'NETWORK' || error.code === 'TIMEOUT')) {
        const failed = 'url' in error && typeof error.url === 'string' ? error.url : undefined;
        if (failed !== undefined && !onOrigin(failed, context.origin)) {
          context.add(
            area,
            'checker.other-origin',
            'warn',
            `a request to another origin than the server under test failed: ${error.message}; the run goes on`,
            { url: failed },
          );
          continue;
        }
        context.add(
          area,
          'network',
          'fail',
          `the server stopped answering: ${error.message}${rest ? `; not run: ${rest}` : ''}`,
        );
        return;
      }
      if (!isAdisError(error)) throw error;
      context.add(
        area,
        'checker.stopped',
        'fail',
        `the ${area} checks could not finish: ${error.message}`,
      );
    }
  }
}

function serverFields(context: CheckContext): {
  vendor?: string;
  product?: string;
  version?: string;
  namespace?: string;
} {
  const body = context.entry?.body ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const fields = {
    vendor: text(body.vendor_name),
    product: text(body.product_name),
    version: entryPointVersion(body, context.prefix),
    namespace: text(body.namespace),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

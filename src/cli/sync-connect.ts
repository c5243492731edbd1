/**
 * `adis-sync`'s connections: each side's preset (named, or detected from its entry point
 * as `adis-check` recognises a server), the connection itself, and the count of every
 * request sent to either side, which `--max-requests` bounds.
 */
import { detectServer, type ServerSigns } from '../check/index.js';
import {
  type BaseClient,
  type ClientOptions,
  connect,
  DEFAULT_TIMEOUT,
  HalDocument,
  presetNamed,
  SERVER_PRESETS,
} from '../index.js';
import { saysActionNetwork } from '../sync/index.js';
import { KEY_SOURCES, type SyncSide } from './sync-keys.js';

/** Why a side could not be connected, in a sentence that names the server and what to do. */
export class SyncConnectError extends Error {
  /** The side that failed. */
  readonly side: SyncSide;

  /**
   * @param side - The side that failed.
   * @param message - The whole message, naming the server.
   */
  constructor(side: SyncSide, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SyncConnectError';
    this.side = side;
  }
}

/** The reason a run is stopped when `--max-requests` is reached. */
export class MaxRequestsReached extends Error {
  /** The requests sent, both sides together. */
  readonly sent: number;

  /** @param sent - The requests sent, both sides together (the limit). */
  constructor(sent: number) {
    super(`--max-requests reached: ${sent} requests sent`);
    this.name = 'MaxRequestsReached';
    this.sent = sent;
  }
}

/** Requests sent so far, by side. */
export interface RequestCounts {
  from: number;
  to: number;
}

/**
 * Counts every request sent to either side (retries included: each is a request the
 * server sees) and, with a limit, refuses the one after it: the first refused request
 * aborts `controller` with a {@link MaxRequestsReached}, which stops the run where the
 * state last saved it.
 *
 * @example
 * ```ts
 * import { connect } from 'adis-sdk';
 * import { RequestBudget } from './sync-connect.js';
 *
 * const budget = new RequestBudget(500, new AbortController());
 * const client = await connect('https://a.example/api/v1/', { fetch: budget.fetchFor('from') });
 * budget.counts(); // { from: 1, to: 0 }
 * ```
 */
export class RequestBudget {
  readonly #max: number | undefined;
  readonly #controller: AbortController;
  readonly #counts: RequestCounts = { from: 0, to: 0 };
  #reached: MaxRequestsReached | undefined;

  /**
   * @param max - At most this many requests, both sides together; undefined for no limit.
   * @param controller - Aborted when the limit is reached.
   */
  constructor(max: number | undefined, controller: AbortController) {
    this.#max = max;
    this.#controller = controller;
  }

  /** A fetch that counts for `side`, sending through `base`. */
  fetchFor(
    side: SyncSide,
    base: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
  ): typeof globalThis.fetch {
    return (input, init) => {
      const sent = this.#counts.from + this.#counts.to;
      if (this.#max !== undefined && sent >= this.#max) {
        this.#reached ??= new MaxRequestsReached(sent);
        if (!this.#controller.signal.aborted) this.#controller.abort(this.#reached);
        return Promise.reject(this.#reached);
      }
      this.#counts[side] += 1;
      return base(input, init);
    };
  }

  /** The requests sent so far, by side (a copy). */
  counts(): RequestCounts {
    return { ...this.#counts };
  }

  /** The stop, once the limit was reached; undefined before. */
  reached(): MaxRequestsReached | undefined {
    return this.#reached;
  }
}

/** What a side is connected with. */
export interface SideSettings {
  side: SyncSide;
  /** The entry point. */
  url: string;
  apiKey: string | undefined;
  /** A name of SERVER_PRESETS the command line gave; undefined: detect. */
  preset: string | undefined;
  /** Requests a second; undefined: the preset's own, else none. */
  rate: number | undefined;
  /** Per request, ms; undefined: the SDK's default. */
  timeoutMs: number | undefined;
  /** The counted fetch of this side. */
  fetch: typeof globalThis.fetch;
  signal: AbortSignal | undefined;
}

/** A preset found from what a server says of itself. */
export interface DetectedPreset {
  /** The preset's name in SERVER_PRESETS (`action-network`). */
  name: string;
  /** The server's name (`Action Network`). */
  server: string;
  /** The sign that gave it away (`its host, actionnetwork.org`). */
  evidence: string;
}

/** A side, connected. */
export interface ConnectedSide {
  client: BaseClient;
  /** The preset it was connected with (named or detected), or undefined. */
  preset: string | undefined;
  /**
   * When the preset was detected: the server's name (`Action Network`) and the sign that
   * gave it away (`namespace "action_network"`).
   */
  detected: DetectedPreset | undefined;
}

/**
 * The side, as messages name it.
 *
 * @example
 * ```ts
 * import { sideName } from './sync-connect.js';
 *
 * sideName('from', 'https://a.example/api/v1/'); // 'the source (from) https://a.example/api/v1/'
 * ```
 */
export function sideName(side: SyncSide, url: string): string {
  return `${KEY_SOURCES[side].server} ${url}`;
}

/**
 * Connects one side: with the named preset, or the one its entry point gives away (read
 * once without the key: a host, `vendor_name`, `namespace`, curie or 401 that says
 * Action Network), or none. A failure is a {@link SyncConnectError} naming the side.
 */
export async function connectSide(settings: SideSettings): Promise<ConnectedSide> {
  let detected = settings.preset === undefined ? await detectPreset(settings) : undefined;
  let preset = settings.preset ?? detected?.name;
  let client = await connectWithPreset(settings, preset);
  // The entry point may have been readable only with the key: look at it again.
  if (preset === undefined && saysActionNetwork(client)) {
    detected = named(
      'actionNetwork',
      'Action Network',
      'its entry point read with the key (namespace, vendor_name or curie)',
    );
    if (detected !== undefined) {
      preset = detected.name;
      client = await connectWithPreset(settings, preset);
    }
  }
  return { client, preset, detected };
}

function connectWithPreset(
  settings: SideSettings,
  preset: string | undefined,
): Promise<BaseClient> {
  const options: ClientOptions = {
    ...(preset === undefined ? {} : presetNamed(preset)),
    ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
    ...(settings.rate === undefined ? {} : { rateLimit: settings.rate }),
    ...(settings.timeoutMs === undefined ? {} : { timeout: settings.timeoutMs }),
    ...(settings.signal === undefined ? {} : { signal: settings.signal }),
    fetch: settings.fetch,
  };
  return connect(settings.url, options);
}

/**
 * The preset a side's entry point gives away, read once without the key, and the sign
 * that did; undefined when it says nothing known. An entry point that does not answer
 * is a {@link SyncConnectError}.
 */
export async function detectPreset(
  settings: Pick<SideSettings, 'side' | 'url' | 'fetch' | 'signal' | 'timeoutMs'>,
): Promise<DetectedPreset | undefined> {
  const signs: ServerSigns = { url: settings.url, curies: [] };
  // Known by its address alone: nothing to send.
  const byUrl = detectServer(signs);
  if (byUrl) return named(byUrl.server.preset, byUrl.server.name, byUrl.evidence);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = settings.signal ? AbortSignal.any([settings.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await settings.fetch(settings.url, {
      headers: { accept: 'application/hal+json, application/json' },
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    const where = sideName(settings.side, settings.url);
    if (timeout.aborted) {
      throw new SyncConnectError(
        settings.side,
        `${where} did not answer within ${timeoutMs / 1000} s: check the URL and the network, or give a longer --timeout`,
        { cause: error },
      );
    }
    throw new SyncConnectError(
      settings.side,
      `cannot reach ${where}: ${causeText(error)}; check the URL and the network`,
      { cause: error },
    );
  }
  if (response.status === 401 || response.status === 403) {
    signs.refusal = `${text} ${response.headers.get('www-authenticate') ?? ''}`;
  } else {
    const body = parseJson(text);
    if (body !== undefined) {
      signs.entryPoint = body;
      signs.curies = HalDocument.parse(body, settings.url).curies.names();
    }
  }
  const found = detectServer(signs);
  return found ? named(found.server.preset, found.server.name, found.evidence) : undefined;
}

function named(sdkPreset: string, server: string, evidence: string): DetectedPreset | undefined {
  const name = presetFor(sdkPreset);
  return name === undefined ? undefined : { name, server, evidence };
}

// The command line's name of an SDK preset (`actionNetwork` is `action-network`).
function presetFor(sdkPreset: string): string | undefined {
  const name = sdkPreset.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  return Object.hasOwn(SERVER_PRESETS, name) ? name : undefined;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function causeText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

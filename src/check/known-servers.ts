/**
 * Servers `adis-check` recognises, as data: how to tell one, the `connect()` options
 * that work against it, and the departures from the specification its own docs
 * describe, which the report then gives as vendor differences (`warn`), not failures.
 */
import type { Check, DetectedServer } from './report.js';

/** What the checker has seen when it tries to recognise a server. */
export interface ServerSigns {
  url: string;
  /** The entry point's body, when it was read. */
  entryPoint?: Record<string, unknown>;
  /** The curie names the entry point declares. */
  curies: readonly string[];
  /** The text of a 401 or 403 answer, when the first request got one. */
  refusal?: string;
}

/** A server the checker knows. */
export interface KnownServer extends Omit<DetectedServer, 'evidence'> {
  /** Why the signs say it is this server, or undefined when they do not. */
  recognise(signs: ServerSigns): string | undefined;
  /** Rules whose failure is what this server documents it does, with why. */
  departures: Readonly<Record<string, string>>;
}

/** Action Network's API v2, as its docs (actionnetwork.org/docs/v2/) describe it. */
export const ACTION_NETWORK: KnownServer = {
  name: 'Action Network',
  preset: 'actionNetwork',
  docs: 'https://actionnetwork.org/docs/v2/',
  connectOptions: { apiKeyHeader: 'OSDI-API-Token', curiePrefix: 'osdi', rateLimit: 3.5 },
  recognise(signs) {
    if (/(^|\.)actionnetwork\.org$/i.test(hostOf(signs.url))) return 'its host, actionnetwork.org';
    const body = signs.entryPoint;
    if (body && /action network/i.test(String(body.vendor_name ?? ''))) {
      return `vendor_name "${String(body.vendor_name)}"`;
    }
    if (body?.namespace === 'action_network') return 'namespace "action_network"';
    if (signs.curies.includes('action_network')) return 'a curie named action_network';
    if (signs.refusal?.includes('OSDI-API-Token')) return 'its 401 asks for OSDI-API-Token';
    return undefined;
  },
  departures: {
    'entry-point.max-pagesize': 'names it max_page_size (docs/v2/aep)',
    'entry-point.version': 'names it osdi_version (docs/v2/aep)',
    'paging.totals':
      'people and some other collections carry no total_records or total_pages (docs/v2/people)',
    'paging.per-page': 'pages of 25 records at most (docs/v2/)',
    'errors.std-error': 'its error bodies are {"error": "..."} (docs/v2/)',
    'authentication.key-header': 'the key goes in OSDI-API-Token (docs/v2/)',
  },
};

/** Every server the checker knows. */
export const KNOWN_SERVERS: readonly KnownServer[] = [ACTION_NETWORK];

/**
 * The known server the signs point at, if any, with the evidence.
 *
 * @example
 * ```ts
 * detectServer({ url: 'https://actionnetwork.org/api/v2/', curies: [] })?.server.name; // 'Action Network'
 * ```
 */
export function detectServer(
  signs: ServerSigns,
): { server: KnownServer; evidence: string } | undefined {
  for (const server of KNOWN_SERVERS) {
    const evidence = server.recognise(signs);
    if (evidence !== undefined) return { server, evidence };
  }
  return undefined;
}

/**
 * `checks` as `server` documents itself: a failure of a rule its docs describe as its
 * way becomes a warn that says so and cites those docs.
 *
 * @example
 * ```ts
 * withDepartures(checks, ACTION_NETWORK); // entry-point.version: fail -> warn, "vendor difference (Action Network)"
 * ```
 */
export function withDepartures(checks: readonly Check[], server: KnownServer | undefined): Check[] {
  return checks.map((check) => {
    const departure = server?.departures[check.rule];
    if (!server || departure === undefined || check.status !== 'fail') return check;
    return {
      ...check,
      status: 'warn',
      message: `vendor difference (${server.name}): ${check.message}; its docs: ${departure}`,
      spec: server.docs,
    };
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

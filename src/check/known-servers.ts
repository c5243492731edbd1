/**
 * Servers `adis-check` recognises, as data: how to tell one, the `connect()` options
 * that work against it, and the departures from the specification its own docs
 * describe, each scoped to what its page says (departures.ts), which the report then
 * gives as vendor differences (`warn`), not failures.
 */
import type { Departure } from './departures.js';
import type { DetectedServer } from './report.js';

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
  /**
   * What its docs say it does where the specification says otherwise, each scoped to
   * the collection, members, method or header the page speaks of.
   */
  departures: readonly Departure[];
}

/** Action Network's API v2 docs, which its departures cite page by page. */
const AN_DOCS = 'https://actionnetwork.org/docs/v2/';

/**
 * Action Network's collections whose page says they are read only: the page lists no
 * create (its "POST/PUT/DELETE" scenario says they cannot be written), so a POST there
 * is refused, as HTTP refuses a method a resource does not allow (405).
 */
const AN_READ_ONLY: readonly { plural: string; does: string }[] = [
  {
    plural: 'lists',
    does: 'lists are read only: they are the reports and emails made in its interface',
  },
  { plural: 'items', does: "items are read only: they are a list's targets" },
  {
    plural: 'queries',
    does: 'queries are read only: they are saved targeting searches made in its interface',
  },
  {
    plural: 'wrappers',
    does: 'wrappers are read only: they are the email wrappers made in its interface',
  },
  { plural: 'campaigns', does: "campaigns are read only, and only a group's key sees them" },
];

/** Action Network's API v2, as its docs (actionnetwork.org/docs/v2/) describe it. */
export const ACTION_NETWORK: KnownServer = {
  name: 'Action Network',
  preset: 'actionNetwork',
  docs: AN_DOCS,
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
  departures: [
    {
      rule: 'entry-point.version',
      scope: { members: ['std_version'], missing: true },
      does: 'its entry point gives the version as osdi_version ("1.1.1")',
      page: `${AN_DOCS}aep`,
    },
    {
      rule: 'entry-point.max-pagesize',
      scope: { members: ['max_pagesize'], missing: true },
      does: 'its entry point gives the largest page as max_page_size (25)',
      page: `${AN_DOCS}aep`,
    },
    {
      rule: 'paging.totals',
      scope: { collection: 'people', members: ['total_records', 'total_pages'], missing: true },
      does: 'people pages leave out total_records and total_pages, to answer faster (since 2 September 2016)',
      page: `${AN_DOCS}people`,
    },
    {
      rule: 'paging.totals',
      scope: { collection: 'items', members: ['total_records', 'total_pages'], missing: true },
      does: 'item pages leave out total_records and total_pages, to answer faster',
      page: `${AN_DOCS}items`,
    },
    {
      rule: 'authentication.key-header',
      scope: { header: 'OSDI-API-Token' },
      does: 'the key goes in the OSDI-API-Token header',
      page: AN_DOCS,
    },
    {
      rule: 'errors.std-error',
      scope: { members: ['error'] },
      does: 'an error body is an object whose one member, error, holds the message',
      page: AN_DOCS,
    },
    ...AN_READ_ONLY.map(
      ({ plural, does }): Departure => ({
        rule: 'writes.create',
        scope: { collection: plural, method: 'POST', status: 405 },
        does,
        page: `${AN_DOCS}${plural}`,
      }),
    ),
  ],
};

/** Every server the checker knows. */
export const KNOWN_SERVERS: readonly KnownServer[] = [ACTION_NETWORK];

/**
 * The known server the signs point at, if any, with the evidence.
 *
 * @example
 * ```ts
 * import { detectServer } from 'adis-sdk/check';
 *
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

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * What `adis-check` reports: one {@link Check} per rule it tried, grouped by area, and
 * what it learnt of the server. Plain data, so that `--json` prints it as it is.
 */
import type { Requirement } from './requirements.js';

/** The outcome of one check. `skip`: the check could not or need not run here. */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** Every status, in the order a report counts them. */
export const CHECK_STATUSES = [
  'pass',
  'warn',
  'fail',
  'skip',
] as const satisfies readonly CheckStatus[];

/** The areas of a report, in the order it prints them. */
export const CHECK_AREAS = [
  'entry point',
  'collections',
  'records',
  'relations',
  'filtering',
  'errors',
  'authentication',
  'rate limiting',
  'cors',
  'content types',
  'writes',
] as const;

/** Where a check belongs in the report. */
export type CheckArea = (typeof CHECK_AREAS)[number];

/**
 * One rule checked against the server.
 *
 * @example
 * ```ts
 * import type { Check } from 'adis-sdk/check';
 *
 * const check: Check = {
 *   area: 'collections', rule: 'paging.next-loops', status: 'fail', requirement: 'required',
 *   message: 'people: next of page 3 leads back to page 1', spec: 'Collection document',
 * };
 * ```
 */
export interface Check {
  area: CheckArea;
  /** A stable name of the rule, `<topic>.<rule>`, the same in every report. */
  rule: string;
  status: CheckStatus;
  /**
   * How far the specification asks for what the rule checks (requirements.ts): what is
   * `required` and missing fails, what is `optional` and missing warns.
   */
  requirement: Requirement;
  /** One line: what was found, naming the collection, record or header concerned. */
  message: string;
  /** Where the specification (or, for a vendor difference, the vendor's docs) says so. */
  spec?: string;
  /** The URL the check was made against, when it was one URL. */
  url?: string;
}

/** What the entry point says of the server. */
export interface ServerInfo {
  /** The entry point URL checked. */
  url: string;
  vendor?: string;
  product?: string;
  /** `std_version` (or a vendor's `<prefix>_version`). */
  version?: string;
  namespace?: string;
  /** The curie names the entry point declares. */
  curies: string[];
  /** The collections it links, by plural (`people`, `petitions`, …). */
  collections: string[];
}

/** A known server recognised from its entry point, curies or 401. */
export interface DetectedServer {
  /** Its name, `Action Network`. */
  name: string;
  /** The SDK's preset for it (`actionNetwork`), exported by `adis-sdk`. */
  preset: string;
  /** What makes it recognisable, in a few words. */
  evidence: string;
  /** `connect()` options that work against it (spread the preset, then your key). */
  connectOptions: { apiKeyHeader: string; curiePrefix: string; rateLimit?: number };
  /** Its documentation, which its vendor differences cite. */
  docs: string;
}

/**
 * The whole report of {@link checkServer}.
 *
 * @example
 * ```ts
 * import { checkServer } from 'adis-sdk/check';
 *
 * const report = await checkServer('https://api.example.org/api/v1/', { apiKey: process.env.ADIS_KEY });
 * if (report.counts.fail > 0) process.exitCode = 1;
 * ```
 */
export interface CheckReport {
  server: ServerInfo;
  detected: DetectedServer | null;
  checks: Check[];
  counts: Record<CheckStatus, number>;
  /** Requests sent, and of them refused with 429. */
  requests: { sent: number; rateLimited: number; methods: Record<string, number> };
  /** Whether writes were allowed (`--write`). */
  write: boolean;
}

/**
 * Counts the checks by status.
 *
 * @example
 * ```ts
 * import { countChecks } from 'adis-sdk/check';
 *
 * countChecks([{ area: 'errors', rule: 'x', status: 'pass', requirement: 'required', message: '' }]).pass; // 1
 * ```
 */
export function countChecks(checks: readonly Check[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const check of checks) counts[check.status]++;
  return counts;
}

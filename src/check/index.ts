/**
 * `adis-sdk/check`: what a server supports of the specification and where it departs
 * from it ({@link checkServer}), the library behind the `adis-check` command. An entry
 * of its own, so that the main and browser entries do not carry it.
 */
export { type CheckOptions, CheckUsageError, checkServer } from './check-server.js';
export type { Departure, FindingScope } from './departures.js';
export { formatReport } from './format-report.js';
export {
  ACTION_NETWORK,
  detectServer,
  KNOWN_SERVERS,
  type KnownServer,
  type ServerSigns,
} from './known-servers.js';
export { RequestBudgetError } from './prober.js';
export {
  CHECK_AREAS,
  CHECK_STATUSES,
  type Check,
  type CheckArea,
  type CheckReport,
  type CheckStatus,
  countChecks,
  type DetectedServer,
  type ServerInfo,
} from './report.js';
export {
  REQUIREMENTS,
  type Requirement,
  RULE_REQUIREMENTS,
  type RuleName,
} from './requirements.js';

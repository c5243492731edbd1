/**
 * A known server's documented departures from the specification, and how they excuse a
 * finding: each departure is scoped to what its vendor's page says (which collection,
 * which members, which method, header or answer), and excuses only a finding whose
 * subject lies within that scope. Anything outside it is judged as for any server: a
 * vendor documenting that its people carry no totals excuses no wrong total elsewhere.
 */
import type { CheckStatus } from './report.js';
import type { RuleName } from './requirements.js';

/**
 * What a finding is about, as far as a vendor's docs can speak of it; in a
 * {@link Departure}, what the docs speak of. A key the scope leaves out is any value.
 */
export interface FindingScope {
  /** The collection, by its plural (`people`, `lists`). */
  collection?: string;
  /** The members of a document or body concerned (`total_records`, `std_version`). */
  members?: readonly string[];
  /** The request's method (`POST`). */
  method?: string;
  /** A request header (`OSDI-API-Token`), compared ignoring case. */
  header?: string;
  /** The answer's status (405). */
  status?: number;
  /**
   * Whether the finding is that the members are missing. A departure that documents a
   * member left out is `missing: true`, and excuses no value that is there and wrong.
   */
  missing?: boolean;
}

/** One departure a server's own docs describe. */
export interface Departure {
  /** The rule whose finding it excuses. */
  rule: RuleName;
  /** Where the docs say the server does so; a finding outside it is not excused. */
  scope: FindingScope;
  /** What the server does there, in a few words (ours, not the vendor's). */
  does: string;
  /** The page of the vendor's docs that says so. */
  page: string;
}

/** A finding as judged: its status, message and, when a departure excused it, the page. */
export interface Judgement {
  status: CheckStatus;
  message: string;
  /** The vendor's page that documents the departure, when one excused the finding. */
  page?: string;
}

/**
 * Whether a finding about `subject` lies within `scope`: every key the scope names
 * matches, and a subject's members are all among the scope's.
 *
 * @example
 * ```ts
 * import { withinScope } from './departures.js';
 *
 * withinScope({ collection: 'people', missing: true }, { collection: 'people', members: ['total_pages'], missing: true }); // true
 * withinScope({ collection: 'people' }, { collection: 'tags' }); // false
 * ```
 */
export function withinScope(scope: FindingScope, subject: FindingScope): boolean {
  if (scope.collection !== undefined && subject.collection !== scope.collection) return false;
  if (scope.method !== undefined && subject.method?.toUpperCase() !== scope.method.toUpperCase())
    return false;
  if (scope.header !== undefined && subject.header?.toLowerCase() !== scope.header.toLowerCase())
    return false;
  if (scope.status !== undefined && subject.status !== scope.status) return false;
  if (scope.missing !== undefined && (subject.missing ?? false) !== scope.missing) return false;
  if (scope.members !== undefined) {
    const members = subject.members ?? [];
    if (members.length === 0 || !members.every((member) => scope.members?.includes(member)))
      return false;
  }
  return true;
}

/**
 * A finding of `rule` about `subject` as `server` documents itself: a fail or warn
 * within the scope of one of its departures is a warn that says *vendor difference*,
 * cites the page, and says what the docs describe; anything else is as found. A finding
 * with no subject is never excused.
 *
 * @example
 * ```ts
 * import { judge } from './departures.js';
 * import { ACTION_NETWORK } from './known-servers.js';
 *
 * judge(ACTION_NETWORK, 'paging.totals', 'fail', 'tags: total_pages 3 does not match…', { collection: 'tags', members: ['total_pages'] });
 * // { status: 'fail', … }: Action Network documents no totals on people, nothing of tags
 * ```
 */
export function judge(
  server: { readonly name: string; readonly departures: readonly Departure[] } | undefined,
  rule: RuleName,
  status: CheckStatus,
  message: string,
  subject?: FindingScope,
): Judgement {
  if (!server || !subject || (status !== 'fail' && status !== 'warn')) return { status, message };
  const departure = server.departures.find(
    (candidate) => candidate.rule === rule && withinScope(candidate.scope, subject),
  );
  if (!departure) return { status, message };
  return {
    status: 'warn',
    message: `vendor difference (${server.name}): ${message}; its docs: ${departure.does}`,
    page: departure.page,
  };
}

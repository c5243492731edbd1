/**
 * How far the specification asks for what each rule checks, as data: one level a rule,
 * declared here once, carried by every check of the report (`requirement`) and shown in
 * the text report. The level decides what something missing is (see
 * {@link missingStatus}); a value that is there and wrong is judged by the rule itself.
 *
 * The levels follow the specification's own words. Its numbered rules and its tables of
 * answers (the status codes, what a collection document holds, the entry point's links)
 * say what a server does: `required`. Its tables of fields list what a server may have,
 * and its service rule 4 leaves each system to choose "which fields it implements":
 * `optional`. What it does not speak of (browsers, HTTP's 429, filtering, which it
 * leaves "not shown") is the checker's `advice`, from HTTP, HAL, the reading notes and
 * servers in the wild.
 */

/** How far the specification asks for what a rule checks. */
export type Requirement = 'required' | 'optional' | 'advice' | 'run';

/**
 * Every level with what it means for a check: the order a report's reader meets them.
 *
 * @example
 * ```ts
 * import { REQUIREMENTS } from 'adis-sdk/check';
 *
 * REQUIREMENTS.optional; // 'the specification lists it and lets a server leave it out: …'
 * ```
 */
export const REQUIREMENTS: Readonly<Record<Requirement, string>> = {
  required: 'the specification requires it: missing or wrong is a fail',
  optional:
    'the specification lists it and lets a server leave it out: missing is a warn, present and wrong a fail',
  advice:
    'the specification does not speak of it (HTTP, HAL, browsers, servers in the wild): missing is at most a warn',
  run: "about the run itself, not the server's conformance: the budget, a link not followed, what the checker left behind",
};

/**
 * The level of every rule the checker reports, by its stable name. The names are the
 * type of the rules the checks may add, so that a rule without a level does not compile.
 *
 * @example
 * ```ts
 * import { RULE_REQUIREMENTS } from 'adis-sdk/check';
 *
 * RULE_REQUIREMENTS['entry-point.max-pagesize']; // 'optional': listed, not required
 * ```
 */
export const RULE_REQUIREMENTS = {
  // The entry point: "GET {base_url}/ → API Entry Point document", in HAL+JSON (service rule 1).
  'entry-point.status': 'required',
  'entry-point.content-type': 'required',
  'entry-point.json': 'required',
  'entry-point.hal': 'required',
  // The entry point's links list self among the others; none of them is said to be required.
  'entry-point.self': 'optional',
  // "The curies list has one entry: name std, an href template containing {rel}, templated true."
  'entry-point.curies': 'required',
  // HAL's CURIE draft, not the specification: and the reading notes say clients survive it.
  'entry-point.curie-undeclared': 'advice',
  'entry-point.curie-docs': 'advice',
  // Versioning rule 1: "The interface version is given in the entry point field std_version."
  'entry-point.version': 'required',
  // Listed in the entry point's table (and where the Limits table says the limit is
  // stated), but a field of a resource: each system chooses the fields it implements.
  'entry-point.max-pagesize': 'optional',
  'entry-point.fields': 'optional',
  // Clients start at the entry point and follow its links (service rule 2).
  'entry-point.collections': 'required',
  // Collections: the answers table (200) and the collection document's table.
  'paging.status': 'required',
  'paging.json': 'required',
  'paging.page-number': 'optional',
  'paging.per-page': 'optional',
  'paging.totals': 'optional',
  'paging.embedded': 'required',
  // "_links.next: present when a further page exists; its href carries page=<page_number>."
  'paging.next': 'required',
  'paging.next-loops': 'required',
  'paging.repeats': 'required',
  // The specification has no prev; HAL's convention, and the SDK reads it.
  'paging.prev': 'advice',
  'paging.empty-page': 'advice',
  // Records: their fields are the server's choice, but a field that is there has its type.
  'records.types': 'optional',
  'records.values': 'optional',
  'records.members': 'advice',
  'records.vendor-members': 'advice',
  // Records of a page are "fully represented with their own _links"; an href is canonical.
  'records.self': 'required',
  'records.self-fetch': 'required',
  'relations.answer': 'required',
  // "Query parameters for filtering or sorting collections: not shown."
  'filtering.modified-date': 'advice',
  // The answers table (404) and the error object.
  'errors.not-found': 'required',
  'errors.std-error': 'required',
  // Authentication rules 1 and 2: the header, 401 for a key that is not valid.
  'authentication.key-header': 'required',
  'authentication.required': 'required',
  'authentication.wrong-key': 'required',
  'authentication.401-body': 'required',
  // "Rate limits: not shown": Retry-After is HTTP's (RFC 6585, RFC 9110).
  'rate-limit.retry-after': 'advice',
  'cors.preflight-key': 'advice',
  'cors.helper-preflight': 'advice',
  'cors.allow-origin': 'advice',
  'content-types.json-answers': 'required',
  // The answers table: create 201, update 200, delete 204; helper calls answer their record.
  'writes.create': 'required',
  'writes.read-back': 'required',
  'writes.round-trip': 'required',
  'writes.delete': 'required',
  'writes.helper': 'required',
  // Action Network's docs and the reading notes, not the specification.
  'writes.background-processing': 'advice',
  'writes.idempotency-key': 'advice',
  'writes.cleanup': 'run',
  // Lines about the run: the budget spent, a server that stopped answering, an area that
  // could not finish, a link to another origin not followed.
  budget: 'run',
  network: 'run',
  'checker.stopped': 'run',
  'checker.other-origin': 'run',
} as const satisfies Readonly<Record<string, Requirement>>;

/** The name of a rule the checker reports (`paging.totals`). */
export type RuleName = keyof typeof RULE_REQUIREMENTS;

/**
 * What `rule` finding its subject missing is: a fail when the specification requires
 * it, a warn otherwise (a server may leave out what the specification only lists).
 */
export function missingStatus(rule: RuleName): 'fail' | 'warn' {
  return RULE_REQUIREMENTS[rule] === 'required' ? 'fail' : 'warn';
}

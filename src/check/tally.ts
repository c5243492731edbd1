/**
 * Findings of one rule over many subjects (every collection, every record of a page),
 * folded into one check a rule: its worst status, the problems named (the first few),
 * and how many subjects passed. A report of 23 collections stays readable.
 */
import type { CheckContext } from './context.js';
import type { CheckArea, CheckStatus } from './report.js';

const RANK: Record<CheckStatus, number> = { skip: 0, pass: 1, warn: 2, fail: 3 };
const NAMED = 5;

interface Finding {
  area: CheckArea;
  spec?: string;
  passed: string[];
  problems: { status: CheckStatus; text: string }[];
  skipped: string[];
}

/**
 * Collects findings by rule, then adds one check a rule.
 *
 * @example
 * ```ts
 * const tally = new Tally();
 * tally.pass('records', 'records.self', 'people', SPEC.resources);
 * tally.problem('records', 'records.self', 'fail', 'petitions: 3 records without self', SPEC.resources);
 * tally.addTo(context, (rule, passed) => `${passed.length} collections`);
 * ```
 */
export class Tally {
  readonly #rules = new Map<string, Finding>();

  #finding(area: CheckArea, rule: string, spec?: string): Finding {
    let finding = this.#rules.get(rule);
    if (!finding) {
      finding = { area, spec, passed: [], problems: [], skipped: [] };
      this.#rules.set(rule, finding);
    }
    return finding;
  }

  /** `subject` (a collection's plural) met the rule. */
  pass(area: CheckArea, rule: string, subject: string, spec?: string): void {
    this.#finding(area, rule, spec).passed.push(subject);
  }

  /** A problem with the rule, described in `text` (which names its subject). */
  problem(
    area: CheckArea,
    rule: string,
    status: 'warn' | 'fail',
    text: string,
    spec?: string,
  ): void {
    this.#finding(area, rule, spec).problems.push({ status, text });
  }

  /** The rule could not be checked on `subject`. */
  skip(area: CheckArea, rule: string, subject: string, spec?: string): void {
    this.#finding(area, rule, spec).skipped.push(subject);
  }

  /** Adds one check a rule to `context`; `what` says what the passes were. */
  addTo(context: CheckContext, what: (rule: string, passed: readonly string[]) => string): void {
    for (const [rule, finding] of this.#rules) {
      // The rule's worst finding is its status; its problems are named first, the passes summarised.
      const status = finding.problems.reduce<CheckStatus>(
        (worst, problem) => (RANK[problem.status] > RANK[worst] ? problem.status : worst),
        finding.passed.length > 0 ? 'pass' : 'skip',
      );
      const parts: string[] = [];
      if (finding.problems.length > 0) {
        const named = finding.problems.slice(0, NAMED).map((problem) => problem.text);
        const more = finding.problems.length - named.length;
        parts.push(named.join('; ') + (more > 0 ? `; and ${more} more` : ''));
      }
      if (finding.passed.length > 0) parts.push(`${what(rule, finding.passed)}: ok`);
      if (finding.skipped.length > 0 && finding.passed.length + finding.problems.length === 0) {
        parts.push(`not checked: ${finding.skipped.join(', ')}`);
      }
      context.add(
        finding.area,
        rule,
        status,
        parts.join('; '),
        finding.spec ? { spec: finding.spec } : {},
      );
    }
  }
}

/**
 * Findings of one rule over many subjects (every collection, every record of a page),
 * folded into one check a rule: its worst status, the problems named (the first few),
 * and how many subjects passed. A report of 23 collections stays readable. Each problem
 * is judged against the recognised server's departures on its own, before the fold: a
 * departure Action Network documents for people excuses the people problem only, and a
 * problem of another collection under the same rule still fails the rule.
 */
import type { CheckContext } from './context.js';
import { type FindingScope, judge } from './departures.js';
import type { CheckArea, CheckStatus } from './report.js';
import type { RuleName } from './requirements.js';

const RANK: Record<CheckStatus, number> = { skip: 0, pass: 1, warn: 2, fail: 3 };
const NAMED = 5;

interface Finding {
  area: CheckArea;
  spec?: string;
  passed: string[];
  problems: { status: CheckStatus; text: string; spec?: string; subject?: FindingScope }[];
  skipped: string[];
}

/** Collects findings by rule, then adds one check a rule. */
export class Tally {
  readonly #rules = new Map<RuleName, Finding>();

  #finding(area: CheckArea, rule: RuleName, spec?: string): Finding {
    let finding = this.#rules.get(rule);
    if (!finding) {
      finding = { area, spec, passed: [], problems: [], skipped: [] };
      this.#rules.set(rule, finding);
    }
    return finding;
  }

  /** `subject` (a collection's plural) met the rule. */
  pass(area: CheckArea, rule: RuleName, subject: string, spec?: string): void {
    this.#finding(area, rule, spec).passed.push(subject);
  }

  /**
   * A problem with the rule, described in `text` (which names its subject); `subject`
   * says what it is about, for a known server's departures to be judged against.
   */
  problem(
    area: CheckArea,
    rule: RuleName,
    status: 'warn' | 'fail',
    text: string,
    spec?: string,
    subject?: FindingScope,
  ): void {
    this.#finding(area, rule, spec).problems.push({ status, text, spec, subject });
  }

  /** The rule could not be checked on `subject`. */
  skip(area: CheckArea, rule: RuleName, subject: string, spec?: string): void {
    this.#finding(area, rule, spec).skipped.push(subject);
  }

  /** Adds one check a rule to `context`; `what` says what the passes were. */
  addTo(context: CheckContext, what: (rule: string, passed: readonly string[]) => string): void {
    for (const [rule, finding] of this.#rules) {
      const problems = finding.problems.map((problem) => ({
        ...judge(context.detected, rule, problem.status, problem.text, problem.subject),
        spec: problem.spec,
      }));
      // The rule's worst finding is its status; its problems are named first (the real
      // ones before the vendor's documented ones), the passes summarised.
      const status = problems.reduce<CheckStatus>(
        (worst, problem) => (RANK[problem.status] > RANK[worst] ? problem.status : worst),
        finding.passed.length > 0 ? 'pass' : 'skip',
      );
      const weight = (problem: (typeof problems)[number]) =>
        2 * RANK[problem.status] + (problem.page === undefined ? 1 : 0);
      problems.sort((a, b) => weight(b) - weight(a));
      // Cited: the vendor's pages when every problem is a documented departure, else
      // what the worst problem departs from (a rule's problems may cite different sections).
      const pages = new Set(problems.map((problem) => problem.page));
      const spec =
        problems.length > 0 && !pages.has(undefined)
          ? [...pages].join(', ')
          : (problems[0]?.spec ?? finding.spec);
      const parts: string[] = [];
      if (problems.length > 0) {
        const named = problems.slice(0, NAMED).map((problem) => problem.message);
        const more = problems.length - named.length;
        parts.push(named.join('; ') + (more > 0 ? `; and ${more} more` : ''));
      }
      if (finding.passed.length > 0) parts.push(`${what(rule, finding.passed)}: ok`);
      if (finding.skipped.length > 0 && finding.passed.length + finding.problems.length === 0) {
        parts.push(`not checked: ${finding.skipped.join(', ')}`);
      }
      // Judged above, problem by problem: added without a subject, it is not judged again.
      context.add(finding.area, rule, status, parts.join('; '), spec ? { spec } : {});
    }
  }
}

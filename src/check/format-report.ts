/**
 * The readable report: the server, the known server recognised (and the `connect()`
 * options that work against it), the checks grouped by area, each with its status and
 * its rule's requirement level, and the counts.
 */
import { CHECK_AREAS, type CheckReport, type CheckStatus } from './report.js';
import { REQUIREMENTS } from './requirements.js';

const MARK: Record<CheckStatus, string> = {
  pass: 'pass',
  warn: 'WARN',
  fail: 'FAIL',
  skip: 'skip',
};

/** The levels padded to one width, so that the rule names line up. */
const LEVEL_WIDTH = Math.max(...Object.keys(REQUIREMENTS).map((level) => level.length));

/**
 * The report as text, for a terminal or a CI log.
 *
 * @example
 * ```ts
 * import { checkServer, formatReport } from 'adis-sdk/check';
 *
 * const report = await checkServer('https://api.example.org/api/v1/', { apiKey: process.env.ADIS_KEY });
 * process.stdout.write(formatReport(report));
 * ```
 */
export function formatReport(report: CheckReport): string {
  const lines: string[] = [];
  const { server } = report;
  lines.push(`adis-check ${server.url}`);
  const about = [
    server.vendor,
    server.product,
    server.version && `version ${server.version}`,
    server.namespace && `namespace ${server.namespace}`,
  ].filter(Boolean);
  if (about.length > 0) lines.push(`  ${about.join(', ')}`);
  if (report.detected) {
    const { detected } = report;
    lines.push(`  detected: ${detected.name} (${detected.evidence})`);
    lines.push(
      `  connect with: connect(url, { ...${detected.preset}, apiKey })  // ${JSON.stringify(detected.connectOptions)}`,
    );
  }
  for (const area of CHECK_AREAS) {
    const checks = report.checks.filter((check) => check.area === area);
    if (checks.length === 0) continue;
    lines.push('', `${area}`);
    for (const check of checks) {
      lines.push(
        `  ${MARK[check.status]}  ${check.requirement.padEnd(LEVEL_WIDTH)}  ${check.rule}: ${check.message}${check.spec && check.status !== 'pass' ? `  [${check.spec}]` : ''}`,
      );
    }
  }
  const { counts, requests } = report;
  lines.push(
    '',
    `${counts.pass} passed, ${counts.warn} warnings, ${counts.fail} failed, ${counts.skip} skipped; ${requests.sent} requests (${Object.entries(
      requests.methods,
    )
      .map(([method, n]) => `${n} ${method}`)
      .join(
        ', ',
      )})${requests.rateLimited ? `, ${requests.rateLimited} answered 429` : ''}${report.write ? '' : '; read-only (--write to test writes)'}`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The last line of `npm run test:runtimes`: how many runtimes passed, of those that ran,
 * and which were skipped and why. A skipped runtime is never counted as passed: "7 of 7"
 * while Chromium was not there would claim a browser run that never happened.
 */

/** One runtime's end, as the summary needs it. */
export interface RuntimeEnd {
  name: string;
  /** Whether every check passed (ignored when skipped). */
  ok: boolean;
  /** Why it did not run at all. */
  skipped?: string;
}

/**
 * The summary line.
 *
 * @example
 * ```ts
 * runtimesSummary([{ name: 'node20', ok: true }, { name: 'chromium', ok: false, skipped: 'no /usr/bin/chromium' }], 12.3);
 * // '1 of 1 runtimes run passed the suite in 12.3 s; 1 skipped: chromium (no /usr/bin/chromium)'
 * ```
 */
export function runtimesSummary(ends: readonly RuntimeEnd[], seconds: number): string {
  const ran = ends.filter((end) => end.skipped === undefined);
  const passed = ran.filter((end) => end.ok).length;
  const skipped = ends.filter((end) => end.skipped !== undefined);
  const line = `${passed} of ${ran.length} ${ran.length === 1 ? 'runtime' : 'runtimes'} run passed the suite in ${seconds.toFixed(1)} s`;
  if (skipped.length === 0) return line;
  const which = skipped.map((end) => `${end.name} (${end.skipped})`).join(', ');
  return `${line}; ${skipped.length} skipped: ${which}`;
}

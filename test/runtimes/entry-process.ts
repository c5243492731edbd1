/**
 * The suite as a program, for runtimes that run a file (Node, Bun, Deno). The runner
 * bundles this file with the suite's config compiled in (so that no runtime's way of
 * reading arguments or the environment is needed) and the package left external, so
 * that each runtime resolves `adis-sdk` itself. It prints one marked line of results.
 */
import { RESULT_MARKER, runSuite, type SuiteConfig } from './suite.js';

declare const __ADIS_SUITE_CONFIG__: SuiteConfig;

console.log(RESULT_MARKER + JSON.stringify(await runSuite(__ADIS_SUITE_CONFIG__)));

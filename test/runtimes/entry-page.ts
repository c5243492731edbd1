/**
 * The suite in a web page (run in headless Chromium): the runner serves a page with
 * this bundle as its module script, from a loopback origin other than the reference
 * server's (so every call is a CORS call, as from a real page), and reads the results
 * the page leaves on `globalThis`.
 */
import { runSuite, type SuiteConfig } from './suite.js';

declare const __ADIS_SUITE_CONFIG__: SuiteConfig;

(globalThis as { adisRuntimeResults?: unknown }).adisRuntimeResults =
  await runSuite(__ADIS_SUITE_CONFIG__);

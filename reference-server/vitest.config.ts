import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The SDK's schema layer by its published name, as tsconfig.json maps it for tsc,
    // tsx and tsup: its source, so the tests run against the SDK as it is now.
    alias: { 'adis-sdk/schema': fileURLToPath(new URL('../src/schema/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // A PostgreSQL cluster for the run (ADIS_TEST_POSTGRES_URL, or a throwaway one).
    globalSetup: ['test/postgres/global-setup.ts'],
  },
});

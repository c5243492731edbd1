import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The SDK's schema layer and server kit by their published names, as tsconfig.json maps it for tsc,
    // tsx and tsup: its source, so the tests run against the SDK as it is now.
    alias: {
      'adis-sdk/schema': fileURLToPath(new URL('../src/schema/index.ts', import.meta.url)),
      'adis-sdk/server-kit': fileURLToPath(new URL('../src/server-kit/index.ts', import.meta.url)),
      // For a test only (webhook-delivery-kit): the SDK's receiver takes the deliveries.
      'adis-sdk/webhooks': fileURLToPath(new URL('../src/webhooks/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    // Bounds on a hang, not speed targets: a test or hook that starts servers or a compiler
    // takes up to half of 20 s on a two-core machine running two files at once.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two files at a time even on two cores (vitest's default is one fewer than the
    // cores): most of a file's time is spent waiting on the servers, child processes
    // and sockets it starts, so a second worker halves the wall time, not the CPU's.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A PostgreSQL cluster for the run (ADIS_TEST_POSTGRES_URL, or a throwaway one).
    globalSetup: ['test/postgres/global-setup.ts'],
  },
});

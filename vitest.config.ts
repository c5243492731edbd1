import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The reference server's source, which the tests start, imports the SDK's schema
    // layer and server kit by their published names: map it to the source (as tsconfig.json does).
    alias: {
      'adis-sdk/schema': fileURLToPath(new URL('./src/schema/index.ts', import.meta.url)),
      'adis-sdk/server-kit': fileURLToPath(new URL('./src/server-kit/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/browser/**'], // own config: vitest.browser.config.ts
    environment: 'node',
    // Bounds on a hang, not speed targets: a test or hook that starts servers or a compiler
    // takes up to half of 20 s on a two-core machine running two files at once.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two files at a time even on two cores (vitest's default is one fewer than the
    // cores): most of a file's time is spent waiting on the servers, child processes
    // and sockets it starts, so a second worker halves the wall time, not the CPU's.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The browser tests (test/browser) run apart from `vitest run`: they start Chromium,
// which the unit and end-to-end runs must not need. `npm run test:browser` runs them.
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
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

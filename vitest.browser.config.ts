import { defineConfig } from 'vitest/config';

// The browser tests (test/browser) run apart from `vitest run`: they start Chromium,
// which the unit and end-to-end runs must not need. `npm run test:browser` runs them.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

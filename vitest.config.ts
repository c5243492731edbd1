import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/browser/**'], // own config: vitest.browser.config.ts
    environment: 'node',
    testTimeout: 20_000,
  },
});

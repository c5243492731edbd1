import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The reference server's source, which the tests start, imports the SDK's schema
    // layer by its published name: map it to the source (as tsconfig.json does).
    alias: { 'adis-sdk/schema': fileURLToPath(new URL('./src/schema/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/browser/**'], // own config: vitest.browser.config.ts
    environment: 'node',
    testTimeout: 20_000,
  },
});

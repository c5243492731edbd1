import { defineConfig } from 'tsup';

// The published adis-server package: ESM only (it needs Node and a native SQLite
// binding, so no bundler or CommonJS consumer is served by a second build). The SDK's
// schema layer it imports as `adis-sdk/schema` (mapped to `../src/schema/` by
// tsconfig.json's `paths`, which esbuild follows) is bundled in, so the server validates
// with exactly the schemas of the SDK it was built with. msw stays
// external: the testing entry must use the user's own msw, or its handlers would not be
// the instances their setupServer() knows.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts', testing: 'src/testing.ts' },
  external: ['msw'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  platform: 'node',
});

import { defineConfig } from 'tsup';

// The published adis-server package: ESM only (it needs Node and a native SQLite
// binding, so no bundler or CommonJS consumer is served by a second build). The SDK's
// entries it imports, `adis-sdk/schema` and `adis-sdk/server-kit` (mapped to their source
// by tsconfig.json's `paths`, which esbuild follows), are bundled in, so the server
// validates with exactly the schemas of the SDK it was built with. msw stays
// external: the testing entry must use the user's own msw, or its handlers would not be
// the instances their setupServer() knows.
//
// The testing entry's types come twice: `dist/testing.d.ts` for test files that are ES
// modules and `dist/testing.d.cts` for CommonJS ones (a project made by `npm init -y`,
// compiled with `module: nodenext`). msw declares its types once per module format, and
// its handler class has protected members, so `kit.handlers` must be typed by the msw
// declarations the test file itself sees, or `setupServer(...kit.handlers)` does not
// compile there. At run time both are the ES module (test runners load it as one).
export default defineConfig([
  {
    entry: { index: 'src/index.ts', cli: 'src/cli.ts', testing: 'src/testing.ts' },
    external: ['msw'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'node',
  },
  {
    entry: { testing: 'src/testing.ts' },
    external: ['msw'],
    format: ['cjs'],
    dts: { only: true },
    target: 'es2022',
    platform: 'node',
  },
]);

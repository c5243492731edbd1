import { defineConfig } from 'tsup';

// Three library entries: `adis-sdk` (index), the light browser entry `adis-sdk/helpers`
// (helpers), which uses fetch alone, and the pure schema layer `adis-sdk/schema` (the
// resource kinds as data). The ESM build shares their common code in chunks, and code
// loaded on demand (helper bodies, URI templates) gets chunks of its own.
//
// ky is ESM-only: the CJS build must carry it inside, or `require('adis-sdk')`
// fails at run time with `import_ky.default.create is not a function`.
export default defineConfig([
  {
    // The `adis-export` command (bin) is built with the ESM library, so that it shares
    // the SDK's chunk instead of carrying a second copy; it keeps its shebang line.
    entry: {
      index: 'src/index.ts',
      helpers: 'src/helpers/index.ts',
      schema: 'src/schema/index.ts',
      'export-cli': 'src/cli/export-cli.ts',
    },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
  },
  {
    entry: {
      index: 'src/index.ts',
      helpers: 'src/helpers/index.ts',
      schema: 'src/schema/index.ts',
    },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    noExternal: ['ky'],
    treeshake: true,
  },
]);

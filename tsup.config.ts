import { defineConfig } from 'tsup';

// Two library entries: `adis-sdk` (index) and the light browser entry `adis-sdk/helpers`
// (helpers), which uses fetch alone; the ESM build shares their common code in chunks.
// A third build is the `adis-export` command line tool.
//
// ky is ESM-only: the CJS build must carry it inside, or `require('adis-sdk')`
// fails at run time with `import_ky.default.create is not a function`.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', helpers: 'src/helpers/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
  },
  {
    entry: { index: 'src/index.ts', helpers: 'src/helpers/index.ts' },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    noExternal: ['ky'],
    treeshake: true,
  },
  {
    // The `adis-export` command (bin): Node only, ESM, no types (nothing imports it).
    // It keeps its shebang line, and imports the SDK's dependencies from node_modules.
    entry: { 'export-cli': 'src/cli/export-cli.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    treeshake: true,
  },
]);

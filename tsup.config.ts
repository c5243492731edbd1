import { defineConfig } from 'tsup';

// Two library entries: `adis-sdk` (index) and the light browser entry `adis-sdk/helpers`
// (helpers), which uses fetch alone; the ESM build shares their common code in chunks.
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
    entry: { index: 'src/index.ts', helpers: 'src/helpers/index.ts' },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    noExternal: ['ky'],
    treeshake: true,
  },
]);

import { defineConfig } from 'tsup';

// ky is ESM-only: the CJS build must carry it inside, or `require('adis-sdk')`
// fails at run time with `import_ky.default.create is not a function`.
export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    noExternal: ['ky'],
    treeshake: true,
  },
]);

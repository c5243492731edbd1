import { defineConfig } from 'tsup';

// Three library entries: `adis-sdk` (index), the light browser entry `adis-sdk/helpers`
// (helpers), which uses fetch alone, and the pure schema layer `adis-sdk/schema` (the
// resource kinds as data).
//
// The ESM build is not bundled: one file per source module, so that an application's
// bundler (with `sideEffects: false`) drops every module it does not use, such as the
// kinds a `connectWith([personKind])` never names. A bundled file would keep them: a
// kind is built by a top-level call, which a bundler cannot prove free of effects.
// Its types are bundled per entry.
//
// ky is ESM-only: the CJS build must carry it inside, or `require('adis-sdk')`
// fails at run time with `import_ky.default.create is not a function`.
export default defineConfig([
  {
    // The `adis-export` command (bin, dist/cli/export-cli.js) is emitted with the ESM
    // library; it keeps its shebang line.
    entry: ['src/**/*.ts'],
    bundle: false,
    format: ['esm'],
    dts: {
      entry: {
        index: 'src/index.ts',
        helpers: 'src/helpers/index.ts',
        schema: 'src/schema/index.ts',
      },
    },
    sourcemap: true,
    clean: true,
    target: 'es2022',
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

import { defineConfig, type Options } from 'tsup';

// Seven library entries: `adis-sdk` (index), the light browser entry `adis-sdk/helpers`
// (helpers), which uses fetch alone, the pure schema layer `adis-sdk/schema` (the
// resource kinds as data), the webhook receiver `adis-sdk/webhooks` (light too), the
// conformance checker `adis-sdk/check` (behind the `adis-check` command), the sync
// engine `adis-sdk/sync` (behind the `adis-sync` command; its file state is Node's), and
// the server kit `adis-sdk/server-kit` (what a server takes of the SDK).
//
// The ESM build is not bundled: one file per source module, so that an application's
// bundler (with `sideEffects: false`) drops every module it does not use, such as the
// kinds a `connectWith([personKind])` never names. A bundled file would keep them: a
// kind is built by a top-level call, which a bundler cannot prove free of effects.
// Its types are bundled per entry.
//
// ky is ESM-only: the CJS build must carry it inside, or `require('adis-sdk')`
// fails at run time with `import_ky.default.create is not a function`.
//
// The third build is for pages without a bundler: the light entry in one minified,
// self-contained ES module, `dist/browser/helpers.js` (`adis-sdk/helpers/browser`),
// which a page imports from `<script type="module">`. Its types are the light entry's.

/**
 * The no-bundler file's build, also run by test/browser/no-bundler.test.ts (into a
 * folder of its own) so that the browser test always loads the current code.
 */
export const browserHelpers: Options = {
  entry: { helpers: 'src/helpers/index.ts' },
  outDir: 'dist/browser',
  format: ['esm'],
  platform: 'browser',
  // Browsers of the last few years, as the signup widget: fetch, AbortSignal, `?.`.
  target: ['chrome100', 'firefox100', 'safari15', 'edge100'],
  minify: true,
  sourcemap: true,
  treeshake: true,
};

export default defineConfig([
  {
    // The `adis-export`, `adis-check` and `adis-sync` commands (bins, dist/cli/*-cli.js)
    // are emitted with the ESM library; they keep their shebang lines.
    entry: ['src/**/*.ts'],
    bundle: false,
    format: ['esm'],
    dts: {
      entry: {
        index: 'src/index.ts',
        helpers: 'src/helpers/index.ts',
        schema: 'src/schema/index.ts',
        webhooks: 'src/webhooks/index.ts',
        check: 'src/check/index.ts',
        sync: 'src/sync/index.ts',
        'server-kit': 'src/server-kit/index.ts',
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
      webhooks: 'src/webhooks/index.ts',
      check: 'src/check/index.ts',
      sync: 'src/sync/index.ts',
      'server-kit': 'src/server-kit/index.ts',
    },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    noExternal: ['ky'],
    treeshake: true,
  },
  browserHelpers,
]);

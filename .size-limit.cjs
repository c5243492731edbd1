// Bundle-size budgets, checked by `npm run size` (part of `npm test`) on the built
// `dist/`. Sizes are minified and gzipped (not brotli), bundled with esbuild by
// @size-limit/preset-small-lib, dependencies included; 1 kB = 1000 bytes.
// Measured figures and how they break down: docs/performance.md, "Bundle size".
module.exports = [
  {
    // A page that only records signatures, e.g. examples/signup-widget: the light
    // entry uses fetch, with no zod, ky or uri-template at run time.
    name: 'signature page: { recordSignature } from adis-sdk/helpers',
    path: 'dist/helpers.js',
    import: '{ recordSignature }',
    gzip: true,
    limit: '6 kB',
  },
  {
    // Everything the main entry exports, with ky, zod and uri-template bundled.
    // The goal was 20 kB; it is NOT met: measured 39.9 kB, of which zod (its
    // tree-shakeable `zod/mini` API, which the schemas use) adds 10.2 kB, ky 4.6 kB,
    // uri-template 4.1 kB and the SDK's own schemas and classes 21.0 kB. `{ connect }`
    // alone is 36.6 kB (the client registers every resource kind). The error contract
    // (typed errors for every server fault, body reading inside the attempt) added
    // 2.4 kB of the SDK's own code: 42.3 kB. This limit is the measured size rounded
    // up: it catches growth, it is not the goal.
    name: 'full SDK: import * from adis-sdk (goal of 20 kB not met; measured 42.3 kB)',
    path: 'dist/index.js',
    import: '*',
    gzip: true,
    limit: '43 kB',
  },
];

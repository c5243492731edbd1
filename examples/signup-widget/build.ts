/**
 * Bundles the signup widget: `npm run build:widget` (or `npx tsx examples/signup-widget/build.ts`)
 * writes `examples/signup-widget/dist/widget.js`, minified, for browsers.
 *
 * The browser test calls {@link buildWidget} too, so it always tests the current code
 * rather than a bundle left over from an earlier build.
 */
import { fileURLToPath } from 'node:url';
import { type BuildResult, build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where the bundle is written. */
export const WIDGET_BUNDLE = `${here}dist/widget.js`;

/**
 * Bundles `widget.ts` with the SDK's light `adis-sdk/helpers` entry into one classic
 * script. The import is pointed at the SDK's source, so the widget does not need
 * `npm run build` first and never picks up a stale `dist/`; a page of your own would
 * import the published `adis-sdk/helpers` the same way.
 *
 * @example
 * ```ts
 * const result = await buildWidget();
 * console.log(result.metafile?.outputs);
 * ```
 */
export function buildWidget(): Promise<BuildResult<{ metafile: true }>> {
  return build({
    entryPoints: [`${here}widget.ts`],
    outfile: WIDGET_BUNDLE,
    bundle: true,
    minify: true,
    sourcemap: true,
    // A classic script (not a module): it runs from file:// pages too, where browsers
    // refuse module scripts.
    format: 'iife',
    platform: 'browser',
    // Browsers of the last few years: fetch, AbortSignal, optional chaining.
    target: ['chrome100', 'firefox100', 'safari15', 'edge100'],
    alias: { 'adis-sdk/helpers': `${root}src/helpers/index.ts` },
    metafile: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await buildWidget();
  const bytes = Object.entries(result.metafile.outputs)
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, output]) => `${file}: ${output.bytes} bytes`);
  console.log(`Built ${bytes.join(', ')}`);
}

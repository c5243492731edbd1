import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

// Edge safety of the published entries (npm test builds dist/ first): each bundles for a
// browser and for a Worker with no Node built-in, and runs its module body where only
// web-platform globals exist, reading no Node global. adis-export, adis-sdk/sync and the
// testing kit are Node-only by design and are not checked here (docs/export.md,
// docs/sync.md, docs/testing.md).
const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { import?: string | { default?: string } }>;
};

/** The file package.json "exports" gives `import` for a subpath, as Node and bundlers pick it. */
function importTarget(subpath: string): string {
  const target = manifest.exports[subpath];
  const chosen = typeof target === 'object' ? target.import : undefined;
  const file = typeof chosen === 'object' ? chosen.default : chosen;
  if (file === undefined) {
    throw new Error(`package.json "exports" has no import target for ${subpath}`);
  }
  return file.replace(/^\.\//, '');
}

/** The entries that must run on every runtime, and one export each that must be a function. */
const entries = [
  { specifier: 'adis-sdk', subpath: '.', probe: 'connect' },
  { specifier: 'adis-sdk/helpers', subpath: './helpers', probe: 'recordSignature' },
  { specifier: 'adis-sdk/helpers/browser', subpath: './helpers/browser', probe: 'recordSignature' },
  { specifier: 'adis-sdk/schema', subpath: './schema', probe: 'parseIdentifier' },
  { specifier: 'adis-sdk/webhooks', subpath: './webhooks', probe: 'webhookHandler' },
  // The checker needs fetch alone: a Worker or a page may check a server too (the
  // adis-check command around it is Node's).
  { specifier: 'adis-sdk/check', subpath: './check', probe: 'checkServer' },
  // A server on the edge (a Worker implementing the API) validates with the strict bodies.
  { specifier: 'adis-sdk/server-kit', subpath: './server-kit', probe: 'strictHelperBodies' },
] as const;

/**
 * Entries that are Node's by design, not checked here: `adis-sdk/sync` keeps its state in
 * files (`openSyncState`, node:fs), as the `adis-sync` command around it does (docs/sync.md).
 */
const NODE_ONLY = ['./sync'];

/** How a page bundler and wrangler (Cloudflare Workers) resolve packages. */
const targets = {
  browser: { platform: 'browser' },
  worker: {
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
  },
} satisfies Record<string, Pick<BuildOptions, 'platform' | 'conditions' | 'mainFields'>>;
type Target = keyof typeof targets;

const isNodeBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || builtinModules.includes(specifier);

/** Every Node built-in a bundle reaches: bundled in, disabled by a `browser` map, or left external. */
function nodeBuiltinsIn(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const [path, input] of Object.entries(metafile.inputs)) {
    const name = path.replace(/^\(disabled\):/, '');
    if (isNodeBuiltin(name)) found.add(name);
    for (const imported of input.imports) {
      for (const specifier of [imported.path, imported.original ?? '']) {
        if (isNodeBuiltin(specifier)) found.add(specifier);
      }
    }
  }
  return [...found].sort();
}

interface EdgeBundle {
  code: string;
  inputs: string[];
}

/**
 * Bundles `export * from '<specifier>'` from the package root (so `adis-sdk/...` resolves
 * through package.json "exports" to dist/, as for a user) into one script that sets `__entry`.
 * Rejects when esbuild cannot bundle it or the bundle reaches a Node built-in.
 */
async function edgeBundle(specifier: string, target: Target): Promise<EdgeBundle> {
  const result = await build({
    stdin: { contents: `export * from '${specifier}';`, resolveDir: root, loader: 'js' },
    // Not the repository's tsconfig.json: its "paths" map adis-sdk/schema to src/.
    tsconfigRaw: {},
    ...targets[target],
    bundle: true,
    format: 'iife',
    globalName: '__entry',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const builtins = nodeBuiltinsIn(result.metafile);
  if (builtins.length > 0) {
    throw new Error(`the ${target} bundle of ${specifier} reaches Node built-ins: ${builtins}`);
  }
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

const bundles = new Map<string, Promise<EdgeBundle>>();
/** One bundle per entry and target, shared by the tests that read it. */
function entryBundle(specifier: string, target: Target): Promise<EdgeBundle> {
  const key = `${target} ${specifier}`;
  let bundle = bundles.get(key);
  if (bundle === undefined) {
    bundle = edgeBundle(specifier, target);
    bundles.set(key, bundle);
  }
  return bundle;
}

/** Globals Node has and Workers and browsers do not: reading one at import time is a bug. */
const NODE_ONLY_GLOBALS = [
  'process',
  'Buffer',
  'global',
  'setImmediate',
  'clearImmediate',
  'require',
  'module',
  'exports',
  '__dirname',
  '__filename',
] as const;

/** The web-platform globals a Cloudflare Worker has, lent from Node 20's own. */
const WEB_GLOBALS = [
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'TextEncoderStream',
  'TextDecoderStream',
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'File',
  'AbortController',
  'AbortSignal',
  'crypto',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'queueMicrotask',
  'structuredClone',
  'console',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'CompressionStream',
  'DecompressionStream',
  'performance',
  'Event',
  'EventTarget',
  'DOMException',
  'MessageChannel',
  'BroadcastChannel',
  'atob',
  'btoa',
] as const;

interface Evaluation {
  /** What the script's `__entry` holds after it ran. */
  exports: Record<string, unknown> | undefined;
  /** What it threw, if it did. */
  error: unknown;
  /** Each read (`typeof` and `in` included) of a Node-only global, in order. */
  nodeGlobalsRead: string[];
}

/** Runs a bundle in a fresh context shaped like a Worker's global scope. */
async function evaluateInWorkerScope(code: string): Promise<Evaluation> {
  const nodeGlobalsRead: string[] = [];
  const scope: Record<string, unknown> = { navigator: { userAgent: 'Cloudflare-Workers' } };
  for (const name of WEB_GLOBALS) scope[name] = (globalThis as Record<string, unknown>)[name];
  for (const name of NODE_ONLY_GLOBALS) {
    Object.defineProperty(scope, name, {
      get: () => {
        nodeGlobalsRead.push(name);
        return undefined;
      },
    });
  }
  const context = vm.createContext(scope);
  vm.runInContext('globalThis.self = globalThis;', context);
  let error: unknown;
  try {
    vm.runInContext(code, context, { filename: 'bundle.js' });
  } catch (thrown) {
    error = thrown;
  }
  // Work the module body queued (promise jobs, zero-delay timers) is import time too.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const exports = (scope as { __entry?: Record<string, unknown> }).__entry;
  return { exports, error, nodeGlobalsRead };
}

let namesInNode: Record<string, string[]> | undefined;
/** Each entry's export names as plain Node imports it by name (one child process, not vitest's loader). */
function exportNamesInNode(): Record<string, string[]> {
  namesInNode ??= JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const names = {};
        for (const specifier of ${JSON.stringify(entries.map((entry) => entry.specifier))}) {
          names[specifier] = Object.keys(await import(specifier)).sort();
        }
        console.log(JSON.stringify(names));`,
      ],
      { cwd: root, encoding: 'utf8' },
    ),
  ) as Record<string, string[]>;
  return namesInNode;
}

describe('the checks themselves', () => {
  it('cover every entry package.json exports, and the web globals they lend exist', () => {
    const checked: string[] = entries.map((entry) => entry.subpath);
    expect(Object.keys(manifest.exports).filter((subpath) => !checked.includes(subpath))).toEqual([
      ...NODE_ONLY,
      './package.json',
    ]);
    for (const name of WEB_GLOBALS) expect(globalThis[name], name).toBeDefined();
  });

  it.each(Object.keys(targets) as Target[])(
    'refuse a module that imports node:fs or bare crypto (%s bundle)',
    async (target) => {
      await expect(edgeBundle(join(fixtures, 'imports-node-fs.ts'), target)).rejects.toThrow(
        /"node:fs"/,
      );
      await expect(edgeBundle(join(fixtures, 'imports-bare-crypto.ts'), target)).rejects.toThrow(
        /"crypto"/,
      );
    },
  );

  it('find a built-in that a bundler leaves external (as platform node does)', async () => {
    const result = await build({
      entryPoints: [join(fixtures, 'imports-node-fs.ts'), join(fixtures, 'imports-bare-crypto.ts')],
      platform: 'node',
      bundle: true,
      write: false,
      outdir: 'out',
      metafile: true,
      logLevel: 'silent',
    });
    expect(nodeBuiltinsIn(result.metafile)).toEqual(['crypto', 'node:fs']);
  });

  it('refuse adis-export, which is Node-only by design (docs/export.md)', async () => {
    await expect(edgeBundle('./dist/cli/export-cli.js', 'worker')).rejects.toThrow(/"node:fs"/);
  });

  it('record a module that reads process.env while it is imported', async () => {
    const { code } = await edgeBundle(join(fixtures, 'reads-process-env.ts'), 'browser');
    const evaluation = await evaluateInWorkerScope(code);
    expect(evaluation.nodeGlobalsRead).toEqual(['process']);
    // As in a Worker, where `process` is not defined, the read then fails.
    expect(String(evaluation.error)).toMatch(/TypeError: .*'env'/);
  });
});

describe.each(entries)('$specifier', ({ specifier, subpath, probe }) => {
  it.each(Object.keys(targets) as Target[])(
    'bundles for %s with no Node built-in, from its exports import file',
    async (target) => {
      const { inputs } = await entryBundle(specifier, target);
      expect(inputs).toContain(importTarget(subpath));
      expect(inputs.filter((input) => input.startsWith('src/'))).toEqual([]);
    },
  );

  it.each(Object.keys(targets) as Target[])(
    'runs its %s bundle in a Worker-like scope, reading no Node global, with all its exports',
    async (target) => {
      const { code } = await entryBundle(specifier, target);
      const { exports, error, nodeGlobalsRead } = await evaluateInWorkerScope(code);
      expect(error).toBeUndefined();
      expect(nodeGlobalsRead).toEqual([]);
      expect(typeof exports?.[probe]).toBe('function');
      expect(Object.keys(exports ?? {}).sort()).toEqual(exportNamesInNode()[specifier]);
    },
  );
});

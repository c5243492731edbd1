// The layer rules of docs/architecture.md ("Layers"), checked by `npm run check:layers`
// (part of `npm test`). Each rule names a layer and what it must not import; a rule's
// comment says why. Type-only imports count: a layer that names a type from above
// depends on it as much as one that calls it. Cycles are dpdm's job (check:cycles).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-unresolvable-import',
      comment:
        'An import that resolves to no file is a broken module (and would slip past every rule below).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    // ---- the SDK (src/) ----
    {
      name: 'wire-imports-nothing',
      comment:
        'src/wire/ is the bottom of the SDK (and what the server shares of it): predicates and wire constants, no dependency at all.',
      severity: 'error',
      from: { path: '^src/wire/' },
      to: { pathNot: '^src/wire/' },
    },
    {
      name: 'schema-imports-only-schema-and-wire',
      comment:
        'src/schema/ is the pure schema layer (adis-sdk/schema, imported by the server): zod, itself and src/wire/ only.',
      severity: 'error',
      from: { path: '^src/schema/' },
      to: { path: '^src/', pathNot: '^src/(schema|wire)/' },
    },
    {
      name: 'errors-below-hal-and-http',
      comment:
        'Typed errors are the bottom of the transport layer: hal and http throw them; they import neither.',
      severity: 'error',
      from: { path: '^src/errors/' },
      to: { path: '^src/', pathNot: '^src/(errors|wire)/' },
    },
    {
      name: 'transport-below-navigator',
      comment:
        'HAL parsing and the transport (src/hal/, src/http/) know nothing of kinds, the navigator or the entries: errors, each other and src/wire/ only.',
      severity: 'error',
      from: { path: '^src/(hal|http)/' },
      to: { path: '^src/', pathNot: '^src/(errors|hal|http|wire)/' },
    },
    {
      name: 'helpers-entry-is-light',
      comment:
        'adis-sdk/helpers (src/helpers/) runs with fetch alone: it never reaches the navigator, presets or the main entry.',
      severity: 'error',
      from: { path: '^src/helpers/' },
      to: { path: '^src/(navigator|presets|export|cli|index\\.ts)' },
    },
    {
      name: 'helpers-take-only-types-from-schema',
      comment:
        "The light entry names the schema layer's types but never loads it (zod stays out of the widget bundle).",
      severity: 'error',
      from: { path: '^src/helpers/' },
      to: { path: '^src/schema/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'helpers-load-no-heavy-package',
      comment:
        'No zod, ky or uri-template in the light entry (its size budget is in .size-limit.cjs).',
      severity: 'error',
      from: { path: '^src/helpers/' },
      to: { path: 'node_modules/(zod|ky|uri-template)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'webhooks-entry-is-light',
      comment:
        'adis-sdk/webhooks (src/webhooks/) runs in any receiver (Workers, Deno, Node): no navigator, presets, helpers or main entry, and the schema layer and zod, ky or uri-template as types only (validation takes the kinds the caller imports).',
      severity: 'error',
      from: { path: '^src/webhooks/' },
      to: {
        path: '^src/(navigator|presets|helpers|http|hal|export|cli|index\\.ts)|^src/errors/index\\.ts$',
      },
    },
    {
      name: 'webhooks-take-only-types-from-schema',
      comment: "The webhook entry names the records' types but never loads a schema.",
      severity: 'error',
      from: { path: '^src/webhooks/' },
      to: {
        path: '^src/schema/|node_modules/(zod|ky|uri-template)/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'check-reads-the-layers-below',
      comment:
        'adis-sdk/check (src/check/) reads answers as a server sent them: it stands on the schema, HAL, errors and wire layers and the preset kinds, never on the navigator, the helpers, the other commands or the main entry.',
      severity: 'error',
      from: { path: '^src/check/' },
      to: { path: '^src/(navigator|helpers|http|export|webhooks|cli|index\\.ts)' },
    },
    {
      name: 'only-the-command-loads-check',
      comment:
        'The checker is its own entry: no other entry or layer may pull it in (the browser and light entries must not grow).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(check|cli)/' },
      to: { path: '^src/check/' },
    },
    {
      name: 'sync-stands-on-the-navigator',
      comment:
        'adis-sdk/sync (src/sync/) reads and writes through the navigator and the schema layer, like any user of the SDK; it never reaches the other commands, the checker, the light entries or the main entry.',
      severity: 'error',
      from: { path: '^src/sync/' },
      to: { path: '^src/(helpers|export|check|webhooks|server-kit|cli|index\\.ts)' },
    },
    {
      name: 'only-the-command-loads-sync',
      comment:
        'The sync is its own entry (Node only: its state lives in files): no other entry or layer may pull it in.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(sync|cli)/' },
      to: { path: '^src/sync/' },
    },
    {
      name: 'navigator-below-presets-and-entries',
      comment:
        "The navigator serves every preset and entry; it may name a preset kind's declaration (src/presets/action-network/), not a preset.",
      severity: 'error',
      from: { path: '^src/navigator/' },
      to: { path: '^src/(presets/[^/]+\\.ts$|export/|cli/|index\\.ts$)' },
    },
    {
      name: 'preset-kinds-are-declarations',
      comment:
        "A preset's kinds (src/presets/action-network/) are declarations like src/schema/kinds/ (the server builds its kinds from them, through adis-sdk/server-kit): they import nothing above the schema layer, not even a type.",
      severity: 'error',
      from: { path: '^src/presets/action-network/' },
      to: { path: '^src/', pathNot: '^src/(schema|wire|presets/action-network)/' },
    },
    {
      name: 'server-kit-is-pure',
      comment:
        'adis-sdk/server-kit (src/server-kit/) is what a server takes of the SDK: the schema layer, the wire facts and the preset kinds, nothing of the client (navigator, transport, helpers).',
      severity: 'error',
      from: { path: '^src/server-kit/' },
      to: { path: '^src/', pathNot: '^src/(schema|wire|presets/action-network|server-kit)/' },
    },
    {
      name: 'nothing-of-the-sdk-loads-server-kit',
      comment:
        'The server kit is an entry for servers: no client entry or layer pulls it in (it would carry the strict schemas into bundles).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/server-kit/' },
      to: { path: '^src/server-kit/' },
    },
    {
      name: 'export-and-cli-use-public-entries',
      comment:
        'adis-export, adis-check and adis-sync are users of the SDK: they import the public entries (src/index.ts, src/schema/index.ts, src/check/index.ts, src/sync/index.ts) and src/wire/, never a module behind them.',
      severity: 'error',
      from: { path: '^src/(export|cli)/' },
      to: {
        path: '^src/',
        pathNot:
          '^src/(export/|cli/|wire/|index\\.ts$|schema/index\\.ts$|check/index\\.ts$|sync/index\\.ts$)',
      },
    },
    {
      name: 'sdk-never-imports-the-server',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^reference-server/' },
    },
    // ---- the reference server (reference-server/src/) ----
    {
      name: 'server-uses-the-sdk-by-its-published-entries',
      comment:
        'The server is built on the SDK as any other server could be: through adis-sdk/schema and adis-sdk/server-kit (mapped to their index files by tsconfig.json paths), never a module behind them.',
      severity: 'error',
      from: { path: '^reference-server/src/' },
      to: {
        path: '^src/',
        pathNot: '^src/(schema|server-kit)/index\\.ts$',
      },
    },
    {
      name: 'storage-is-the-bottom',
      comment: 'Storage (reference-server/src/storage/) knows no rule, preset or HTTP.',
      severity: 'error',
      from: { path: '^reference-server/src/storage/' },
      to: {
        path: '^reference-server/src/',
        pathNot: '^reference-server/src/storage/',
      },
    },
    {
      name: 'storage-engines-apart',
      comment:
        'An engine (reference-server/src/storage/sqlite/, postgres/) uses the contract and the shared parts (storage/*.ts), never another engine: each can be read, changed and removed alone.',
      severity: 'error',
      from: { path: '^reference-server/src/storage/(sqlite|postgres)/' },
      to: {
        path: '^reference-server/src/storage/(sqlite|postgres)(/|\\.ts$)',
        pathNot: '^reference-server/src/storage/$1/',
      },
    },
    {
      name: 'domain-knows-no-http-or-preset',
      comment:
        "Domain rules (reference-server/src/domain/) run outside HTTP (personSignup, seeds): storage, the SDK's schema and wire only. What a preset sets reaches them as data.",
      severity: 'error',
      from: { path: '^reference-server/src/domain/' },
      to: {
        path: '^reference-server/src/',
        pathNot: '^reference-server/src/(domain/|storage/)',
      },
    },
    {
      name: 'seeds-are-domain-level',
      comment:
        'seed.ts, seed-activity.ts and seed/ (the activity as steps and their loop) write records through the domain, without HTTP or presets.',
      severity: 'error',
      from: { path: '^reference-server/src/(seed(-activity)?\\.ts$|seed/)' },
      to: {
        path: '^reference-server/src/',
        pathNot: '^reference-server/src/(domain/|storage/|seed/|seed\\.ts$)',
      },
    },
    {
      name: 'presets-below-http',
      comment:
        'A preset (reference-server/src/presets/) is data over the domain: it may import the domain, storage and seeds; the HTTP layer reads it, never the reverse.',
      severity: 'error',
      from: { path: '^reference-server/src/presets/' },
      to: {
        path: '^reference-server/src/',
        pathNot: '^reference-server/src/(presets/|domain/|storage/|seed\\.ts$)',
      },
    },
    {
      name: 'http-below-the-entries',
      comment:
        'The HTTP layer (reference-server/src/http/) is built by the entries (index.ts, cli.ts with cli/, server.ts, testing.ts); it imports none of them. Of webhooks/ it takes only what imports nothing of the server: the SSRF check (address-check.ts: subscriptions are checked at creation as at delivery) and the delivery bounds (delivery-concurrency.ts: createApp checks its options).',
      severity: 'error',
      from: { path: '^reference-server/src/http/' },
      to: {
        path: '^reference-server/src/',
        pathNot:
          '^reference-server/src/(http/|presets/|domain/|storage/|webhooks/(address-check|delivery-concurrency)\\.ts$)',
      },
    },
    {
      name: 'cli-folder-is-the-cli-entry',
      comment:
        "reference-server/src/cli/ is the command line's entry (cli.ts) split by job: entry-level, it may import anything of the server, and nothing but cli.ts (and cli/ itself) imports it, so no layer or other entry comes to depend on the command line's flags, files or exit codes.",
      severity: 'error',
      from: { path: '^reference-server/src/', pathNot: '^reference-server/src/(cli\\.ts$|cli/)' },
      to: { path: '^reference-server/src/cli/' },
    },
    {
      name: 'webhook-delivery-below-the-entries',
      comment:
        'Webhook delivery (reference-server/src/webhooks/) runs beside the server, started by the entries: it renders with the HTTP layer and reads presets, domain and storage, never an entry (config-file.ts is a parser the entries share).',
      severity: 'error',
      from: { path: '^reference-server/src/webhooks/' },
      to: {
        path: '^reference-server/src/',
        pathNot:
          '^reference-server/src/(webhooks/|http/|presets/|domain/|storage/|config-file\\.ts$)',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(test|dist|node_modules)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js'],
    },
    skipAnalysisNotInRules: true,
  },
};

// Bundle-size budgets, checked by `npm run size` (part of `npm test`) on the built
// `dist/`. Sizes are minified and gzipped (not brotli), bundled with esbuild by
// @size-limit/preset-small-lib, dependencies included; 1 kB = 1000 bytes.
// Measured figures, the goals and each bundle's composition (esbuild
// metafile, by package): docs/performance.md, "Bundle size".

// What a page downloads first: the helper bodies (`schema/helper-bodies.js`) load on
// the first helper call, so they are left out here and measured on their own below.
const initialLoad = (config) => ({ ...config, external: ['*/helper-bodies.js'] });

module.exports = [
  {
    // A page that only records signatures, e.g. examples/signup-widget: the light
    // entry uses fetch, with no zod, ky or uri-template at run time. Goal 3 kB.
    name: 'signature page: { recordSignature } from adis-sdk/helpers',
    path: 'dist/helpers/index.js',
    import: '{ recordSignature }',
    gzip: true,
    // 3.14 kB until issue 14, whose Idempotency-Key added 0.7 kB: the key and its
    // check (with InvalidIdempotencyKeyError), and retries of a keyed call within its
    // deadline, which save a signature whose connection broke; background_processing
    // and the accepted result are 0.1 kB of it. The newcomer's frictions (item 9): +0.04 kB
    // (3.94), HTTPError's errorCodes and errorCode getters (a class's members are never
    // tree-shaken; errorDescriptions, which they reuse, was already in). Issue 47: +0.57
    // kB (4.51), past its goal of +0.2 kB: the SDK's one retry policy, which the page
    // now reads as the client does. Measured by taking each part out: the verdict and
    // its call 0.21 kB; Retry-After read as seconds, an HTTP date or a rate-limit reset
    // header (requestedWait: the transport's and ky's reading) 0.11 kB; the `retry`
    // option in the client's shape, its defaults and its RangeError 0.12 kB; the
    // backoff, limit and deadline of the loop the rest. Then −0.01 kB (4.50), the
    // std:error decoder's spellings as one table read by one loop, in every bundle below;
    // and −0.07 kB (4.43): the error classes declare the members their constructors
    // assign instead of defining them as class fields too (errors/adis-error.ts).
    limit: '4.44 kB',
  },
  {
    // The same page with the offline queue (issue 35: a signature made offline is kept
    // on the device and sent when the browser is back). The queue is opt-in, in a module
    // of its own: the page above does not load it. Goal 6 kB.
    name: 'signature page with the offline queue: { recordSignature, createSignupQueue }',
    path: 'dist/helpers/index.js',
    import: '{ recordSignature, createSignupQueue }',
    gzip: true,
    // Issue 47: +0.63 kB (6.21), past the goal: the retry policy above (0.57 kB) and
    // the queue's resend by the same verdict (unconfirmed, offline as unsent). The
    // decoder's table: 6.2; the errors' declared members: 6.14.
    limit: '6.15 kB',
  },
  {
    // The prebuilt file for pages without a bundler (`adis-sdk/helpers/browser`,
    // docs/browser.md): the whole light entry in one module, all of which a page loads.
    name: 'no bundler: dist/browser/helpers.js, the whole file',
    path: 'dist/browser/helpers.js',
    gzip: true,
    // 4.65 kB until issue 35, whose offline queue (createSignupQueue: IndexedDB, Web
    // Locks, retries from the device) added 1.45 kB: one file to copy carries it all.
    // Issue 43: +0.21 kB (6.33), every tab told what became of a saved call (a
    // BroadcastChannel, errors copied as plain data between tabs). Item 9 of the
    // newcomer's frictions: +0.04 kB (6.37), HTTPError's errorCodes and errorCode.
    // Curies whose href names no relation: +0.12 kB (6.36 to 6.48), LinkNotFoundError's
    // curieProblems and the message naming each such curie, what is wrong with it and
    // how to read its prefix anyway. The file exports the class, and a class's
    // constructor is never tree-shaken; the light entry itself never passes problems,
    // and the signature pages are unchanged. Issue 47: +0.61 kB (7.1), the one retry
    // policy (see the pages above). The decoder's table: 7.09; the errors' declared
    // members: 7.01.
    limit: '7.02 kB',
  },
  {
    // connectWith + one kind: only people's schemas. Goal 20 kB, out of reach with
    // zod, ky and uri-template (17.8 kB of it gzipped: docs/performance.md).
    name: 'connect and page people: { connectWith, personKind } from adis-sdk',
    path: 'dist/index.js',
    import: '{ connectWith, personKind }',
    gzip: true,
    modifyEsbuildConfig: initialLoad,
    // 31.4 kB after issue 12; issue 13's read path (the check that lets a record in
    // shape skip zod's copy, early links for read-ahead) added 1.4 kB; issue 14's
    // Idempotency-Key (key, check, error, keyed retries) and background helper calls 0.5 kB,
    // and client.version (std_version, osdi_version or <prefix>_version) 0.1 kB, and the
    // review's fixes (a resumed walk that ends on a loop back, a 409 read by its
    // Retry-After only) 0.05 kB. Server presets are not in it: a bundle that imports
    // connect alone leaves them out. Issue 20 added 2.6 kB (33.62 to 36.22): refusing a
    // document that is not an entry point, saying what it is (0.7), the names-only table
    // of every declared kind so no plural is guessed (0.35) and UnknownKindError, the
    // write side's vendor members, Date preprocess and money union (0.4),
    // writes in the caller's order without server-owned members (0.2), the body cap and
    // ResponseTooLargeError (0.3), POST retries only where keys are honoured (0.2),
    // background writes, honest record URLs and preset kinds' collections (0.4).
    // Issue 36: +0.11 kB (36.71), a donation's own created_date (clientCreatedDate): the
    // field builder and its date-time check live with the other fields (fields.ts), which
    // every kind loads; left there rather than passing a builder through defineKind.
    // Item 9 of the newcomer's frictions: +0.03 kB (36.75, at the limit), HTTPError's
    // errorCodes and errorCode getters. The length limits (a security issue): +0.14 kB
    // (36.89), email addresses within RFC 5321 and names and other short texts of at
    // most 255 characters on the server's sides, which the person's one definition
    // carries into every side (checked with a refine: zod's maxLength check, used
    // nowhere else here, would have made it +0.38 kB). Background processing spelt as
    // Action Network documents it: +0.04 kB (36.93), connect's backgroundParameter (a
    // preset's spelling, carried by the connection to every background write and helper
    // call: the option, the context's member and the one place that sets it on a URL).
    // Curies whose href names no relation (none, empty, no {rel}): +0.33 kB (37.26).
    // Curies keeps such a curie by name, with its problem, instead of expanding it into
    // one URI for all its relations (Curies.problems, 0.17 kB); connect never guesses one
    // as the specification's prefix (0.03 kB); LinkNotFoundError names each, with what is
    // wrong (0.12 kB). Without them, a preset naming the prefix found no collection, and
    // a client without one took every osdi: relation for the first. Issue 47: +0.15 kB
    // (37.44), the page loop in pieces (PageGuard and ReadAhead, two small classes whose
    // members are never tree-shaken); the transport's retries by the one policy cost
    // nothing more. The decoder's table: 37.41; the errors' declared members: 37.28.
    limit: '37.29 kB',
  },
  {
    // Everything the main entry exports, every kind included. Goal 30 kB (see above).
    name: 'full SDK: import * from adis-sdk',
    path: 'dist/index.js',
    import: '*',
    gzip: true,
    // 42.9 kB after issue 12, plus the 1.4 kB of issue 13's read path (see above) and
    // the 0.9 kB of issue 14's Idempotency-Key and background helper calls, and its
    // server presets (SERVER_PRESETS, actionNetwork) and client.version, 0.25 kB;
    // helperHref (issue 14, a helper's href whatever the curie prefix) 0.35 kB; the
    // review's fixes 0.06 kB. Issue 20: 3.25 kB (45.99 to 49.24), the 2.6 kB above plus
    // Action Network's kinds (event campaigns, campaigns, unique id lists, custom
    // fields, embeds) and amountValue. Issue 21: 0.18 kB (49.28 to 49.46), the schemas'
    // extended side (kind.extendedSchema, extendedHelperBodies, isServerMode: what the
    // reference server takes under a real server's preset) and its reader of Action
    // Network's date-times (2026-09-01 18:00:00 to ISO 8601), 0.1 kB of it; then 0.1 kB
    // more (49.56): an advocacy campaign's targets as a string or Action Network's array,
    // and fitsAsIs walking unions (without it such a record is always copied by zod).
    // Issue 35: 1.17 kB (50.77), the offline queue of the light entry, which the main
    // entry exports too. Issue 36: +0.21 kB (51.11), a donation's own created_date.
    // Issue 43: +0.2 kB (51.31), the queue's events told to every tab (see above).
    // Item 9 of the newcomer's frictions: +0.05 kB (51.36), HTTPError's errorCodes and
    // errorCode getters. The length limits: +0.13 kB (51.49), see above. Background
    // processing spelt as Action Network documents it: +0.06 kB (51.55), connect's
    // backgroundParameter (see above). Curies whose href names no relation: +0.27 kB
    // (51.82), see above. Issue 47: +0.21 kB (52.06), the page loop in pieces and the
    // retry policy read by the light entry's call and queue (see above). The decoder's
    // table: 52.03; the errors' declared members: 51.91.
    limit: '51.92 kB',
  },
  {
    // Loaded on the first helper call (petition.recordSignature, client.signup, …).
    name: 'on demand: helper bodies (schema/helper-bodies.js)',
    path: 'dist/schema/helper-bodies.js',
    import: '{ HELPER_BODIES }',
    gzip: true,
    // Issue 20: +0.15 kB, the bodies built for one side or the other (write, strict),
    // remove_tags, and vendor members passing at any depth. Issue 21: +0.11 kB (15.68 to
    // 15.79), the extended side's date-time reader (it is datetime()'s) and its bodies.
    // Issue 36: +0.25 kB (16.05), a donation's own created_date on every side (the record
    // donation helper takes it) and the helper bodies keeping it for such a kind.
    // The length limits: +0.12 kB (16.19), the bodies' inlined persons and targets
    // hold to them (see above).
    limit: '16.2 kB',
  },
  {
    // A webhook receiver (issue 23): the whole adis-sdk/webhooks entry, parseWebhook,
    // webhookHandler, toNodeListener, the in-memory seen store and the signature check
    // (Web Crypto): no zod, ky or navigator. Measured 4.40 kB.
    name: 'webhook receiver: import * from adis-sdk/webhooks',
    path: 'dist/webhooks/index.js',
    import: '*',
    gzip: true,
    limit: '4.62 kB',
  },
  {
    // Reading deliveries alone (a receiver of its own making). Measured 1.97 kB.
    name: 'webhook parsing: { parseWebhook } from adis-sdk/webhooks',
    path: 'dist/webhooks/index.js',
    import: '{ parseWebhook }',
    gzip: true,
    limit: '2.07 kB',
  },
];

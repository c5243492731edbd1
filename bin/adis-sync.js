#!/usr/bin/env node
// The `adis-sync` command: runs the built command, dist/cli/sync-cli.js. This launcher is
// committed (dist/ is not), so that the bin's file exists in a clone before any build, for
// `npx adis-sync` there; before `npm run build` it says so, exit 2.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/sync-cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'adis-sync: the SDK is not built (dist/cli/sync-cli.js is missing): run npm run build first.\n',
  );
  process.exit(2);
}
await import(cli.href);

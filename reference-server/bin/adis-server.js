#!/usr/bin/env node
// The `adis-server` command: runs the built server, dist/cli.js. This launcher is committed
// (dist/ is not), so that `npm ci` in a clone of the repository finds the bin's file and
// links `node_modules/.bin/adis-server`; before `npm run build` it says so, exit 2.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'adis-server: the server is not built (reference-server/dist/cli.js is missing): run npm run build first, at the repository root.\n',
  );
  process.exit(2);
}
await import(cli.href);
